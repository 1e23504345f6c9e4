'use strict';
// The curve editor, for every curve parameter (docs/PLUGINS.md: points [[x, y], …], x strictly increasing, within
// x_min…x_max; a periodic curve — hue — wraps, so its points stay below x_max). Drag a point; click on the curve to
// add one; double-click a point, or drag it off the plot, to remove it; the arrow keys move the selected point,
// [ and ] select another, Delete removes it. An adjustment with several curves (curve.rgb: master, red, green,
// blue) gets one tab each. The drawn curve is StudioMath's port of the plugin's monotone cubic: a display
// approximation — the preview's cube is composed by the server from the plugin itself.

const StudioCurves = (() => {
  const M = StudioMath;
  const el = (...a) => StudioControls.el(...a);
  const COLOURS = { master: '#eeeeee', red: '#ff6b6b', green: '#5fd35f', blue: '#74a2ff' };
  // CSS pixels: grab radius of a point; how far beyond the canvas a dragged point is dropped; how near the curve a
  // click adds a point.
  const HIT = 9, OFF = 24, NEAR = 10;
  const strips = new Map();

  // The step values are rounded to: about 1/5000 of the range, a power of ten (0.0001 on 0…1, 0.01° on hue),
  // and points keep 10 steps apart, so x stays strictly increasing after rounding and in Float.
  function quantum(range) { return Math.pow(10, Math.floor(Math.log10(range / 5000))); }
  function round(v, q) { return parseFloat((Math.round(v / q) * q).toFixed(Math.max(0, -Math.log10(q)))); }

  /** The plot of parameter `p` in a canvas of width × height CSS pixels: value ↔ pixel maps. */
  function frame(p, width, height) {
    const period = p.x_max - p.x_min, margin = p.periodic ? period / 10 : 0;
    const d0 = p.x_min - margin, d1 = p.x_max + margin;
    const left = 6, right = width - 6, top = 6, bottom = height - 20;
    return {
      p, period, d0, d1, left, right, top, bottom, width, height,
      X: (x) => left + (x - d0) / (d1 - d0) * (right - left),
      Y: (y) => top + (p.max - y) / (p.max - p.min) * (bottom - top),
      x: (px) => d0 + (px - left) / (right - left) * (d1 - d0),
      y: (py) => p.max - (py - top) / (bottom - top) * (p.max - p.min),
      qx: quantum(period), qy: quantum(p.max - p.min), eps: 10 * quantum(period)
    };
  }

  function wrap(f, x) {
    return f.p.periodic ? ((((x - f.p.x_min) % f.period) + f.period) % f.period) + f.p.x_min : x;
  }

  /** Where point i of `pts` may go: between its neighbours (a periodic curve's first and last are neighbours). */
  function bounds(f, pts, i) {
    const n = pts.length, p = f.p;
    if (!p.periodic) return [i > 0 ? pts[i - 1][0] + f.eps : p.x_min, i < n - 1 ? pts[i + 1][0] - f.eps : p.x_max];
    if (n === 1) return [-Infinity, Infinity];
    const prev = i > 0 ? pts[i - 1][0] : pts[n - 1][0] - f.period;
    const next = i < n - 1 ? pts[i + 1][0] : pts[0][0] + f.period;
    return [prev + f.eps, next - f.eps];
  }

  /** The point [x, y] a pointer at value (x, y) gives, kept within `lo…hi` (unwrapped), the ranges and the grid. */
  function place(f, x, y, [lo, hi]) {
    const p = f.p;
    if (p.periodic && isFinite(lo)) x += f.period * Math.round(((lo + hi) / 2 - x) / f.period);
    x = lo <= hi ? M.clampTo(x, lo, hi) : (lo + hi) / 2;
    x = round(wrap(f, x), f.qx);
    if (p.periodic && x >= p.x_max) x -= f.period;
    if (!p.periodic) x = M.clampTo(x, p.x_min, p.x_max);
    return [x, round(M.clampTo(y, p.min, p.max), f.qy)];
  }

  function insert(pts, point) {
    const found = pts.findIndex((q) => q[0] > point[0]), index = found < 0 ? pts.length : found;
    return { points: [...pts.slice(0, index), point, ...pts.slice(index)], index };
  }

  function minPoints(p) { return p.periodic ? 1 : 2; }

  // ---- Drawing -------------------------------------------------------------------------------------------------
  // The strip under the plot shows what x means: hues (the Grade plugin's hue scale), Oklab lightness, or levels.
  function strip(f, kind, dpr) {
    const width = Math.max(1, Math.round((f.right - f.left) * dpr));
    const key = [kind, width, f.d0, f.d1].join(':');
    if (!strips.has(key)) {
      const image = new ImageData(width, 1);
      for (let i = 0; i < width; i++) {
        const x = wrap(f, f.x(f.left + (i + 0.5) / dpr));
        const rgb = kind === 'hue' ? M.hueSwatch(x)
          : kind === 'lightness' ? [1, 1, 1].map(() => M.srgbEncode(Math.pow(M.clampTo(x, 0, 1), 3)))
            : [x, x, x].map((v) => M.clampTo((v - f.p.x_min) / f.period, 0, 1));
        image.data.set([...rgb.map((v) => Math.round(255 * v)), 255], 4 * i);
      }
      const c = document.createElement('canvas');
      c.width = width; c.height = 1;
      c.getContext('2d').putImageData(image, 0, 0);
      strips.set(key, c);
    }
    return strips.get(key);
  }

  function drawGrid(g, f) {
    const p = f.p, step = p.periodic && f.period === 360 ? 60 : f.period / 4;
    g.strokeStyle = '#3a3a3a';
    g.lineWidth = 1;
    g.beginPath();
    for (let x = p.x_min; x <= p.x_max + 1e-9; x += step) { g.moveTo(f.X(x), f.top); g.lineTo(f.X(x), f.bottom); }
    for (let k = 0; k <= 4; k++) {
      const y = f.top + k * (f.bottom - f.top) / 4;
      g.moveTo(f.left, y); g.lineTo(f.right, y);
    }
    g.stroke();
  }

  function drawCurve(g, f, pts, colour, width, dash) {
    const s = M.spline(pts, f.p.periodic, f.p.x_min, f.p.x_max);
    g.strokeStyle = colour;
    g.lineWidth = width;
    g.setLineDash(dash || []);
    g.beginPath();
    for (let px = f.left; px <= f.right; px++) {
      const y = f.Y(M.evaluate(s, f.x(px)));
      if (px === f.left) g.moveTo(px, y); else g.lineTo(px, y);
    }
    g.stroke();
    g.setLineDash([]);
  }

  // Each point, and for a periodic curve its copies one period either side (in the wrap-around margins).
  function drawPoints(g, f, pts, selected, colour) {
    const shifts = f.p.periodic ? [-f.period, 0, f.period] : [0];
    pts.forEach(([x, y], i) => {
      for (const shift of shifts) {
        const px = f.X(x + shift), py = f.Y(y);
        if (px < f.left - HIT || px > f.right + HIT) continue;
        g.beginPath();
        g.arc(px, py, i === selected && shift === 0 ? 5 : 4, 0, 2 * Math.PI);
        g.fillStyle = i === selected && shift === 0 ? colour : '#1d1d1d';
        g.fill();
        g.strokeStyle = colour;
        g.lineWidth = 1.5;
        g.stroke();
      }
    });
  }

  function drawMargins(g, f) {
    if (!f.p.periodic) return;
    g.fillStyle = 'rgba(20, 20, 20, 0.55)';
    g.fillRect(0, 0, f.X(f.p.x_min), f.height);
    g.fillRect(f.X(f.p.x_max), 0, f.width - f.X(f.p.x_max), f.height);
    g.strokeStyle = '#777';
    g.setLineDash([3, 3]);
    g.beginPath();
    for (const x of [f.p.x_min, f.p.x_max]) { g.moveTo(f.X(x), f.top); g.lineTo(f.X(x), f.height); }
    g.stroke();
    g.setLineDash([]);
  }

  function draw(ed) {
    const { canvas, step } = ed, p = active(ed), w = canvas.clientWidth, h = canvas.clientHeight;
    if (!w || !h) return;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
    if (canvas.height !== Math.round(h * dpr)) canvas.height = Math.round(h * dpr);
    const g = canvas.getContext('2d'), f = ed.f = frame(p, w, h);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = '#1d1d1d';
    g.fillRect(0, 0, w, h);
    g.imageSmoothingEnabled = true;
    g.drawImage(strip(f, ed.hooks.strip(p), dpr), f.left, f.bottom + 6, f.right - f.left, 12);
    drawGrid(g, f);
    drawCurve(g, f, p.identity, '#777', 1, [4, 3]);
    for (const q of ed.params) {
      if (q !== p && q.x_min === p.x_min && q.x_max === p.x_max && q.min === p.min && q.max === p.max) {
        drawCurve(g, f, step.params[q.name], (COLOURS[q.name] || '#aaa') + '66', 1);
      }
    }
    const colour = COLOURS[p.name] || '#eeeeee', pts = step.params[p.name];
    drawCurve(g, f, pts, colour, 2);
    const picked = ed.ui.picked;
    if (picked && picked.name === p.name) {
      g.strokeStyle = '#fff';
      g.setLineDash([2, 2]);
      g.beginPath(); g.moveTo(f.X(picked.x), f.top); g.lineTo(f.X(picked.x), f.bottom + 18); g.stroke();
      g.setLineDash([]);
    }
    drawPoints(g, f, pts, ed.ui.selected[p.name], colour);
    drawMargins(g, f);
    describe(ed);
  }

  // ---- State -------------------------------------------------------------------------------------------------
  function active(ed) { return ed.params.find((p) => p.name === ed.ui.tab); }

  function setPoints(ed, pts, selected) {
    const p = active(ed), before = JSON.stringify(ed.step.params[p.name]);
    ed.step.params[p.name] = pts;
    ed.ui.selected[p.name] = selected;
    draw(ed);
    if (JSON.stringify(pts) !== before) ed.onChange();
  }

  function text(p, v, axis) {
    const range = axis === 'x' ? p.x_max - p.x_min : p.max - p.min;
    const unit = axis === 'x' && p.periodic && p.x_max === 360 ? '°' : '';
    return (range >= 100 ? v.toFixed(1) : v.toFixed(3)) + unit;
  }

  function describe(ed) {
    const p = active(ed), i = ed.ui.selected[p.name], pts = ed.step.params[p.name];
    ed.readout.textContent = i >= 0 && pts[i]
      ? p.display_name + ' point ' + (i + 1) + ' of ' + pts.length + ': x ' + text(p, pts[i][0], 'x') + ', y ' +
        text(p, pts[i][1], 'y')
      : pts.length + ' points. Click the curve to add one; drag; double-click or drag off to remove.';
    if (ed.pickHint) {
      const on = ed.hooks.isTarget(ed.step, p.name);
      ed.pickHint.textContent = on ? 'Eyedropper: click the preview to put a point at that colour\'s ' +
        (p.periodic ? 'hue' : 'lightness') : 'Click this curve to pick points from the preview';
      ed.pickHint.classList.toggle('on', on);
    }
  }

  // ---- Pointer and keys ----------------------------------------------------------------------------------------
  function local(ed, e) {
    const box = ed.canvas.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top];
  }

  function circular(f, a, b) {
    const d = Math.abs(a - b);
    return f.p.periodic ? Math.min(d, f.period - d) : d;
  }

  function hitPoint(ed, px, py) {
    const f = ed.f, pts = ed.step.params[f.p.name], shifts = f.p.periodic ? [-f.period, 0, f.period] : [0];
    let best = -1, distance = HIT;
    pts.forEach(([x, y], i) => {
      for (const shift of shifts) {
        const d = Math.hypot(f.X(x + shift) - px, f.Y(y) - py);
        if (d <= distance) { best = i; distance = d; }
      }
    });
    return best;
  }

  /** Adds a point on the curve at x (its y the curve's value there), or selects the point already near x. */
  function addAt(ed, x, near) {
    const f = ed.f, p = f.p, pts = ed.step.params[p.name];
    x = place(f, x, 0, [-Infinity, Infinity])[0];
    const close = pts.findIndex(([q]) => circular(f, q, x) < near);
    if (close >= 0) { ed.ui.selected[p.name] = close; draw(ed); return { index: close, added: false }; }
    if (pts.length >= p.max_points) return { index: -1, added: false };
    const y = round(M.evaluate(M.spline(pts, p.periodic, p.x_min, p.x_max), x), f.qy);
    const { points, index } = insert(pts, [x, y]);
    setPoints(ed, points, index);
    return { index, added: true };
  }

  // A press on a point grabs it; a press within NEAR pixels of the curve adds a point there and grabs it.
  function pointerDown(ed, e) {
    const p = active(ed), [px, py] = local(ed, e), f = ed.f;
    ed.hooks.setTarget(ed.step, p.name);
    if (!f) return;
    let i = hitPoint(ed, px, py);
    if (i < 0) {
      const x = f.x(px), pts = ed.step.params[p.name];
      const y = M.evaluate(M.spline(pts, p.periodic, p.x_min, p.x_max), wrap(f, x));
      if (Math.abs(f.Y(y) - py) <= NEAR) i = addAt(ed, x, f.eps).index;
    }
    if (i < 0) { ed.ui.selected[p.name] = -1; draw(ed); return; }
    const pts = ed.step.params[p.name];
    ed.drag = { without: pts.filter((_, k) => k !== i), range: bounds(f, pts, i) };
    ed.ui.selected[p.name] = i;
    ed.canvas.setPointerCapture(e.pointerId);
    draw(ed);
  }

  // The grabbed point follows the pointer between its two neighbours; beyond the canvas by OFF pixels it is taken
  // out (while there are more than the fewest points the curve takes), and put back if the pointer returns.
  function pointerMove(ed, e) {
    if (!ed.drag) return;
    const f = ed.f, [px, py] = local(ed, e);
    const off = px < -OFF || py < -OFF || px > f.width + OFF || py > f.height + OFF;
    if (off && ed.drag.without.length >= minPoints(f.p)) { setPoints(ed, ed.drag.without, -1); return; }
    const { points, index } = insert(ed.drag.without, place(f, f.x(px), f.y(py), ed.drag.range));
    setPoints(ed, points, index);
  }

  function doubleClick(ed, e) {
    const p = active(ed), [px, py] = local(ed, e), i = hitPoint(ed, px, py), pts = ed.step.params[p.name];
    if (i >= 0 && pts.length > minPoints(p)) setPoints(ed, pts.filter((_, k) => k !== i), -1);
  }

  function keyDown(ed, e) {
    const p = active(ed), pts = ed.step.params[p.name], f = ed.f;
    let i = ed.ui.selected[p.name];
    if (!(i >= 0 && i < pts.length)) i = -1;
    const fine = e.shiftKey ? 0.1 : 1;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[e.key] && f) {
      if (i < 0) i = 0;
      const x = pts[i][0] + moves[e.key][0] * fine * f.period / 100;
      const y = pts[i][1] + moves[e.key][1] * fine * (p.max - p.min) / 100;
      const { points, index } = insert(pts.filter((_, k) => k !== i), place(f, x, y, bounds(f, pts, i)));
      setPoints(ed, points, index);
    } else if (e.key === '[' || e.key === ']') {
      ed.ui.selected[p.name] = (Math.max(i, 0) + (e.key === ']' ? 1 : pts.length - 1)) % pts.length;
      draw(ed);
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && i >= 0 && pts.length > minPoints(p)) {
      setPoints(ed, pts.filter((_, k) => k !== i), -1);
    } else {
      return;
    }
    e.preventDefault();
  }

  // ---- The editor ----------------------------------------------------------------------------------------------
  function tabs(ed) {
    const bar = el('div', { class: 'tabs', role: 'tablist', 'aria-label': ed.step.title + ' curves' });
    const sync = () => {
      for (const b of bar.children) {
        const on = b.dataset.curve === ed.ui.tab;
        b.setAttribute('aria-selected', String(on));
        b.classList.toggle('on', on);
      }
    };
    for (const p of ed.params) {
      bar.append(el('button', { role: 'tab', text: p.display_name, 'data-curve': p.name, title: p.description,
                                'aria-controls': ed.canvas.id, class: 'tab-' + p.name,
                                onclick: () => { ed.ui.tab = p.name; sync(); draw(ed); } }));
    }
    sync();
    ed.syncTabs = sync;
    return bar;
  }

  /**
   * The editor of an adjustment's curve parameters `params` (tabs when there are several), editing
   * `step.params`. hooks: strip(p) → 'hue' | 'lightness' | 'levels'; pickable(p); isTarget(step, name);
   * setTarget(step, name) — the eyedropper's curve (studio.js).
   */
  function editor(step, params, onChange, hooks) {
    const ui = step.ui || (step.ui = {});
    ui.selected = ui.selected || {};
    if (!params.some((p) => p.name === ui.tab)) ui.tab = params[0].name;
    const canvas = el('canvas', {
      id: 'curve-' + step.key, class: 'curve' + (params[0].periodic ? ' periodic' : ''), tabindex: 0,
      role: 'application', 'aria-roledescription': 'curve editor',
      'aria-label': step.title + ': drag a point; click the curve to add one; double-click or drag off to remove; ' +
                    'arrow keys move the selected point (Shift: finer), [ and ] select, Delete removes' });
    const ed = { step, params, onChange, hooks, ui, canvas, drag: null, f: null,
                 readout: el('div', { class: 'readout', 'aria-live': 'polite' }) };
    if (params.some(hooks.pickable)) ed.pickHint = el('div', { class: 'pick-hint' });
    canvas.addEventListener('pointerdown', (e) => pointerDown(ed, e));
    canvas.addEventListener('pointermove', (e) => pointerMove(ed, e));
    const release = () => { ed.drag = null; draw(ed); };
    canvas.addEventListener('pointerup', release);
    canvas.addEventListener('pointercancel', release);
    canvas.addEventListener('dblclick', (e) => doubleClick(ed, e));
    canvas.addEventListener('keydown', (e) => keyDown(ed, e));
    canvas.addEventListener('focus', () => hooks.setTarget(step, active(ed).name));
    new ResizeObserver(() => draw(ed)).observe(canvas);
    const reset = el('button', { text: 'Reset', class: 'reset', title: 'Put this curve back to its identity',
                                 onclick: () => setPoints(ed, active(ed).identity.map((q) => q.slice()), -1) });
    const head = el('div', { class: 'curve-head' },
                    [params.length > 1 ? tabs(ed) : el('span', { class: 'sub', text: params[0].display_name }), reset]);
    const box = el('div', { class: 'curve-editor' }, [head, canvas, ed.readout].concat(ed.pickHint || []));
    const pickAt = (name, x) => {
      if (ui.tab !== name) { ui.tab = name; if (ed.syncTabs) ed.syncTabs(); }
      if (!ed.f) ed.f = frame(active(ed), 300, 160);
      ui.picked = { name, x };
      return addAt(ed, x, Math.max(ed.f.eps, ed.f.period / 120));
    };
    return { box, redraw: () => draw(ed), pickAt };
  }

  return { editor, spline: M.spline };
})();
