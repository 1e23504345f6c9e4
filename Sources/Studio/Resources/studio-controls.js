'use strict';
// The recipe editor's controls, one per parameter kind (docs/PLUGINS.md): sliders for numbers, a checkbox for a
// bool, a select for a choice, three sliders for a colour, a colour wheel for a colour flagged `wheel`, and a curve
// editor for curves. Each control writes its parameter's value in the form a recipe's JSON takes (numbers, [r, g, b],
// [[x, y], …], option names) into `step.params` and calls `onChange`; studio.js composes and repaints.

const StudioControls = (() => {
  const M = StudioMath;

  function el(tag, props = {}, children = []) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function format(value, kind) {
    if (kind === '%') return Math.round(value) + ' %';
    const unit = { angle: '°', kelvin: ' K' }[kind] || '';
    return (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2)) + unit;
  }

  /** A labelled range input; double-click puts it back to `identity` (when given), as the wheels do. */
  function slider(o) {
    const out = el('output', { text: format(o.value, o.kind) });
    const input = el('input', { type: 'range', min: o.min, max: o.max, step: o.step, value: o.value,
                                title: o.help, 'aria-label': o.aria || o.label, class: o.cls || '' });
    const changed = () => { const v = parseFloat(input.value); out.textContent = format(v, o.kind); o.onInput(v); };
    input.addEventListener('input', changed);
    if (o.identity !== undefined) {
      input.addEventListener('dblclick', () => { input.value = String(o.identity); changed(); });
    }
    if (o.compact) return el('div', { class: 'master' }, [input, out]);
    return el('div', { class: 'param' }, [el('label', { text: o.label, title: o.help }), input, out]);
  }

  function numberSlider(step, p, onChange, label) {
    const span = p.kind === 'kelvin' ? 10 : (p.max - p.min) / 400;
    return slider({ label: label || p.display_name, min: p.min, max: p.max, step: span, kind: p.kind,
                    value: step.params[p.name], identity: p.identity, cls: 'param-' + p.name,
                    help: p.description + ' (' + p.min + '…' + p.max + ', default ' + p.default + ')',
                    onInput: (v) => { step.params[p.name] = v; onChange(); } });
  }

  /** A colour without a wheel: three sliders, red, green, blue, each over the parameter's range. */
  function colourSliders(step, p, onChange) {
    const box = el('div', { class: 'colour', role: 'group', 'aria-label': p.display_name },
                   [el('div', { class: 'sub', text: p.display_name, title: p.description })]);
    ['R', 'G', 'B'].forEach((channel, c) => {
      box.append(slider({ label: channel, aria: p.display_name + ' ' + ['red', 'green', 'blue'][c],
                          min: p.min, max: p.max, step: (p.max - p.min) / 400, kind: 'scalar',
                          value: step.params[p.name][c], identity: p.identity[c], cls: 'param-' + p.name + '-' + c,
                          help: p.display_name + ', ' + ['red', 'green', 'blue'][c] + ': ' + p.description,
                          onInput: (v) => { const rgb = step.params[p.name].slice(); rgb[c] = v;
                                            step.params[p.name] = rgb; onChange(); } }));
    });
    return box;
  }

  /** A choice: a select of the option names; the recipe carries the name. */
  function choiceSelect(step, p, onChange) {
    const select = el('select', { 'aria-label': p.display_name, title: p.description, class: 'param-' + p.name });
    for (const name of p.choices) select.append(el('option', { value: name, text: name }));
    select.value = step.params[p.name];
    select.addEventListener('change', () => { step.params[p.name] = select.value; onChange(); });
    return el('div', { class: 'param' }, [el('label', { text: p.display_name, title: p.description }), select,
                                          el('span')]);
  }

  function checkbox(step, p, onChange) {
    const box = el('input', { type: 'checkbox', title: p.description, 'aria-label': p.display_name,
                              class: 'param-' + p.name });
    box.checked = step.params[p.name] >= 0.5;
    box.addEventListener('change', () => { step.params[p.name] = box.checked ? 1 : 0; onChange(); });
    return el('div', { class: 'param' }, [el('label', { text: p.display_name }), box, el('span')]);
  }

  // ---- Colour wheels ---------------------------------------------------------------------------------------------
  // The puck ↔ offset mapping is StudioMath.offsetOf / puckOf (zero mean, oriented as the vectorscope). A value
  // read from a recipe may carry a mean (all three channels moved alike): the puck shows and edits only the
  // zero-mean part and keeps the mean, so nothing the recipe said is lost; a double-click resets to the identity.
  const discs = new Map();

  function rimOf(p) {
    const room = Math.min(...p.identity.map((v) => Math.min(p.max - v, v - p.min)));
    // An identity on a bound leaves no room one way: then half the range, clamped per component by wheelValue.
    return 0.5 * (room > 0 ? room : (p.max - p.min) / 2) / Math.sqrt(2 / 3);
  }

  function splitWheelValue(p, value) {
    const d = value.map((v, c) => v - p.identity[c]);
    const mean = (d[0] + d[1] + d[2]) / 3;
    return { mean, puck: M.puckOf(d.map((v) => v - mean), rimOf(p)) };
  }

  function wheelValue(p, puck, mean) {
    const o = M.offsetOf(puck, rimOf(p));
    return o.map((v, c) => Math.round(M.clampTo(p.identity[c] + mean + v, p.min, p.max) * 1e4) / 1e4);
  }

  // The disc: at each place the mid grey plus the offset the puck there gives, scaled to full colour, so the wheel
  // shows what pushing the puck does. Made once per pixel size and reused by every wheel.
  function disc(size) {
    if (discs.has(size)) return discs.get(size);
    const image = new ImageData(size, size), c = size / 2, radius = c - 1;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const dx = (x + 0.5 - c) / radius, dy = (c - y - 0.5) / radius, r = Math.hypot(dx, dy), i = 4 * (y * size + x);
        if (r > 1) continue;
        const d = M.wheelDirection(Math.atan2(dy, dx)), k = 0.42 * r / Math.max(...d.map(Math.abs));
        for (let ch = 0; ch < 3; ch++) image.data[i + ch] = Math.round(255 * (0.34 + k * d[ch]));
        image.data[i + 3] = 255;
      }
    }
    discs.set(size, image);
    return image;
  }

  function drawWheel(canvas, puck) {
    const dpr = window.devicePixelRatio || 1, css = canvas.clientWidth || 100, size = Math.round(css * dpr);
    if (canvas.width !== size) { canvas.width = size; canvas.height = size; }
    const g = canvas.getContext('2d'), c = size / 2, radius = c - 1;
    g.clearRect(0, 0, size, size);
    g.putImageData(disc(size), 0, 0);
    g.strokeStyle = 'rgba(255,255,255,0.25)';
    g.lineWidth = dpr;
    g.beginPath(); g.moveTo(c - radius, c); g.lineTo(c + radius, c); g.moveTo(c, c - radius); g.lineTo(c, c + radius);
    g.stroke();
    const px = c + puck[0] * radius, py = c - puck[1] * radius;
    g.strokeStyle = 'rgba(255,255,255,0.8)';
    g.beginPath(); g.moveTo(c, c); g.lineTo(px, py); g.stroke();
    g.lineWidth = 2 * dpr;
    g.strokeStyle = '#111';
    g.beginPath(); g.arc(px, py, 6 * dpr, 0, 2 * Math.PI); g.stroke();
    g.strokeStyle = '#fff';
    g.lineWidth = 1.5 * dpr;
    g.beginPath(); g.arc(px, py, 4.5 * dpr, 0, 2 * Math.PI); g.stroke();
  }

  // Two decimals, signed; a value that rounds to zero shows as 0.00 (never −0.00).
  function signed(v) {
    const text = Math.abs(v).toFixed(2);
    return text === '0.00' ? text : (v > 0 ? '+' : '−') + text;
  }

  /** One wheel: the disc with its puck, the values, and the adjustment's `NAME_master` slider under it. */
  function wheel(step, p, master, onChange) {
    const canvas = el('canvas', { class: 'wheel-disc param-' + p.name, tabindex: 0, role: 'slider',
                                  'aria-roledescription': 'colour wheel',
                                  'aria-label': p.display_name + ' wheel: drag the puck (Shift: finer), arrow ' +
                                                'keys nudge it, double-click or Home resets',
                                  title: p.description });
    const readout = el('div', { class: 'wheel-values' });
    let { mean, puck } = splitWheelValue(p, step.params[p.name]);
    const show = () => {
      const v = step.params[p.name];
      readout.textContent = v.map((x, c) => signed(x - p.identity[c])).join(' ');
      readout.title = 'red ' + v[0] + ', green ' + v[1] + ', blue ' + v[2];
      canvas.setAttribute('aria-valuetext', readout.title);
      drawWheel(canvas, puck);
    };
    const set = (next) => {
      const r = Math.hypot(next[0], next[1]);
      puck = r > 1 ? [next[0] / r, next[1] / r] : next;
      step.params[p.name] = wheelValue(p, puck, mean);
      show();
      onChange();
    };
    const reset = () => { mean = 0; puck = [0, 0]; step.params[p.name] = p.identity.slice(); show(); onChange(); };
    let last = null;
    canvas.addEventListener('pointerdown', (e) => { canvas.setPointerCapture(e.pointerId); last = e; });
    canvas.addEventListener('pointermove', (e) => {
      if (!last) return;
      const radius = canvas.clientWidth / 2 - 1, k = (e.shiftKey ? 0.2 : 1) / radius;
      const dx = (e.clientX - last.clientX) * k, dy = (e.clientY - last.clientY) * k;
      last = e;
      if (dx || dy) set([puck[0] + dx, puck[1] - dy]);
    });
    const release = () => { last = null; };
    canvas.addEventListener('pointerup', release);
    canvas.addEventListener('pointercancel', release);
    canvas.addEventListener('dblclick', reset);
    canvas.addEventListener('keydown', (e) => {
      const k = e.shiftKey ? 0.005 : 0.02;
      const moves = { ArrowLeft: [-k, 0], ArrowRight: [k, 0], ArrowUp: [0, k], ArrowDown: [0, -k] };
      if (moves[e.key]) set([puck[0] + moves[e.key][0], puck[1] + moves[e.key][1]]);
      else if (e.key === 'Home') reset();
      else return;
      e.preventDefault();
    });
    new ResizeObserver(show).observe(canvas);
    const cell = el('div', { class: 'wheel', role: 'group', 'aria-label': p.display_name },
                    [el('div', { class: 'wheel-name', text: p.display_name }), canvas, readout]);
    if (master) {
      cell.append(slider({ label: master.display_name, help: master.description, min: master.min, max: master.max,
                           step: (master.max - master.min) / 400, value: step.params[master.name], kind: 'scalar',
                           identity: master.identity, cls: 'param-' + master.name, compact: true,
                           onInput: (v) => { step.params[master.name] = v; onChange(); } }));
    }
    return cell;
  }

  function wheelGroup(step, wheels, onChange) {
    return el('div', { class: 'wheels' }, wheels.map(({ p, master }) => wheel(step, p, master, onChange)));
  }

  return { el, format, slider, numberSlider, colourSliders, choiceSelect, checkbox, wheelGroup,
           curveEditor: (...a) => StudioCurves.editor(...a) };
})();
