'use strict';
const query = new URLSearchParams(location.search);
const TOKEN = query.get('token') || '';
const PREVIEW = Math.min(4096, Math.max(64, parseInt(query.get('preview') || '1600', 10)));
const CUBE = 33;
// Moves are previewed through a 33³ cube (431 kB, composed in milliseconds); once the recipe has not changed for
// state.refineAfter ms (300) the preview is redrawn through a 64³ cube, the size the save buttons compose a look at,
// so the settled canvas is the look `apply --look` gives. A 33³ cube alone differs from it by up to ~8 codes where a
// recipe clips (a kink between grid points), in a few hundred pixels of a photo.
const FINE = 64;
const $ = (id) => document.getElementById(id);
const { el, slider } = StudioControls;
const state = {
  photos: [], photo: 0, looks: [], adjustments: [], scenes: [], steps: [], mode: 'after', split: 0.5,
  strength: 100, selected: null, auto: false, switches: {}, version: 0, rendered: -1, renders: 0,
  inflight: false, dirty: false, width: 0, height: 0, nextStepId: 1, scopes: true, hueTarget: null,
  neutralPicking: false,
  editors: new Map(), scopeTimes: [], refineAfter: 300
};

async function api(path, opts = {}) {
  const headers = { 'X-Studio-Token': TOKEN };
  let body = opts.body;
  if (opts.json !== undefined) { headers['Content-Type'] = 'application/json'; body = JSON.stringify(opts.json); }
  Object.assign(headers, opts.headers || {});
  const r = await fetch(path, { method: opts.method || (body ? 'POST' : 'GET'), headers, body,
                               signal: opts.signal });
  if (!r.ok) {
    let message = r.status + ' ' + r.statusText;
    try { message = (await r.json()).error; } catch (e) { /* not JSON: keep the status */ }
    throw new Error(message);
  }
  if (opts.blob) return r.blob();
  return (r.headers.get('content-type') || '').includes('json') ? r.json() : r.arrayBuffer();
}

function say(text, error) {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

// ---- WebGL2 preview -------------------------------------------------------------------------------------
const canvas = $('view');
// Opaque: the compositor then copies the 2-megapixel canvas as is, with no blending or premultiplying pass.
const gl = canvas.getContext('webgl2', { alpha: false, antialias: false, premultipliedAlpha: false });
let program, photoTexture, lutTexture, uniforms = {};
// The scopes' sample: the photo's pixels at 256 (long side) places, one per block, taken once per photo, and the same
// pixels through the current cube, computed on the CPU at every repaint (StudioMath.applyCube, as the shader does).
// Reading the graded pixels back from WebGL instead cost a synchronous round trip to the GPU process per repaint:
// 50–75 ms here (SwiftShader, 2 loaded cores), against a few ms for the 44,000 lookups.
const sample = { width: 0, height: 0, photo: null, pixels: null };
const vertexSource = `#version 300 es
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`;
// Tetrahedral interpolation as LookCore's CubeSampler: the cell's corners ordered by the fractions.
const fragmentSource = `#version 300 es
precision highp float; precision highp int; precision highp sampler3D;
uniform highp sampler2D photo;
uniform highp sampler3D lut;
uniform int n;
uniform int mode;
uniform float split;
uniform ivec2 size;
uniform ivec2 num;
uniform ivec2 den;
out vec4 outColor;
vec3 at(ivec3 i) { return texelFetch(lut, i, 0).rgb; }
// Branch-free, so SIMD lanes (SwiftShader's, a GPU's) never run every ordering: s1 is the largest fraction's
// axis, s2 adds the middle one; ties pick a fixed axis, and any order gives the same value at a tie.
vec3 tetra(vec3 c) {
  vec3 x = clamp(c, 0.0, 1.0) * float(n - 1);
  vec3 b = min(floor(x), vec3(float(n - 2)));
  vec3 f = x - b;
  ivec3 i = ivec3(b);
  float rMax = step(f.g, f.r) * step(f.b, f.r);
  float gMax = (1.0 - step(f.g, f.r)) * step(f.b, f.g);
  vec3 s1 = vec3(rMax, gMax, 1.0 - rMax - gMax);
  float bMin = step(f.b, f.g) * step(f.b, f.r);
  float gMin = (1.0 - bMin) * step(f.g, f.r);
  vec3 lo = vec3(1.0 - bMin - gMin, gMin, bMin);
  float f1 = dot(f, s1), f3 = dot(f, lo);
  float f2 = f.r + f.g + f.b - f1 - f3;
  vec3 c000 = at(i), ca = at(i + ivec3(s1)), cb = at(i + ivec3(vec3(1.0) - lo)), c111 = at(i + ivec3(1));
  return clamp(c000 + f1 * (ca - c000) + f2 * (cb - ca) + f3 * (c111 - cb), 0.0, 1.0);
}
void main() {
  // num/den is 1 for the canvas; photo size over sample size for scopeSampleCheck's small framebuffer (integers, so
  // the CPU's sample takes exactly the same pixels).
  ivec2 p = ivec2(gl_FragCoord.xy) * num / den;
  p.y = size.y - 1 - p.y;
  bool before = mode == 3;
  if (mode == 2) { if (p.x >= size.x) { p.x -= size.x; } else { before = true; } }
  if (mode == 1) { before = float(p.x) < split * float(size.x); }
  vec3 c = texelFetch(photo, p, 0).rgb;
  outColor = vec4(before ? c : tetra(c), 1.0);
}`;

function compile(type, source) {
  const s = gl.createShader(type);
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
  return s;
}

function setupGL() {
  if (!gl) throw new Error('WebGL2 is not available in this browser: the live preview needs it');
  program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, vertexSource));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, fragmentSource));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
  for (const name of ['photo', 'lut', 'n', 'mode', 'split', 'size', 'num', 'den']) {
    uniforms[name] = gl.getUniformLocation(program, name);
  }
  photoTexture = gl.createTexture();
  lutTexture = gl.createTexture();
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  const identity = new Float32Array(2 * 2 * 2 * 3);
  for (let i = 0; i < 8; i++) { identity.set([i & 1, (i >> 1) & 1, (i >> 2) & 1], 3 * i); }
  uploadLut(identity, 2);
}

function nearest(target) {
  gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(target, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

function uploadLut(values, n) {
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_3D, lutTexture);
  nearest(gl.TEXTURE_3D);
  gl.texParameteri(gl.TEXTURE_3D, gl.TEXTURE_WRAP_R, gl.CLAMP_TO_EDGE);
  // Red varies fastest, then green, then blue: x, y, z of the 3D texture.
  gl.texImage3D(gl.TEXTURE_3D, 0, gl.RGB32F, n, n, n, 0, gl.RGB, gl.FLOAT, values);
  state.n = n;
  state.cube = values;
}

function uploadPhoto(bitmap) {
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, photoTexture);
  nearest(gl.TEXTURE_2D);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  state.width = bitmap.width;
  state.height = bitmap.height;
  state.bitmap = bitmap;
  setupSample(bitmap);
}

// The places are the shader's for a framebuffer of the sample's size (x = ⌊i·W/w⌋, rows counted from the bottom),
// so scopeSampleCheck can compare the two exactly.
function setupSample(bitmap) {
  const W = state.width, H = state.height, [w, h] = StudioScopes.sampleSize(W, H);
  // Only the sampled rows are copied (h of them, one draw each): a whole 11-megapixel preview would take 45 MB.
  const rows = new OffscreenCanvas(W, h).getContext('2d', { colorSpace: 'srgb', willReadFrequently: true });
  rows.imageSmoothingEnabled = false;
  for (let j = 0; j < h; j++) rows.drawImage(bitmap, 0, H - 1 - Math.floor(j * H / h), W, 1, 0, j, W, 1);
  const data = rows.getImageData(0, 0, W, h).data, photo = new Uint8Array(w * h * 4);
  for (let j = 0, to = 0; j < h; j++) {
    for (let i = 0; i < w; i++, to += 4) {
      const from = 4 * (j * W + Math.floor(i * W / w));
      photo[to] = data[from]; photo[to + 1] = data[from + 1]; photo[to + 2] = data[from + 2]; photo[to + 3] = 255;
    }
  }
  Object.assign(sample, { width: w, height: h, photo, pixels: new Uint8Array(w * h * 4) });
}

function pass(mode, w, h, sampleWidth = 0, sampleHeight = 0) {
  gl.viewport(0, 0, w, h);
  gl.useProgram(program);
  gl.uniform1i(uniforms.photo, 0);
  gl.uniform1i(uniforms.lut, 1);
  gl.uniform1i(uniforms.n, state.n);
  gl.uniform1i(uniforms.mode, mode);
  gl.uniform1f(uniforms.split, state.split);
  gl.uniform2i(uniforms.size, state.width, state.height);
  gl.uniform2i(uniforms.num, sampleWidth ? state.width : 1, sampleHeight ? state.height : 1);
  gl.uniform2i(uniforms.den, sampleWidth || 1, sampleHeight || 1);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
}

function draw() {
  if (!state.width) return;
  const side = state.mode === 'side';
  const w = state.width * (side ? 2 : 1), h = state.height;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  pass({ after: 0, split: 1, side: 2, before: 3 }[state.mode], w, h);
  placeSplitLine();
  if (!state.scopes || !sample.photo) return;
  // WebGL sends its commands at the end of the task: flushed now, the GPU process renders while the scopes compute.
  gl.flush();
  updateScopes();
}

// The scopes show the graded photo (the original in Before mode), whatever the compare mode shows.
function updateScopes() {
  const t0 = performance.now();
  if (state.mode === 'before') sample.pixels.set(sample.photo);
  else StudioMath.applyCube(state.cube, state.n, sample.photo, sample.pixels);
  const grade = performance.now() - t0;
  state.scopeTimes.push({ grade, count: StudioScopes.update(sample.pixels, sample.width, sample.height) });
  if (state.scopeTimes.length > 100) state.scopeTimes.shift();
  state.scopeUpdates = (state.scopeUpdates || 0) + 1;
}

function placeSplitLine() {
  const line = $('splitLine');
  line.hidden = state.mode !== 'split';
  if (line.hidden) return;
  const box = canvas.getBoundingClientRect(), stage = $('stage').getBoundingClientRect();
  line.style.left = (box.left - stage.left + state.split * box.width - 1) + 'px';
  line.style.top = (box.top - stage.top) + 'px';
  line.style.height = box.height + 'px';
  line.style.bottom = 'auto';
}

// ---- Recipe and composing ---------------------------------------------------------------------------------
function recipe(size, steps = state.steps) {
  const chosen = steps.filter((s) => s.on).map((s) => s.kind === 'adjust'
    ? { adjust: s.id, params: Object.assign({}, s.params), strength: s.strength }
    : { look: s.guid, strength: s.strength });
  return { size: size, steps: chosen };
}

function composeBody(size = CUBE) {
  const body = { recipe: recipe(size), strength: state.strength, size };
  if (state.auto) { body.photo = state.photo; body.auto = Object.assign({}, state.switches); }
  return body;
}

// Coalesces slider moves: one compose in flight, the latest state composed next.
async function refresh() {
  state.version++;
  cancelRefine();
  if (state.inflight) { state.dirty = true; return; }
  state.inflight = true;
  try {
    do {
      state.dirty = false;
      const version = state.version;
      const t0 = performance.now();
      const buffer = await api('/api/compose?format=f32', { json: composeBody() });
      const t1 = performance.now();
      uploadLut(new Float32Array(buffer), CUBE);
      draw();
      state.timing = { compose: t1 - t0, draw: performance.now() - t1 };
      state.rendered = version;
      state.renders++;
    } while (state.dirty);
    sayPreview();
    state.refineTimer = setTimeout(refine, state.refineAfter);
  } catch (e) {
    say(e.message, true);
  } finally {
    state.inflight = false;
  }
}

function sayPreview() {
  say(state.steps.length + ' step' + (state.steps.length === 1 ? '' : 's') + ' · ' + state.width + '×' +
      state.height + ' preview · ' + state.n + '³ cube');
}

function cancelRefine() {
  clearTimeout(state.refineTimer);
  if (state.refineAbort) state.refineAbort.abort();
  state.refineAbort = null;
}

// The settled preview through the saved look's cube size; any change aborts it (refresh) so moves never wait on it.
async function refine() {
  const version = state.version, abort = new AbortController();
  if (state.inflight || state.refined === version) return;
  state.refineAbort = abort;
  try {
    const buffer = await api('/api/compose?format=f32', { json: composeBody(FINE), signal: abort.signal });
    if (abort.signal.aborted || version !== state.version) return;
    uploadLut(new Float32Array(buffer), FINE);
    draw();
    state.refined = version;
    sayPreview();
  } catch (e) {
    if (e.name !== 'AbortError') say(e.message, true);
  } finally {
    if (state.refineAbort === abort) state.refineAbort = null;
  }
}

function addAdjustment(id, at = state.steps.length) {
  const a = state.adjustments.find((x) => x.id === id);
  if (!a) return null;
  const params = {};
  // Copies: curves and colours are arrays, and a step's values must never be the descriptor's own.
  for (const p of a.parameters) params[p.name] = JSON.parse(JSON.stringify(p.default));
  const step = { key: state.nextStepId++, kind: 'adjust', id: a.id, title: a.display_name, params,
                 strength: 100, on: true, adjustment: a };
  state.steps.splice(at, 0, step);
  const pickable = a.parameters.find((p) => pickableCurve(a, p));
  if (pickable) state.hueTarget = { key: step.key, name: pickable.name };
  renderSteps();
  refresh();
  return step;
}

function addLookStep(look) {
  state.steps.push({ key: state.nextStepId++, kind: 'look', guid: look.guid, title: 'Look: ' + look.name,
                     strength: 100, on: true });
  renderSteps();
  refresh();
}

// ---- The steps' controls ----------------------------------------------------------------------------------------
// The eyedropper works on the hue curves (periodic over 0…360: x is the Grade plugin's hue) and on
// curve.lum_sat (x is Oklab L); its target is the one of those curves last added, clicked or focused.
function pickableCurve(adjustment, p) {
  return p.kind === 'curve' && ((p.periodic && p.x_min === 0 && p.x_max === 360) || adjustment.id === 'curve.lum_sat');
}

function curveHooks(adjustment) {
  const hooks = {
    strip: (p) => p.periodic && p.x_max === 360 ? 'hue' : adjustment.id === 'curve.lum_sat' ? 'lightness' : 'levels',
    pickable: (p) => pickableCurve(adjustment, p),
    isTarget: (step, name) => !!state.hueTarget && state.hueTarget.key === step.key && state.hueTarget.name === name,
    setTarget: (step, name) => {
      const p = adjustment.parameters.find((q) => q.name === name);
      if (!pickableCurve(adjustment, p) || hooks.isTarget(step, name)) return;
      state.hueTarget = { key: step.key, name };
      for (const editor of state.editors.values()) editor.redraw();
      canvas.classList.toggle('picking', true);
    }
  };
  return hooks;
}

/** The controls of an adjustment step, by parameter kind (studio-controls.js, studio-curves.js). */
function stepControls(s) {
  const a = s.adjustment, changed = () => refresh(), nodes = [];
  const curves = a.parameters.filter((p) => p.kind === 'curve');
  if (curves.length) {
    const editor = StudioControls.curveEditor(s, curves, changed, curveHooks(a));
    state.editors.set(s.key, editor);
    nodes.push(editor.box);
  }
  // A wheel's master is the adjustment's scalar NAME_master (grade.lift_gamma_gain): drawn under its wheel.
  const wheels = a.parameters.filter((p) => p.kind === 'color' && p.wheel)
    .map((p) => ({ p, master: a.parameters.find((q) => q.name === p.name + '_master' && q.kind === 'scalar') }));
  if (wheels.length) nodes.push(StudioControls.wheelGroup(s, wheels, changed));
  const taken = new Set(wheels.flatMap(({ p, master }) => master ? [p, master] : [p]).concat(curves));
  for (const p of a.parameters.filter((q) => !taken.has(q))) {
    if (p.kind === 'bool') nodes.push(StudioControls.checkbox(s, p, changed));
    else if (p.kind === 'color') nodes.push(StudioControls.colourSliders(s, p, changed));
    else if (p.kind === 'choice') nodes.push(StudioControls.choiceSelect(s, p, changed));
    else nodes.push(StudioControls.numberSlider(s, p, changed));
  }
  return nodes;
}

function renderSteps() {
  const list = $('steps');
  list.textContent = '';
  state.editors.clear();
  $('emptyHint').hidden = state.steps.length > 0;
  if (state.hueTarget && !state.steps.some((s) => s.key === state.hueTarget.key)) state.hueTarget = null;
  canvas.classList.toggle('picking', !!state.hueTarget || state.neutralPicking);
  state.steps.forEach((s, index) => {
    const on = el('input', { type: 'checkbox', title: 'Switch this step on or off', 'aria-label': s.title + ' on' });
    on.checked = s.on;
    on.addEventListener('change', () => { s.on = on.checked; renderSteps(); refresh(); });
    const move = (d) => () => {
      const j = index + d;
      if (j < 0 || j >= state.steps.length) return;
      [state.steps[index], state.steps[j]] = [state.steps[j], state.steps[index]];
      renderSteps(); refresh();
    };
    const head = el('div', { class: 'head' }, [on, el('span', { class: 'title', text: s.title }),
      el('button', { text: '▲', title: 'Move up', 'aria-label': 'Move ' + s.title + ' up', onclick: move(-1) }),
      el('button', { text: '▼', title: 'Move down', 'aria-label': 'Move ' + s.title + ' down', onclick: move(1) }),
      el('button', { text: '✕', title: 'Remove', 'aria-label': 'Remove ' + s.title,
                     onclick: () => { state.steps.splice(index, 1); renderSteps(); refresh(); } })]);
    const item = el('li', { class: 'step' + (s.on ? '' : ' off'), 'data-key': s.key, 'data-id': s.id || '' },
                    [head]);
    if (s.kind === 'adjust') item.append(...stepControls(s));
    const max = s.kind === 'adjust' ? 100 : 200;
    item.append(slider({ label: 'Strength', help: 'Blend of this step against its input, %', min: 0, max, step: 1,
                         value: s.strength, kind: '%', identity: 100, cls: 'step-strength',
                         onInput: (v) => { s.strength = v; refresh(); } }));
    list.append(item);
  });
}

// ---- Photos, looks, correction ------------------------------------------------------------------------------
async function loadPhotos() {
  state.photos = await api('/api/photos');
  const box = $('photos');
  box.textContent = '';
  for (const p of state.photos) {
    box.append(el('img', { src: '/api/photos/' + p.id + '/thumbnail', alt: p.name, title: p.name,
                           class: p.id === state.photo ? 'on' : '', onclick: () => selectPhoto(p.id) }));
  }
}

async function selectPhoto(id) {
  state.photo = id;
  for (const img of $('photos').children) img.classList.toggle('on', img.alt === state.photos[id].name);
  const blob = await api('/api/photos/' + id + '/preview?long=' + PREVIEW, { blob: true });
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  uploadPhoto(bitmap);
  renderLooks();
  loadExplain();
  await refresh();
}

async function loadLooks() {
  state.looks = await api('/api/looks');
  renderLooks();
}

function renderLooks() {
  const q = $('search').value.trim().toLowerCase();
  const box = $('looks');
  box.textContent = '';
  const shown = state.looks.filter((l) => !q || l.name.toLowerCase().includes(q) ||
                                          l.tags.some((t) => t.toLowerCase().includes(q)));
  for (const look of shown.slice(0, 60)) {
    const card = el('div', { class: 'look' + (state.selected && state.selected.guid === look.guid ? ' on' : ''),
                             title: look.name + ' · ' + look.guid, 'data-guid': look.guid }, [
      el('img', { src: '/api/looks/' + look.guid + '/thumbnail?photo=' + state.photo, alt: look.name,
                  loading: 'lazy' }),
      el('div', { class: 'name', text: look.name }),
      el('div', { class: 'tags', text: look.tags.join(', ') || ' ' }),
      el('button', { text: '+', title: 'Add this look as a step',
                     onclick: (e) => { e.stopPropagation(); addLookStep(look); } })]);
    card.addEventListener('click', () => selectLook(look));
    box.append(card);
  }
}

function selectLook(look) {
  state.selected = look;
  $('selectedName').textContent = look.name;
  $('lookName').value = look.name;
  $('lookTags').value = look.tags.join(', ');
  renderLooks();
}

async function loadExplain() {
  const box = $('explain');
  box.textContent = 'analysing…';
  try {
    const x = await api('/api/photos/' + state.photo + '/explain');
    box.textContent = '';
    box.append(el('div', { class: 'scene', text: 'Scene ' + x.scene + ' ' + x.sceneName + ' (confidence ' +
                                               x.confidence.toFixed(2) + ', ' + x.faces + ' faces)' }));
    for (const c of x.corrections) {
      if (state.switches[c.name] === undefined) state.switches[c.name] = true;
      const box2 = el('input', { type: 'checkbox', 'aria-label': c.name });
      box2.checked = state.switches[c.name];
      box2.addEventListener('change', () => { state.switches[c.name] = box2.checked; if (state.auto) refresh(); });
      box.append(el('label', { class: 'row' }, [el('span', {}, [box2, ' ' + c.name]),
        el('span', { text: (c.amount >= 0 ? '+' : '') + c.amount.toFixed(3) + ' ' + c.unit + ' @ ' +
                            c.setting + '%' })]));
    }
  } catch (e) {
    box.textContent = e.message;
  }
}

async function loadScenes() {
  state.scenes = await api('/api/scenes');
  const select = $('scene');
  select.textContent = '';
  for (const s of state.scenes) select.append(el('option', { value: s.label, text: s.label + ' ' + s.name }));
}

function tagsFromInput() {
  return $('lookTags').value.split(',').map((t) => t.trim()).filter((t) => t);
}

async function act(what, body) {
  try { await body(); } catch (e) { say(what + ': ' + e.message, true); }
}

async function upload(file) {
  say('adding ' + file.name + '…');
  const info = await api('/api/photos', { method: 'POST', body: file,
                                          headers: { 'X-File-Name': encodeURIComponent(file.name) } });
  await loadPhotos();
  await selectPhoto(info.id);
}

function wire() {
  $('addAdjustment').addEventListener('click', () => addAdjustment($('adjustment').value));
  $('neutralPick').addEventListener('click', () => {
    state.neutralPicking = true;
    canvas.classList.toggle('picking', true);
    say('click something that should be neutral (a grey card, a white wall): its white balance becomes the ' +
        'recipe\'s first steps');
  });
  $('search').addEventListener('input', renderLooks);
  $('strength').addEventListener('input', () => {
    state.strength = parseFloat($('strength').value);
    $('strengthOut').textContent = state.strength + ' %';
    refresh();
  });
  for (const b of document.querySelectorAll('.modes button')) {
    b.addEventListener('click', () => {
      state.mode = b.dataset.mode;
      for (const o of document.querySelectorAll('.modes button')) o.classList.toggle('on', o === b);
      draw();
    });
  }
  wireCanvas();
  $('scopesOn').addEventListener('change', () => {
    state.scopes = $('scopesOn').checked;
    $('scopes').hidden = !state.scopes;
    draw();
  });
  window.addEventListener('resize', placeSplitLine);
  $('autoOn').addEventListener('change', () => { state.auto = $('autoOn').checked; refresh(); });
  $('save').addEventListener('click', () => act('save', async () => {
    const name = $('lookName').value.trim();
    if (!name) throw new Error('give the look a name');
    const look = await api('/api/looks', { json: { name, tags: tagsFromInput(),
                                                   recipe: Object.assign(recipe(FINE), { name }) } });
    await loadLooks();
    selectLook(state.looks.find((l) => l.guid === look.guid) || look);
    say('saved ' + look.name + ' (' + look.guid + ')');
  }));
  $('saveVersion').addEventListener('click', () => act('new version', async () => {
    if (!state.selected) throw new Error('select the look to replace first');
    const look = await api('/api/looks/' + state.selected.guid + '/version',
                           { json: { recipe: recipe(FINE) } });
    await loadLooks(); selectLook(look); say('new version of ' + look.name + ' saved');
  }));
  $('rename').addEventListener('click', () => act('rename', async () => {
    if (!state.selected) throw new Error('select a look first');
    const look = await api('/api/looks/' + state.selected.guid + '/rename',
                           { json: { name: $('lookName').value } });
    await loadLooks(); selectLook(look); say('renamed to ' + look.name);
  }));
  $('tag').addEventListener('click', () => act('tags', async () => {
    if (!state.selected) throw new Error('select a look first');
    const look = await api('/api/looks/' + state.selected.guid + '/tags', { json: { tags: tagsFromInput() } });
    await loadLooks(); selectLook(look); say('tags of ' + look.name + ': ' + look.tags.join(', '));
  }));
  $('sceneDefault').addEventListener('click', () => act('scene default', async () => {
    if (!state.selected) throw new Error('select a look first');
    const scene = await api('/api/scenes/' + $('scene').value + '/default',
                            { json: { look: state.selected.guid, strength: Math.min(100, state.strength) } });
    say(state.selected.name + ' is now the default of scene ' + scene.label + ' ' + scene.name);
  }));
  $('export').addEventListener('click', () => act('export', async () => {
    if (!state.selected) throw new Error('select a look first');
    const format = $('exportFormat').value;
    const blob = await api('/api/looks/' + state.selected.guid + '/export?format=' + format, { blob: true });
    const a = el('a', { href: URL.createObjectURL(blob), download: state.selected.name + '.' + format });
    document.body.append(a); a.click(); a.remove();
  }));
  const drop = $('drop');
  document.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  document.addEventListener('dragleave', () => drop.classList.remove('over'));
  document.addEventListener('drop', (e) => {
    e.preventDefault(); drop.classList.remove('over');
    const file = e.dataTransfer.files[0];
    if (file) act('add photo', () => upload(file));
  });
  $('file').addEventListener('change', () => {
    const f = $('file').files[0];
    if (f) act('add photo', () => upload(f));
  });
}

// ---- The preview's pointer: split line and eyedropper ---------------------------------------------------------------
// With an eyedropper target, a click (a press and release that moves under 4 px) picks; a drag still moves the
// split line. Without one, a press moves the split line at once, as before.
function wireCanvas() {
  let down = null;
  const moveSplit = (e) => {
    if (state.mode !== 'split') return;
    const box = canvas.getBoundingClientRect();
    state.split = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    draw();
  };
  canvas.addEventListener('mousedown', (e) => {
    down = { x: e.clientX, y: e.clientY, moved: false };
    if (!state.hueTarget && !state.neutralPicking) moveSplit(e);
  });
  canvas.addEventListener('mousemove', (e) => {
    if (!e.buttons || !down) return;
    if (Math.hypot(e.clientX - down.x, e.clientY - down.y) >= 4) down.moved = true;
    if ((!state.hueTarget && !state.neutralPicking) || down.moved) moveSplit(e);
  });
  canvas.addEventListener('mouseup', (e) => {
    if (state.neutralPicking && down && !down.moved) {
      act('neutral', () => pickNeutral(e.clientX, e.clientY));
    } else if (state.hueTarget && down && !down.moved) {
      act('eyedropper', () => pick(e.clientX, e.clientY));
    }
    down = null;
  });
}

/** The photo pixel under a point of the canvas (either half in side by side). */
function photoPixel(clientX, clientY) {
  const box = canvas.getBoundingClientRect();
  const x = Math.floor((clientX - box.left) / box.width * canvas.width) % state.width;
  const y = Math.floor((clientY - box.top) / box.height * canvas.height);
  return [Math.min(state.width - 1, Math.max(0, x)), Math.min(state.height - 1, Math.max(0, y))];
}

/** The mean of the photo's 5 × 5 pixels around (x, y), 0…1: a single pixel is mostly noise. */
function photoColour(x, y) {
  const x0 = Math.max(0, Math.min(state.width - 5, x - 2)), y0 = Math.max(0, Math.min(state.height - 5, y - 2));
  const w = Math.min(5, state.width), h = Math.min(5, state.height);
  const small = new OffscreenCanvas(w, h).getContext('2d', { colorSpace: 'srgb' });
  small.drawImage(state.bitmap, x0, y0, w, h, 0, 0, w, h);
  const data = small.getImageData(0, 0, w, h).data, sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += data[i + c];
  return sum.map((v) => v / (255 * w * h));
}

/**
 * The eyedropper: the colour under the click as it enters the target curve's step — the photo's pixels through the
 * automatic correction and the steps before it, composed by the server into a cube — placed on the curve at the x
 * the Grade plugin gives it (StudioMath.gradeCoordinates, hue_curves.c's hue scale or Oklab L).
 */
async function pick(clientX, clientY) {
  const target = state.hueTarget, index = state.steps.findIndex((s) => s.key === target.key);
  const editor = state.editors.get(target.key);
  if (index < 0 || !editor || !state.bitmap) return;
  const [x, y] = photoPixel(clientX, clientY);
  let colour = photoColour(x, y);
  const before = recipe(FINE, state.steps.slice(0, index));
  if (before.steps.length || state.auto) {
    const body = { recipe: before, strength: 100, size: FINE };
    if (state.auto) { body.photo = state.photo; body.auto = Object.assign({}, state.switches); }
    colour = StudioMath.lookUp(new Float32Array(await api('/api/compose?format=f32', { json: body })), FINE, colour);
  }
  const where = StudioMath.gradeCoordinates(colour);
  const step = state.steps[index], p = step.adjustment.parameters.find((q) => q.name === target.name);
  const hue = p.periodic;
  const rgb = colour.map((v) => Math.round(v * 255)).join(', ');
  if (hue && where.weight === 0) {
    say('eyedropper: (' + rgb + ') is grey (Oklab chroma ' + where.chroma.toFixed(4) + '): hue curves leave it');
    return;
  }
  const at = hue ? where.hue : where.L;
  const result = editor.pickAt(target.name, at);
  const place = hue ? 'hue ' + at.toFixed(1) + '°' : 'Oklab L ' + at.toFixed(3);
  say('eyedropper: (' + rgb + ') at ' + place + (result.added ? ': point added to ' : ': point selected on ') +
      step.title + (result.index < 0 ? ' — the curve has its most points' : ''));
  state.picked = { x, y, colour, at, added: result.added };
}

/**
 * The neutral eyedropper: the server measures the region under the click on the photo (as `correct --neutral` does)
 * and finds, through the White Balance plugin, the temperature and tint that make it grey; they become the recipe's
 * first two steps, so the saved recipe and look carry that white balance to every photo they are applied to.
 */
async function pickNeutral(clientX, clientY) {
  state.neutralPicking = false;
  canvas.classList.toggle('picking', !!state.hueTarget);
  const [x, y] = photoPixel(clientX, clientY);
  const found = await api('/api/photos/' + state.photo + '/neutral',
                          { json: { u: (x + 0.5) / state.width, v: (y + 0.5) / state.height } });
  const ensure = (id, at) => state.steps.find((s) => s.kind === 'adjust' && s.id === id) || addAdjustment(id, at);
  const temperature = ensure('wb.temperature', 0), tint = ensure('wb.tint', 1);
  temperature.params.shift = Math.round(found.shift);
  tint.params.amount = Math.round(found.tint * 1000) / 1000;
  temperature.on = tint.on = true;
  renderSteps();
  await refresh();
  const first = state.steps.indexOf(temperature) === 0 && state.steps.indexOf(tint) === 1;
  say('neutral at ' + found.x + ',' + found.y + ' (radius ' + found.radius + '): temperature ' +
      (found.shift >= 0 ? '+' : '') + Math.round(found.shift) + ' K, tint ' + tint.params.amount.toFixed(3) +
      (found.note ? ' — ' + found.note : '') +
      (first ? '' : ' — the steps before them change its colour first, so it may not come out grey') +
      (state.auto ? ' — the automatic correction runs before the recipe: switch it off for the point to be grey' : ''));
  state.neutral = found;
}

// ---- For tests and scripts: the rendered pixels, and a comparison with a reference photo ----------------------
async function comparePreviewWith(photoId) {
  const blob = await api('/api/photos/' + photoId + '/preview?long=' + PREVIEW, { blob: true });
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const w = state.width, h = state.height;
  if (bitmap.width !== w || bitmap.height !== h) {
    throw new Error('reference is ' + bitmap.width + '×' + bitmap.height);
  }
  const off = new OffscreenCanvas(w, h).getContext('2d', { colorSpace: 'srgb' });
  off.imageSmoothingEnabled = false;
  off.drawImage(bitmap, 0, 0);
  const ref = off.getImageData(0, 0, w, h).data;
  const got = new Uint8Array(w * h * 4);
  // Drawn again and read in the same task: the drawing buffer is not preserved between frames.
  draw();
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, got);
  let max = 0, over = 0, sum = 0;
  for (let y = 0; y < h; y++) {
    const g = (h - 1 - y) * w * 4, r = y * w * 4;
    for (let x = 0; x < w * 4; x += 4) {
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(got[g + x + c] - ref[r + x + c]);
        sum += d; if (d > max) max = d; if (d > 2) over++;
      }
    }
  }
  return { max, over, mean: sum / (w * h * 3), width: w, height: h };
}

/** The mean of the canvas's drawn 5 × 5 pixels around photo pixel (x, y), 0…255, as WebGL renders it now. */
function canvasColour(x, y) {
  const w = state.width, h = state.height, got = new Uint8Array(w * h * 4);
  draw();
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, got);
  const sum = [0, 0, 0];
  for (let dy = -2; dy <= 2; dy++) {
    for (let dx = -2; dx <= 2; dx++) {
      const i = ((h - 1 - (y + dy)) * w + x + dx) * 4;
      for (let c = 0; c < 3; c++) sum[c] += got[i + c];
    }
  }
  return sum.map((v) => v / 25);
}

/** The scopes' CPU sample against the same places drawn by WebGL (read back here, once): the largest difference. */
function scopeSampleCheck() {
  const w = sample.width, h = sample.height, texture = gl.createTexture(), framebuffer = gl.createFramebuffer();
  gl.activeTexture(gl.TEXTURE2);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  pass(state.mode === 'before' ? 3 : 0, w, h, w, h);
  const gpu = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, gpu);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.deleteFramebuffer(framebuffer);
  gl.deleteTexture(texture);
  updateScopes();
  let max = 0;
  for (let i = 0; i < gpu.length; i += 4) {
    for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(gpu[i + c] - sample.pixels[i + c]));
  }
  return { max, width: w, height: h };
}

window.studio = {
  state, refresh, redraw: draw, recipe, renderSteps, addAdjustment, addLookStep, selectPhoto, loadLooks,
  comparePreviewWith, pick, pickNeutral, photoColour, canvasColour, scopeSampleCheck
};

(async function start() {
  try {
    setupGL();
    StudioScopes.mount($('scopes'));
    wire();
    const [adjustments] = await Promise.all([api('/api/adjustments'), loadPhotos(), loadLooks(), loadScenes()]);
    state.adjustments = adjustments;
    const select = $('adjustment');
    for (const a of adjustments) {
      select.append(el('option', { value: a.id, text: a.category + ' · ' + a.display_name,
                                   title: a.description }));
    }
    renderSteps();
    if (state.photos.length) await selectPhoto(0); else say('no photos: drop one onto the page');
    state.ready = true;
  } catch (e) {
    $('glError').hidden = false;
    $('glError').textContent = e.message;
    say(e.message, true);
    state.failed = e.message;
  }
})();
