'use strict';
// The studio's colour maths, shared by the controls, the scopes and the eyedropper: pure functions, no DOM.
// Loaded before studio-controls.js, studio-scopes.js and studio.js (studio.html), which use `StudioMath`.

const StudioMath = (() => {
  // ---- Monotone cubic curves, as Plugins/Grade/spline.c -------------------------------------------------------
  // A port of the Grade plugin's interpolation (Fritsch & Carlson 1980, with its periodic wrap), used only to DRAW
  // the curve and to find its value under the pointer: a display approximation. The cube the preview applies comes
  // from the server, which runs the plugin itself.

  // Tangents: the mean of the neighbouring secants, 0 at a local extremum, then limited piece by piece so that
  // α² + β² ≤ 9 (Fritsch–Carlson's sufficient condition for a monotone piece).
  function tangents(s) {
    const n = s.n, segments = s.periodic ? n : n - 1;
    if (segments === 0) { s.m[0] = 0; return; }
    const d = new Float64Array(segments);
    for (let k = 0; k < segments; k++) d[k] = (s.y[k + 1] - s.y[k]) / (s.x[k + 1] - s.x[k]);
    for (let k = 0; k < n; k++) {
      if (!s.periodic && k === 0) s.m[k] = d[0];
      else if (!s.periodic && k === n - 1) s.m[k] = d[k - 1];
      else {
        const before = d[(k + segments - 1) % segments], after = d[k % segments];
        s.m[k] = before * after > 0 ? 0.5 * (before + after) : 0;
      }
    }
    for (let k = 0; k < segments; k++) {
      const next = (k + 1) % n;
      if (d[k] === 0) { s.m[k] = 0; s.m[next] = 0; continue; }
      const alpha = s.m[k] / d[k], beta = s.m[next] / d[k], h = alpha * alpha + beta * beta;
      if (h > 9) {
        const tau = 3 / Math.sqrt(h);
        s.m[k] = tau * alpha * d[k];
        s.m[next] = tau * beta * d[k];
      }
    }
    if (s.periodic) s.m[n] = s.m[0];
  }

  /** A curve ready to evaluate: `points` [[x, y], …] with x strictly increasing (a periodic one within xMin…xMax). */
  function spline(points, periodic, xMin, xMax) {
    const n = points.length;
    const s = { n, periodic, period: xMax - xMin, x: new Float64Array(n + 1), y: new Float64Array(n + 1),
                m: new Float64Array(n + 1) };
    points.forEach(([x, y], i) => { s.x[i] = x; s.y[i] = y; });
    if (periodic) { s.x[n] = s.x[0] + s.period; s.y[n] = s.y[0]; }
    tangents(s);
    return s;
  }

  function clampTo(v, lo, hi) { return v > lo ? (v < hi ? v : hi) : lo; }

  // One Hermite piece, clamped to its two points' range against rounding (as spline.c's piece()).
  function piece(s, k, x) {
    const x0 = s.x[k], x1 = s.x[k + 1], y0 = s.y[k], y1 = s.y[k + 1], h = x1 - x0, d = (y1 - y0) / h;
    let y;
    if (s.m[k] === d && s.m[k + 1] === d) y = y0 + d * (x - x0);
    else {
      const t = (x - x0) / h, t2 = t * t, t3 = t2 * t;
      y = (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * h * s.m[k] + (3 * t2 - 2 * t3) * y1 +
          (t3 - t2) * h * s.m[k + 1];
    }
    return y0 < y1 ? clampTo(y, y0, y1) : clampTo(y, y1, y0);
  }

  /** The curve's value at x: flat beyond the end points, or wrapped for a periodic curve. */
  function evaluate(s, x) {
    let lo = 0, hi;
    if (s.periodic) {
      if (s.n === 1) return s.y[0];
      let u = x - s.x[0];
      if (u < 0 || u >= s.period) u = ((u % s.period) + s.period) % s.period;
      x = s.x[0] + u;
      hi = s.n;
    } else {
      if (!(x > s.x[0])) return s.y[0];
      if (x >= s.x[s.n - 1]) return s.y[s.n - 1];
      hi = s.n - 1;
    }
    while (hi - lo > 1) {
      const mid = lo + ((hi - lo) >> 1);
      if (x < s.x[mid]) hi = mid; else lo = mid;
    }
    return piece(s, lo, x);
  }

  // ---- Oklab and the Grade plugin's hue scale (Plugins/Grade/oklab.c) ------------------------------------------
  // Björn Ottosson's Oklab (2020) on linear sRGB, the same matrices and the same double arithmetic as oklab.c, so
  // the eyedropper puts its point at the x the plugin computes for that colour.
  const RGB_TO_LMS = [[0.4122214708, 0.5363325363, 0.0514459929], [0.2119034982, 0.6806995451, 0.1073969566],
                      [0.0883024619, 0.2817188376, 0.6299787005]];
  const LMS_TO_LAB = [[0.2104542553, 0.7936177850, -0.0040720468], [1.9779984951, -2.4285922050, 0.4505937099],
                      [0.0259040371, 0.7827717662, -0.8086757660]];
  const LAB_TO_LMS = [[1.0, 0.3963377774, 0.2158037573], [1.0, -0.1055613458, -0.0638541728],
                      [1.0, -0.0894841775, -1.2914855480]];
  const LMS_TO_RGB = [[4.0767416621, -3.3077115913, 0.2309699292], [-1.2684380046, 2.6097574011, -0.3413193965],
                      [-0.0041960863, -0.7034186147, 1.7076147010]];

  function multiply(m, v) {
    return [0, 1, 2].map((r) => m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2]);
  }

  /** IEC 61966-2-1, as lookstudio_srgb_decode / _encode in lookstudio_plugin.h. */
  function srgbDecode(v) { return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
  function srgbEncode(v) { return v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055; }

  function oklabFromLinear(rgb) {
    const lms = multiply(RGB_TO_LMS, rgb).map(Math.cbrt);
    const [L, a, b] = multiply(LMS_TO_LAB, lms);
    return { L, a, b };
  }

  function linearFromOklab(lab) {
    return multiply(LMS_TO_RGB, multiply(LAB_TO_LMS, [lab.L, lab.a, lab.b]).map((v) => v * v * v));
  }

  function degrees0360(radians) {
    let d = radians * (180 / Math.PI);
    if (d < 0) d += 360;
    return d >= 360 ? d - 360 : d;
  }

  // The Oklab hues of red, yellow, green, cyan, blue, magenta: the places an HSV wheel puts at 0°, 60°, … 300°.
  const CORNERS = [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1], [1, 0, 1]].map(oklabFromLinear);
  const ANCHORS = CORNERS.map((lab) => degrees0360(Math.atan2(lab.b, lab.a)));
  ANCHORS.push(ANCHORS[0] + 360);

  /** The curve x (0…360) of an Oklab hue in degrees: grade_hue_from_oklab. */
  function hueFromOklab(degrees) {
    let h = degrees;
    if (h < ANCHORS[0]) h += 360;
    let i = 0;
    while (i < 5 && h >= ANCHORS[i + 1]) i++;
    const x = 60 * i + 60 * (h - ANCHORS[i]) / (ANCHORS[i + 1] - ANCHORS[i]);
    return x >= 360 ? x - 360 : x;
  }

  /** The Oklab hue in degrees of a curve x: grade_oklab_from_hue. */
  function oklabFromHue(x) {
    x = ((x % 360) + 360) % 360;
    const i = Math.min(5, Math.floor(x / 60));
    const h = ANCHORS[i] + (x - 60 * i) / 60 * (ANCHORS[i + 1] - ANCHORS[i]);
    return h >= 360 ? h - 360 : h;
  }

  /** grade_chroma_weight: how much a hue curve acts on a colour of this Oklab chroma (0 for greys). */
  function chromaWeight(chroma) {
    const t = clampTo((chroma - 0.002) / (0.04 - 0.002), 0, 1);
    return t * t * (3 - 2 * t);
  }

  /**
   * Where the Grade plugin's curves see an sRGB-encoded colour (0…1 each): `hue` the x of the hue curves, `L` the x
   * of curve.lum_sat, `weight` how much they act on it (0: a grey, left alone). hue_curves.c's change().
   */
  function gradeCoordinates(rgb) {
    const c = rgb.map((v) => srgbDecode(clampTo(v, 0, 1)));
    const lab = oklabFromLinear(c);
    const chroma = Math.sqrt(lab.a * lab.a + lab.b * lab.b);
    const hue = hueFromOklab(Math.atan2(lab.b, lab.a) * (180 / Math.PI));
    return { hue, L: lab.L, chroma, weight: chromaWeight(chroma) };
  }

  /**
   * The sRGB colour (0…1) the hue strip shows at curve x: the primary or secondary itself at 0°, 60°, …, and between
   * two of them their Oklab lightness and chroma interpolated at the plugin's hue, pulled into gamut towards grey.
   */
  function hueSwatch(x) {
    x = ((x % 360) + 360) % 360;
    const i = Math.min(5, Math.floor(x / 60)), f = x / 60 - i, p = CORNERS[i], q = CORNERS[(i + 1) % 6];
    const L = p.L + f * (q.L - p.L), C = Math.hypot(p.a, p.b) + f * (Math.hypot(q.a, q.b) - Math.hypot(p.a, p.b));
    const h = oklabFromHue(x) * (Math.PI / 180);
    const rgb = linearFromOklab({ L, a: C * Math.cos(h), b: C * Math.sin(h) });
    const y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    let t = 1;
    for (const v of rgb) {
      if (v < 0) t = Math.min(t, y / (y - v));
      if (v > 1) t = Math.min(t, (1 - y) / (v - y));
    }
    return rgb.map((v) => srgbEncode(clampTo(y + t * (v - y), 0, 1)));
  }

  // ---- The vectorscope plane, shared by the scope and the colour wheels ---------------------------------------
  // NTSC/PAL's U and V on the encoded values with BT.601 luma: U = 0.492 (B′ − Y′), V = 0.877 (R′ − Y′). The skin
  // line vectorscopes draw is NTSC's I axis: SMPTE 170M (after the 1953 FCC standard) has E′I = −0.27 (E′B − E′Y) +
  // 0.74 (E′R − E′Y), which in this plane points at atan2(0.74 / 0.877, −0.27 / 0.492) = 123.0°, 33° past +V.
  const VEC = { kr: 0.299, kg: 0.587, kb: 0.114, u: 0.492, v: 0.877, skinDegrees: 123 };

  function uv(r, g, b) {
    const y = VEC.kr * r + VEC.kg * g + VEC.kb * b;
    return [VEC.u * (b - y), VEC.v * (r - y)];
  }

  // ---- Colour wheels: puck ↔ RGB offset -------------------------------------------------------------------------
  // A wheel's puck at polar (r, φ) in the unit disc (φ counter-clockwise from the right, as on the vectorscope) is
  // the RGB offset o = r · R · d(φ): d(φ) is the zero-mean unit vector (Σ d_c = 0, |d| = 1) whose vectorscope shift
  // (U, V above) points at φ, so pushing the puck towards a colour moves the scope's trace the same way, and red
  // sits at 103°, the skin line at 123°, as on Resolve's wheels. Zero mean: the puck changes colour, not level
  // (the adjustment's `*_master` slider does level). R, the rim, is set per parameter so that no component passes
  // half of the room the range leaves around the identity (any zero-mean unit vector has components ≤ √(2/3)).
  const E1 = [2 / Math.sqrt(6), -1 / Math.sqrt(6), -1 / Math.sqrt(6)];
  const E2 = [0, 1 / Math.SQRT2, -1 / Math.SQRT2];
  // (U, V) of the basis vectors: the 2×2 map A from zero-mean coordinates (a, b) to the vectorscope plane.
  const A1 = uv(...E1), A2 = uv(...E2);
  const DET = A1[0] * A2[1] - A2[0] * A1[1];

  /** The zero-mean unit offset whose vectorscope shift points at angle φ (radians). */
  function wheelDirection(phi) {
    const U = Math.cos(phi), V = Math.sin(phi);
    let a = (A2[1] * U - A2[0] * V) / DET, b = (-A1[1] * U + A1[0] * V) / DET;
    const norm = Math.hypot(a, b);
    a /= norm; b /= norm;
    return [0, 1, 2].map((c) => a * E1[c] + b * E2[c]);
  }

  /** The puck [x, y] (unit disc, y up) of a zero-mean offset `o` on a wheel of rim R. */
  function puckOf(o, rim) {
    const a = o[0] * E1[0] + o[1] * E1[1] + o[2] * E1[2], b = o[0] * E2[0] + o[1] * E2[1] + o[2] * E2[2];
    const r = Math.hypot(a, b) / rim;
    if (r === 0) return [0, 0];
    const U = a * A1[0] + b * A2[0], V = a * A1[1] + b * A2[1];
    const phi = Math.atan2(V, U);
    return [r * Math.cos(phi), r * Math.sin(phi)];
  }

  /** The zero-mean offset of the puck [x, y] on a wheel of rim R (inverse of puckOf). */
  function offsetOf(puck, rim) {
    const r = Math.min(1, Math.hypot(puck[0], puck[1]));
    if (r === 0) return [0, 0, 0];
    return wheelDirection(Math.atan2(puck[1], puck[0])).map((d) => r * rim * d);
  }

  // ---- One colour through a cube, as the preview's shader (LookCore's tetrahedral CubeSampler) ----------------
  /** `rgb` (0…1) looked up in `cube` (Float32Array of n³ RGB triples, red fastest). */
  function lookUp(cube, n, rgb) {
    const x = rgb.map((v) => clampTo(v, 0, 1) * (n - 1));
    const base = x.map((v) => Math.min(Math.floor(v), n - 2));
    const f = x.map((v, c) => v - base[c]);
    // Corners visited from (0,0,0) to (1,1,1) along the axes in decreasing order of their fractions.
    const order = [0, 1, 2].sort((p, q) => f[q] - f[p]);
    const at = (o) => 3 * ((base[0] + o[0]) + n * ((base[1] + o[1]) + n * (base[2] + o[2])));
    const corner = [0, 0, 0];
    let i = at(corner);
    const out = [0, 0, 0];
    let previous = [cube[i], cube[i + 1], cube[i + 2]], weightBefore = 1;
    for (const axis of order) {
      corner[axis] = 1;
      const w = weightBefore - f[axis];
      for (let c = 0; c < 3; c++) out[c] += w * previous[c];
      weightBefore = f[axis];
      i = at(corner);
      previous = [cube[i], cube[i + 1], cube[i + 2]];
    }
    for (let c = 0; c < 3; c++) out[c] = clampTo(out[c] + weightBefore * previous[c], 0, 1);
    return out;
  }

  /**
   * Every pixel of `src` (RGBA bytes) through `cube` (n³ RGB floats, red fastest) into `dst`, as the preview's
   * shader does it: tetrahedral, clamped, rounded to 8 bits. The scopes' hot loop: scalars and typed arrays only.
   */
  function applyCube(cube, n, src, dst) {
    const k = (n - 1) / 255, top = n - 2, sg = 3 * n, sb = 3 * n * n, o3 = 3 + sg + sb;
    for (let i = 0; i < src.length; i += 4) {
      const x = src[i] * k, y = src[i + 1] * k, z = src[i + 2] * k;
      const bx = Math.min(Math.floor(x), top), by = Math.min(Math.floor(y), top), bz = Math.min(Math.floor(z), top);
      const fx = x - bx, fy = y - by, fz = z - bz, base = 3 * bx + sg * by + sb * bz;
      // The two corners between (0,0,0) and (1,1,1), along the axes in decreasing order of their fractions.
      let o1, o2, f1, f2, f3;
      if (fx >= fy) {
        if (fy >= fz) { o1 = 3; o2 = 3 + sg; f1 = fx; f2 = fy; f3 = fz; }
        else if (fx >= fz) { o1 = 3; o2 = 3 + sb; f1 = fx; f2 = fz; f3 = fy; }
        else { o1 = sb; o2 = sb + 3; f1 = fz; f2 = fx; f3 = fy; }
      } else if (fx >= fz) { o1 = sg; o2 = sg + 3; f1 = fy; f2 = fx; f3 = fz; }
      else if (fy >= fz) { o1 = sg; o2 = sg + sb; f1 = fy; f2 = fz; f3 = fx; }
      else { o1 = sb; o2 = sb + sg; f1 = fz; f2 = fy; f3 = fx; }
      const w0 = 1 - f1, w1 = f1 - f2, w2 = f2 - f3;
      for (let c = 0; c < 3; c++) {
        const j = base + c;
        const v = w0 * cube[j] + w1 * cube[j + o1] + w2 * cube[j + o2] + f3 * cube[j + o3];
        dst[i + c] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
      }
      dst[i + 3] = 255;
    }
  }

  return { applyCube, spline, evaluate, srgbDecode, srgbEncode, oklabFromLinear, hueFromOklab, oklabFromHue, chromaWeight,
           gradeCoordinates, hueSwatch, VEC, uv, wheelDirection, puckOf, offsetOf, lookUp, clampTo };
})();
