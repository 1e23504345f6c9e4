'use strict';
// Live scopes of the preview: RGB histogram, luma waveform, RGB parade and vectorscope, recomputed on every repaint.
// studio.js renders the graded photo a second time into a small framebuffer (long side 256 px, one sample per
// block of photo pixels, with the same shader as the canvas) and reads those ~44,000 pixels back; reading the
// 2-megapixel canvas itself would copy 8 MB per repaint. Here every count goes into typed arrays made once, the
// pixel loop allocates nothing, and each scope is painted through a count → colour table (no per-bin maths).

const StudioScopes = (() => {
  const M = StudioMath;
  const SIDE = 256, LEVELS = 256, MAX_COUNT = 4095;
  // Vectorscope: (U, V) × SCALE bins from the centre; V reaches ±0.615 at pure red/cyan, so 200 keeps it inside.
  const VSIZE = 256, SCALE = 200;
  // The scopes' canvases are drawn in the page's own process (willReadFrequently keeps a 2D canvas off the GPU):
  // drawn by the GPU process they queued behind the 2-megapixel preview there, which with SwiftShader (no GPU) made
  // a repaint with the scopes on ~90 ms slower than with them off, for ~8 ms of scope work.
  const SOFTWARE = { willReadFrequently: true };
  const histogram = new Uint32Array(3 * 256);
  const vector = new Uint32Array(VSIZE * VSIZE);
  let wave = null, parade = null, width = 0, height = 0;
  let canvases = null, layers = null, tables = null;

  // Per-code contributions to the vectorscope bin (centre and rounding folded into the red tables), so a pixel
  // costs three table reads per axis: U and V are linear in R′, G′, B′ (StudioMath.uv).
  const U_R = new Float32Array(256), U_G = new Float32Array(256), U_B = new Float32Array(256);
  const V_R = new Float32Array(256), V_G = new Float32Array(256), V_B = new Float32Array(256);
  for (let c = 0; c < 256; c++) {
    const [ur, vr] = M.uv(c / 255, 0, 0), [ug, vg] = M.uv(0, c / 255, 0), [ub, vb] = M.uv(0, 0, c / 255);
    U_R[c] = VSIZE / 2 + 0.5 + SCALE * ur; U_G[c] = SCALE * ug; U_B[c] = SCALE * ub;
    V_R[c] = VSIZE / 2 + 0.5 - SCALE * vr; V_G[c] = -SCALE * vg; V_B[c] = -SCALE * vb;
  }

  /** The sample's size for a photo of w × h: long side 256 pixels. */
  function sampleSize(w, h) {
    const k = Math.min(1, SIDE / Math.max(w, h));
    return [Math.max(1, Math.round(w * k)), Math.max(1, Math.round(h * k))];
  }

  // count → packed RGBA (little-endian ABGR) for one tint: brightness rises as the square root of the count
  // against `reference`, so one sample shows and a flat area does not blind the rest.
  function table(reference, tint) {
    const t = new Uint32Array(MAX_COUNT + 1);
    for (let c = 1; c <= MAX_COUNT; c++) {
      const v = Math.min(1, 0.22 + 0.78 * Math.sqrt(c / reference));
      const [r, g, b] = tint.map((k) => Math.round(255 * v * k));
      t[c] = (255 << 24 | b << 16 | g << 8 | r) >>> 0;
    }
    t[0] = 0xff111111;
    return t;
  }

  function resize(w, h) {
    width = w; height = h;
    const half = (w + 1) >> 1;
    wave = new Uint32Array(w * LEVELS);
    parade = new Uint32Array(3 * half * LEVELS);
    const layer = (lw, lh) => {
      const c = document.createElement('canvas');
      c.width = lw; c.height = lh;
      return { canvas: c, context: c.getContext('2d', SOFTWARE), image: new ImageData(lw, lh) };
    };
    layers = { wave: layer(w, LEVELS), parade: layer(3 * half, LEVELS), vector: layer(VSIZE, VSIZE) };
    tables = {
      wave: table(h / 24, [0.75, 1, 0.8]),
      parade: [table(h / 12, [1, 0.35, 0.35]), table(h / 12, [0.4, 1, 0.4]), table(h / 12, [0.45, 0.6, 1])],
      vector: table(w * h / 3000, [0.85, 1, 0.9])
    };
  }

  /** Counts every sample pixel (RGBA bytes, w × h) into the four scopes. */
  function accumulate(pixels, w, h) {
    if (w !== width || h !== height) resize(w, h);
    histogram.fill(0); vector.fill(0); wave.fill(0); parade.fill(0);
    const half = (w + 1) >> 1, paradeWidth = 3 * half;
    for (let y = 0, i = 0; y < h; y++) {
      for (let x = 0; x < w; x++, i += 4) {
        const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
        histogram[r]++; histogram[256 + g]++; histogram[512 + b]++;
        // Rec. 709 luma in integers (54 + 183 + 19 = 256): the weights the rest of LookStudio uses.
        const luma = (54 * r + 183 * g + 19 * b + 128) >> 8;
        wave[(255 - luma) * w + x]++;
        const column = x >> 1;
        parade[(255 - r) * paradeWidth + column]++;
        parade[(255 - g) * paradeWidth + half + column]++;
        parade[(255 - b) * paradeWidth + 2 * half + column]++;
        const u = (U_R[r] + U_G[g] + U_B[b]) | 0, v = (V_R[r] + V_G[g] + V_B[b]) | 0;
        vector[v * VSIZE + u]++;
      }
    }
  }

  function fill(layer, counts, colours, regions) {
    const out = new Uint32Array(layer.image.data.buffer), w = layer.image.width;
    for (let k = 0; k < counts.length; k++) {
      const t = regions ? colours[Math.min(2, Math.floor((k % w) / regions))] : colours;
      out[k] = t[Math.min(MAX_COUNT, counts[k])];
    }
    layer.context.putImageData(layer.image, 0, 0);
  }

  /** A visible canvas sized to its box (device pixels), with the context scaled to CSS pixels. */
  function surface(canvas) {
    const dpr = window.devicePixelRatio || 1, w = canvas.clientWidth || 1, h = canvas.clientHeight || 1;
    if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
    if (canvas.height !== Math.round(h * dpr)) canvas.height = Math.round(h * dpr);
    const g = canvas.getContext('2d', SOFTWARE);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { g, w, h };
  }

  function levelLines(g, w, h, label) {
    g.strokeStyle = 'rgba(255, 200, 120, 0.35)';
    g.fillStyle = 'rgba(255, 200, 120, 0.8)';
    g.lineWidth = 1;
    g.font = '9px system-ui, sans-serif';
    for (const level of [0, 25, 50, 75, 100]) {
      const y = Math.round(h - 1 - level / 100 * (h - 2)) + 0.5;
      g.beginPath(); g.moveTo(0, y); g.lineTo(w, y); g.stroke();
      if (label) g.fillText(String(level), 2, Math.max(9, y - 2));
    }
  }

  function paintHistogram() {
    const { g, w, h } = surface(canvases.histogram);
    g.fillStyle = '#111';
    g.fillRect(0, 0, w, h);
    let top = 1;
    // The end bins (clipped shadows and highlights) are left out of the scale, so a clipped sky does not flatten
    // the rest; they are still drawn, to the top if need be.
    for (let c = 0; c < 3; c++) for (let k = 1; k < 255; k++) top = Math.max(top, histogram[256 * c + k]);
    g.globalCompositeOperation = 'lighter';
    ['rgba(230, 60, 60, 0.85)', 'rgba(60, 200, 60, 0.85)', 'rgba(70, 110, 255, 0.85)'].forEach((colour, c) => {
      g.fillStyle = colour;
      g.beginPath();
      g.moveTo(0, h);
      for (let k = 0; k < 256; k++) {
        const y = h - Math.min(1, histogram[256 * c + k] / top) * (h - 4);
        g.lineTo(k / 255 * w, y);
      }
      g.lineTo(w, h);
      g.closePath();
      g.fill();
    });
    g.globalCompositeOperation = 'source-over';
  }

  function paintWaveforms() {
    fill(layers.wave, wave, tables.wave);
    let s = surface(canvases.waveform);
    s.g.imageSmoothingEnabled = true;
    s.g.drawImage(layers.wave.canvas, 0, 0, s.w, s.h);
    levelLines(s.g, s.w, s.h, true);
    fill(layers.parade, parade, tables.parade, (width + 1) >> 1);
    s = surface(canvases.parade);
    s.g.drawImage(layers.parade.canvas, 0, 0, s.w, s.h);
    levelLines(s.g, s.w, s.h, false);
    s.g.strokeStyle = '#555';
    s.g.beginPath();
    for (const k of [1, 2]) {
      const x = Math.round(k * s.w / 3) + 0.5;
      s.g.moveTo(x, 0);
      s.g.lineTo(x, s.h);
    }
    s.g.stroke();
  }

  // The graticule: centre cross, the 75 % colour-bar targets, and the skin-tone line at 123° (StudioMath.VEC).
  function graticule(g, size) {
    const c = size / 2, k = size / VSIZE * SCALE, at = (u, v) => [c + k * u, c - k * v];
    g.strokeStyle = 'rgba(255, 255, 255, 0.25)';
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(0, c); g.lineTo(size, c); g.moveTo(c, 0); g.lineTo(c, size);
    g.stroke();
    g.font = '9px system-ui, sans-serif';
    const targets = [['R', [0.75, 0, 0]], ['Yl', [0.75, 0.75, 0]], ['G', [0, 0.75, 0]], ['Cy', [0, 0.75, 0.75]],
                     ['B', [0, 0, 0.75]], ['Mg', [0.75, 0, 0.75]]];
    for (const [name, rgb] of targets) {
      const [x, y] = at(...M.uv(...rgb));
      g.strokeStyle = 'rgba(255, 255, 255, 0.6)';
      g.strokeRect(x - 3, y - 3, 6, 6);
      g.fillStyle = 'rgba(255, 255, 255, 0.75)';
      g.fillText(name, x + 5, y + 3);
    }
    const a = M.VEC.skinDegrees * Math.PI / 180;
    g.strokeStyle = 'rgba(255, 170, 110, 0.9)';
    g.beginPath(); g.moveTo(c, c); g.lineTo(c + c * Math.cos(a), c - c * Math.sin(a)); g.stroke();
    g.fillStyle = 'rgba(255, 170, 110, 0.95)';
    // At the line's outer end, where skin's trace (which lies along the line, nearer the centre) leaves it legible.
    g.textAlign = 'right';
    g.fillText('skin', c + 0.9 * c * Math.cos(a) - 3, c - 0.9 * c * Math.sin(a) + 8);
    g.textAlign = 'start';
  }

  function paintVectorscope() {
    fill(layers.vector, vector, tables.vector);
    const { g, w, h } = surface(canvases.vector), size = Math.min(w, h);
    g.fillStyle = '#111';
    g.fillRect(0, 0, w, h);
    g.save();
    g.translate((w - size) / 2, (h - size) / 2);
    g.drawImage(layers.vector.canvas, 0, 0, size, size);
    graticule(g, size);
    g.restore();
  }

  /** Recomputes and repaints every scope from the sample `pixels` (RGBA, w × h); returns the milliseconds taken. */
  function update(pixels, w, h) {
    if (!canvases) return 0;
    const t0 = performance.now();
    accumulate(pixels, w, h);
    paintHistogram();
    paintWaveforms();
    paintVectorscope();
    return performance.now() - t0;
  }

  /** The scopes' canvases in `box`: each a labelled figure. */
  function mount(box) {
    const figure = (key, title, label) => {
      const canvas = StudioControls.el('canvas', { class: 'scope-' + key, role: 'img', 'aria-label': label });
      box.append(StudioControls.el('figure', { class: 'scope' },
                                   [canvas, StudioControls.el('figcaption', { text: title })]));
      return canvas;
    };
    canvases = {
      histogram: figure('histogram', 'Histogram', 'RGB histogram of the graded preview'),
      waveform: figure('waveform', 'Waveform (luma)', 'Luma waveform: each column of the preview, black at the ' +
                                                      'bottom, white at the top'),
      parade: figure('parade', 'RGB parade', 'RGB parade: the waveform of red, green and blue side by side'),
      vector: figure('vector', 'Vectorscope', 'Vectorscope (U, V) with 75 % colour targets and the skin-tone ' +
                                              'line at 123°')
    };
  }

  return { sampleSize, update, mount, histogram, vector };
})();
