#!/usr/bin/python3
"""Browser test of `lookstudio studio` in Debian's headless Chromium (Selenium + chromium-driver).

Opens the studio on a shipped photo and a generated 2-megapixel one and grades through the page as a colourist would:
a hue-vs-saturation curve with a point put by the eyedropper (its x checked against the Grade plugin's hue of the
clicked pixels) and dragged, two slider adjustments, `curve.rgb` with a point added and dragged on the master curve
and the red curve's end dragged, `grade.lift_gamma_gain` with two wheel pucks dragged (the offsets checked against
the documented puck mapping). Measures and prints slider change -> repainted 2-megapixel preview with the scopes on
(median of 20 moves, each from a settled page, until the draw has run and the next frame began; 10 moves with the
scopes off interleaved; reported, not asserted) and checks every repaint updated the scopes. Saves the look, checks
`looks show` has the typed recipe, checks the scopes' sample against WebGL's pixels (within 1 code), compares the
settled canvas with `lookstudio apply --recipe` of the saved recipe and with `apply --look` of the saved look on the
same preview-sized photo (within 2 codes), reloads and finds it. Fails (exit 1) on any mismatch. With --screenshot
FILE it also writes a screenshot (curves, wheels, a hue curve, the scopes) as a 256-colour PNG.
"""
import argparse, json, math, os, signal, statistics, subprocess, sys, tempfile, time, urllib.request, zlib, struct

import numpy as np
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREVIEW = 1732  # 1732 x 1155 = 2.0 megapixels for the latency photo


def fail(message):
    print('studio-browser-test: FAIL: ' + message)
    sys.exit(1)


def say(message):
    print('studio-browser-test: ' + message, flush=True)


def write_png(path, rgb):
    h, w, _ = rgb.shape
    raw = b''.join(b'\x00' + rgb[y].tobytes() for y in range(h))
    chunk = lambda tag, data: struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(raw, 1)) + chunk(b'IEND', b''))


def read_png(path):
    """An 8-bit RGB PNG (as the studio's previews are) as an h x w x 3 array."""
    from PIL import Image
    return np.asarray(Image.open(path).convert('RGB'))


def two_megapixel_photo(path):
    """Smooth colour ramps with fine noise: every code in use, like a photo, 1732 x 1155."""
    h, w = 1155, PREVIEW
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rng = np.random.default_rng(7)
    r = 0.5 + 0.45 * np.sin(x / 170.0) * np.cos(y / 230.0)
    g = x / w
    b = y / h
    rgb = np.stack([r, g, b], axis=-1) + rng.normal(0, 0.02, (h, w, 3)).astype(np.float32)
    write_png(path, (np.clip(rgb, 0, 1) * 255 + 0.5).astype(np.uint8))


# ---- The Grade plugin's hue (Plugins/Grade/oklab.c, hue_curves.c), written again here to check the eyedropper ----
M1 = np.array([[0.4122214708, 0.5363325363, 0.0514459929], [0.2119034982, 0.6806995451, 0.1073969566],
               [0.0883024619, 0.2817188376, 0.6299787005]])
M2 = np.array([[0.2104542553, 0.7936177850, -0.0040720468], [1.9779984951, -2.4285922050, 0.4505937099],
               [0.0259040371, 0.7827717662, -0.8086757660]])


def oklab_hue_degrees(linear):
    lab = M2 @ np.cbrt(M1 @ np.asarray(linear, dtype=np.float64))
    return math.degrees(math.atan2(lab[2], lab[1])) % 360.0, math.hypot(lab[1], lab[2])


def grade_hue(rgb):
    """The x of the Grade plugin's hue curves for an sRGB-encoded colour: Oklab hue on the six-anchor scale."""
    decode = lambda v: v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    anchors = [oklab_hue_degrees(c)[0] for c in [(1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 1, 1), (0, 0, 1), (1, 0, 1)]]
    anchors.append(anchors[0] + 360)
    h, chroma = oklab_hue_degrees([decode(v) for v in rgb])
    if h < anchors[0]:
        h += 360
    i = 0
    while i < 5 and h >= anchors[i + 1]:
        i += 1
    return (60 * i + 60 * (h - anchors[i]) / (anchors[i + 1] - anchors[i])) % 360, chroma


# ---- Driving the page ---------------------------------------------------------------------------------------------
def wait_ready(driver):
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        'return window.studio && (window.studio.state.ready || window.studio.state.failed)'))
    failed = driver.execute_script('return window.studio.state.failed')
    if failed:
        fail('the page failed to start: ' + failed)


def wait_repaint(driver):
    """Waits until the latest state of the recipe is composed and drawn."""
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1], s = window.studio.state;
        (function poll() { !s.inflight && s.rendered >= s.version ? done() : setTimeout(poll, 5); })();""")


def wait_settled(driver):
    """Waits until the page has redrawn the latest recipe through the 64³ cube of a saved look (studio.js refine)."""
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1], s = window.studio.state;
        (function poll() {
          !s.inflight && s.rendered >= s.version && s.refined === s.version ? done() : setTimeout(poll, 10);
        })();""")


def move(driver, selector, value):
    """Sets a slider as a drag would (input events) and waits for the repaint of that state."""
    driver.execute_script("""
        const input = document.querySelector(arguments[0]);
        input.value = String(arguments[1]);
        input.dispatchEvent(new Event('input'));""", selector, value)
    wait_repaint(driver)


def add_step(driver, adjustment):
    Select(driver.find_element(By.ID, 'adjustment')).select_by_value(adjustment)
    driver.find_element(By.ID, 'addAdjustment').click()
    wait_repaint(driver)
    return driver.find_element(By.CSS_SELECTOR, '.step[data-id="%s"]' % adjustment)


def drag(driver, element, x, y, dx, dy):
    """Presses at (x, y) CSS pixels from the element's top-left corner, moves by (dx, dy) in steps, releases."""
    rect = element.rect
    chain = ActionChains(driver, duration=20).move_to_element_with_offset(
        element, int(round(x - rect['width'] / 2)), int(round(y - rect['height'] / 2))).click_and_hold()
    for k in range(4):
        chain.move_by_offset(int(round(dx * (k + 1) / 4)) - int(round(dx * k / 4)),
                             int(round(dy * (k + 1) / 4)) - int(round(dy * k / 4)))
    chain.release().perform()
    wait_repaint(driver)


def curve_pixel(rect, x, y, x_range=(0, 1), y_range=(0, 1), periodic=False):
    """Where the curve editor draws value (x, y): studio-curves.js's frame() (6 px inset, 20 px strip below)."""
    margin = (x_range[1] - x_range[0]) / 10 if periodic else 0
    d0, d1 = x_range[0] - margin, x_range[1] + margin
    left, right, top, bottom = 6, rect['width'] - 6, 6, rect['height'] - 20
    return (left + (x - d0) / (d1 - d0) * (right - left),
            top + (y_range[1] - y) / (y_range[1] - y_range[0]) * (bottom - top))


def params_of(driver, adjustment):
    return driver.execute_script(
        "return window.studio.state.steps.find((s) => s.id === arguments[0]).params;", adjustment)


def near(value, expected, tolerance):
    return abs(value - expected) <= tolerance


def scroll_to(driver, element):
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)


# ---- The grading steps --------------------------------------------------------------------------------------
def eyedropper_step(driver, preview):
    """curve.hue_sat first, so the colour entering it is the photo's own: a click on the preview must put (or select)
    a point at the Grade plugin's hue of the 5 x 5 pixels clicked; that point is then dragged up (more chroma)."""
    step = add_step(driver, 'curve.hue_sat')
    view = driver.find_element(By.ID, 'view')
    rect = view.rect
    ActionChains(driver, duration=20).move_to_element_with_offset(
        view, 0, int(-0.05 * rect['height'])).click().perform()  # the crema, hue ~26°
    WebDriverWait(driver, 30).until(lambda d: d.execute_script('return window.studio.state.picked'))
    wait_repaint(driver)
    picked = driver.execute_script('return window.studio.state.picked')
    h, w, _ = preview.shape
    x0, y0 = max(0, min(w - 5, picked['x'] - 2)), max(0, min(h - 5, picked['y'] - 2))
    mean = preview[y0:y0 + 5, x0:x0 + 5].reshape(-1, 3).mean(axis=0) / 255.0
    hue, chroma = grade_hue(mean)
    if chroma < 0.04:
        fail('the eyedropper test clicked a near-grey place (Oklab chroma %.4f): choose a colourful one' % chroma)
    if not near(picked['at'], hue, 1e-6):
        fail('the eyedropper put hue %.6f for pixel (%d, %d); the Grade plugin\'s hue there is %.6f'
             % (picked['at'], picked['x'], picked['y'], hue))
    gain = params_of(driver, 'curve.hue_sat')['gain']
    distance = lambda p: min(abs(p[0] - hue), 360 - abs(p[0] - hue))
    point = min(gain, key=distance)
    if distance(point) > (0.006 if picked['added'] else 3.0):
        fail('no point at the picked hue %.2f: %r' % (hue, gain))
    canvas = step.find_element(By.CSS_SELECTOR, 'canvas.curve')
    scroll_to(driver, canvas)
    x, y = curve_pixel(canvas.rect, point[0], point[1], (0, 360), (0, 2), periodic=True)
    drag(driver, canvas, x, y, 0, -14)
    moved = min(params_of(driver, 'curve.hue_sat')['gain'], key=distance)
    if not moved[1] > 1.1:
        fail('dragging the picked point did not raise it: %r' % moved)
    say('eyedropper: pixel (%d, %d) = %s has the Grade plugin\'s hue %.2f° (Oklab chroma %.3f); %s point there, '
        'dragged to gain %.3f' % (picked['x'], picked['y'], tuple(round(v * 255) for v in mean), hue, chroma,
                                  'added a' if picked['added'] else 'selected the', moved[1]))


def curves_step(driver):
    """curve.rgb: a click on the master curve at 0.25 adds a point, dragged 18 px down; the red curve's white end is
    dragged 16 px down."""
    step = add_step(driver, 'curve.rgb')
    canvas = step.find_element(By.CSS_SELECTOR, 'canvas.curve')
    scroll_to(driver, canvas)
    rect = canvas.rect
    unit = rect['height'] - 26  # pixels from y = 0 to y = 1
    drag(driver, canvas, *curve_pixel(rect, 0.25, 0.25), 0, 18)
    master = params_of(driver, 'curve.rgb')['master']
    if len(master) != 3 or not near(master[1][0], 0.25, 0.01) or not near(master[1][1], 0.25 - 18 / unit, 0.01):
        fail('the master curve after adding and dragging a point: %r' % master)
    step.find_element(By.CSS_SELECTOR, 'button.tab-red').click()
    drag(driver, canvas, *curve_pixel(rect, 1, 1), 0, 16)
    red = params_of(driver, 'curve.rgb')['red']
    if len(red) != 2 or red[1][0] != 1 or not near(red[1][1], 1 - 16 / unit, 0.01):
        fail('the red curve after dragging its end: %r' % red)
    say('curve.rgb: master %s, red %s' % (json.dumps(master), json.dumps(red)))


def wheel_offset_check(name, offset, dx, dy, radius):
    """The documented puck mapping: zero mean, |offset| = r * rim, its vectorscope (U, V) pointing where the puck
    went (y up)."""
    r, g, b = offset
    if abs(r + g + b) > 3e-4:
        fail('the %s wheel offset %r does not have zero mean' % (name, offset))
    luma = 0.299 * r + 0.587 * g + 0.114 * b
    angle = math.degrees(math.atan2(0.877 * (r - luma), 0.492 * (b - luma)))
    wanted = math.degrees(math.atan2(-dy, dx))
    size = math.sqrt(r * r + g * g + b * b)
    expected = math.hypot(dx, dy) / radius * 0.5 / math.sqrt(2 / 3)
    if abs((angle - wanted + 180) % 360 - 180) > 3 or not near(size, expected, 0.05 * expected):
        fail('the %s wheel: offset %r points at %.1f° with length %.4f; the puck went to %.1f°, length %.4f'
             % (name, offset, angle, size, wanted, expected))


def wheels_step(driver):
    """grade.lift_gamma_gain: the gain puck dragged right and up, the lift puck left and down."""
    step = add_step(driver, 'grade.lift_gamma_gain')
    for name, dx, dy in [('gain', 10, -6), ('lift', -6, 5)]:
        wheel = step.find_element(By.CSS_SELECTOR, 'canvas.param-' + name)
        scroll_to(driver, wheel)
        rect = wheel.rect
        drag(driver, wheel, rect['width'] / 2, rect['height'] / 2, dx, dy)
        wheel_offset_check(name, params_of(driver, 'grade.lift_gamma_gain')[name], dx, dy, rect['width'] / 2 - 1)
    if not step.find_elements(By.CSS_SELECTOR, 'input.param-gain_master'):
        fail('the gain wheel has no master slider')
    params = params_of(driver, 'grade.lift_gamma_gain')
    say('grade.lift_gamma_gain: lift %s, gain %s (zero mean, along the pucks)' % (params['lift'], params['gain']))


# ---- Latency, saving, comparing -------------------------------------------------------------------------------
LATENCY_SCRIPT = """
    const [rounds, done] = arguments;
    (async () => {
      const st = window.studio, s = st.state;
      await st.selectPhoto(1);
      const box = document.getElementById('scopesOn');
      const input = document.querySelector('.param-shift');
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      // Repainted means the draw has run, not only been queued: reading a pixel waits for the GL commands
      // issued so far; the frame after that shows them.
      const gl = document.getElementById('view').getContext('webgl2');
      const pixel = new Uint8Array(4);
      const finished = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      // Each move starts from a settled page (the previous frame presented, nothing queued), so a move's
      // figure is its own latency rather than the wait behind the previous move's frame. A drag moves on
      // before the settled preview's 64³ cube is due; these paced moves hold it off the same way.
      const settle = async () => {
        await frame(); await frame();
        await new Promise((r) => setTimeout(r, 50));
        await frame();
      };
      s.refineAfter = 1e9;
      // Two moves with the scopes on, one with them off, in turn: the machine's load changes during a run.
      const on = [], off = [], composes = [], updates = s.scopeUpdates || 0, scopeStart = s.scopeTimes.length;
      for (let i = 0; i < 3 * rounds; i++) {
        const scopes = i % 3 !== 2;
        if (box.checked !== scopes) box.click();
        await settle();
        const t0 = performance.now();
        input.value = String(-1500 + 100 * (i % 30));
        input.dispatchEvent(new Event('input'));
        const wanted = s.version;
        while (s.rendered < wanted) await new Promise((r) => setTimeout(r, 1));
        finished();
        await frame();
        (scopes ? on : off).push(performance.now() - t0);
        composes.push(s.timing.compose);
      }
      if (!box.checked) box.click();
      const scopeTimes = s.scopeTimes.slice(scopeStart), scopeUpdates = (s.scopeUpdates || 0) - updates;
      s.refineAfter = 300;
      await st.refresh();
      // The WebGL share alone: the same frame drawn again, no compose, through the settled 64³ cube.
      while (s.refined !== s.version) await new Promise((r) => setTimeout(r, 10));
      const draws = [];
      for (let i = 0; i < 20; i++) {
        await settle();
        const t0 = performance.now();
        st.redraw();
        finished();
        await frame();
        draws.push(performance.now() - t0);
      }
      return { on, off, composes, draws, scopeTimes, scopeUpdates, width: s.width, height: s.height };
    })().then(done, (e) => done({ error: e.message }));"""


def latency(driver, rounds=10):
    """Slider -> repainted 2-megapixel preview: 2 moves with the scopes on, 1 with them off, `rounds` times."""
    run = driver.execute_async_script(LATENCY_SCRIPT, rounds)
    if 'error' in run:
        fail('latency run: ' + run['error'])
    on, median = run['on'], statistics.median(run['on'])
    say('slider -> repainted %dx%d preview (%.1f MP), scopes on: median %.1f ms, min %.1f, max %.1f (%d moves)'
        % (run['width'], run['height'], run['width'] * run['height'] / 1e6, median, min(on), max(on), len(on)))
    say('of which compose request (server compose + transfer of the 33³ float cube): median %.1f ms; a redraw '
        'alone through the settled 64³ cube (WebGL draw run, then the next frame): median %.1f ms'
        % (statistics.median(run['composes']), statistics.median(run['draws'])))
    # Every repaint with the scopes on updates them (at least once per move; switching them on redraws too).
    if run['scopeUpdates'] < len(on):
        fail('the scopes were updated %d times in %d repaints' % (run['scopeUpdates'], len(on)))
    timing = lambda key: statistics.median(t[key] for t in run['scopeTimes'])
    say('scopes, per repaint: median %.1f ms (the 256-px sample through the cube %.1f ms, counting and painting '
        '%.1f ms); the moves between with scopes off: median %.1f ms, min %.1f (%d moves)'
        % (statistics.median(t['grade'] + t['count'] for t in run['scopeTimes']), timing('grade'),
           timing('count'), statistics.median(run['off']), min(run['off']), len(run['off'])))
    if run['width'] * run['height'] < 2_000_000:
        fail('the latency preview is under 2 megapixels')
    return median


def save_look(driver, cli, name):
    field = driver.find_element(By.ID, 'lookName')
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, 'lookTags').send_keys('studio, warm')
    driver.find_element(By.ID, 'save').click()
    WebDriverWait(driver, 60).until(lambda d: 'saved' in d.find_element(By.ID, 'status').text
                                    or d.find_element(By.ID, 'status').get_attribute('class') == 'error')
    status = driver.find_element(By.ID, 'status').text
    if 'saved' not in status:
        fail('save: ' + status)
    show = cli('looks', 'show', name, '--json')
    if show.returncode != 0:
        fail('looks show: ' + show.stderr)
    record = json.loads(show.stdout)
    yaml = record.get('recipe_yaml') or ''
    for wanted in ['curve.hue_sat', 'wb.temperature', 'tone.contrast', 'curve.rgb', 'master: [[',
                   'grade.lift_gamma_gain', 'gain: [']:
        if wanted not in yaml:
            fail('the saved look\'s recipe lacks %r: %r' % (wanted, yaml))
    listed = cli('looks', 'list', '--tag', 'studio')
    if name not in listed.stdout:
        fail('looks list --tag studio does not list the look: ' + listed.stdout)
    return record


def compare_with_apply(driver, api, cli, tmp, preview, label, *how):
    """The canvas (photo 0) against `lookstudio apply HOW` of the same preview-sized photo: within 2 codes."""
    applied = os.path.join(tmp, 'applied-%s.png' % label.split()[0])
    run = cli('apply', *how, preview, applied)
    if run.returncode != 0:
        fail('lookstudio apply %s: %s' % (' '.join(how), run.stderr))
    with open(applied, 'rb') as f:
        reference = api('/api/photos', body=f.read(), method='POST')['id']
    diff = driver.execute_async_script(
        'const done = arguments[arguments.length - 1];'
        'window.studio.comparePreviewWith(%d).then(done, (e) => done({error: e.message}));' % reference)
    say('canvas vs lookstudio apply %s on %dx%d: max %d codes, mean %.3f, %d samples over 2'
        % (label, diff.get('width', 0), diff.get('height', 0), diff.get('max', -1), diff.get('mean', -1),
           diff.get('over', -1)))
    if 'error' in diff or diff['max'] > 2:
        fail('canvas differs from lookstudio apply %s: %r' % (label, diff))
    return diff['max']


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = '/usr/bin/chromium'
    for flag in ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--use-angle=swiftshader',
                 '--enable-unsafe-swiftshader', '--window-size=1600,1000', '--force-device-scale-factor=1']:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
    driver.set_script_timeout(90)
    return driver


def grade(driver, api, cli, tmp, args):
    """The whole run in the browser; returns the latency median."""
    driver.get(args.url + '&preview=%d' % PREVIEW)
    wait_ready(driver)
    renderer = driver.execute_script("""
        const gl = document.getElementById('view').getContext('webgl2');
        const info = gl.getExtension('WEBGL_debug_renderer_info');
        return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);""")
    say('WebGL2 renderer: ' + renderer)
    preview = os.path.join(tmp, 'preview.png')
    with open(preview, 'wb') as f:
        f.write(api('/api/photos/0/preview?long=%d' % PREVIEW, raw=True))

    eyedropper_step(driver, read_png(preview))
    add_step(driver, 'wb.temperature')
    add_step(driver, 'tone.contrast')
    move(driver, '.param-shift', 1200)
    move(driver, '.param-amount', 0.3)
    curves_step(driver)
    wheels_step(driver)
    recipe = driver.execute_script('return window.studio.recipe(33);')
    wanted = ['curve.hue_sat', 'wb.temperature', 'tone.contrast', 'curve.rgb', 'grade.lift_gamma_gain']
    if [s['adjust'] for s in recipe['steps']] != wanted:
        fail('unexpected recipe %r' % recipe)

    median = latency(driver)

    # Save through the page; the catalog has the typed recipe; the canvas matches the saved recipe and look.
    name = 'Browser Test Warm'
    record = save_look(driver, cli, name)
    saved = os.path.join(tmp, 'saved-recipe.yaml')
    with open(saved, 'w') as f:
        f.write(record['recipe_yaml'])
    driver.execute_async_script('const done = arguments[arguments.length - 1];'
                                'window.studio.selectPhoto(0).then(() => done(), () => done());')
    wait_settled(driver)
    check = driver.execute_script('return window.studio.scopeSampleCheck();')
    say('scopes\' %dx%d sample (the cube applied on the CPU) vs the same places drawn by WebGL: max %d codes'
        % (check['width'], check['height'], check['max']))
    if check['max'] > 1:
        fail('the scopes do not show what the canvas shows: %r' % check)
    compare_with_apply(driver, api, cli, tmp, preview, '--recipe (the saved recipe, 64³)', '--recipe', saved)
    compare_with_apply(driver, api, cli, tmp, preview, '--look (the saved look)', '--look', record['guid'])

    driver.refresh()
    wait_ready(driver)
    driver.find_element(By.ID, 'search').send_keys('Browser Test')
    cards = [c.text for c in driver.find_elements(By.CSS_SELECTOR, '.look .name')]
    if name not in cards:
        fail('after reload the look list is %r' % cards)
    say('saved "%s" (%s) with its recipe; listed after reload' % (name, record['guid']))
    if args.screenshot:
        screenshot(driver, args.screenshot)
    return median


FIT_SCRIPT = """
    const done = arguments[arguments.length - 1];
    (async () => {
      await window.studio.selectPhoto(arguments[0]);
      await window.studio.refresh();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const r = document.getElementById('view').getBoundingClientRect();
        const st = document.getElementById('stage').getBoundingClientRect();
        done({left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
              stageRight: st.right, stageBottom: st.bottom, innerWidth: window.innerWidth,
              innerHeight: window.innerHeight, scrollHeight: document.documentElement.scrollHeight});
      }));
    })();"""


def cast_photo(path, cast):
    """600 x 400: colour ramps around a 120 x 120 grey patch (linear 0.18) under a light of linear gains `cast`."""
    h, w = 400, 600
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    linear = np.stack([0.05 + 0.4 * (x % 60) / 60, 0.3 - 0.2 * (y % 40) / 40, 0.1 + 0.3 * (x // 60) / 10], axis=-1)
    patch = (abs(x - w / 2) < 60) & (abs(y - h / 2) < 60)
    linear[patch] = 0.18
    linear = np.minimum(1, linear * np.array(cast))
    encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)
    write_png(path, np.round(encoded * 255).astype(np.uint8))


def neutral_step(driver, api, tmp):
    """The neutral eyedropper on a grey patch under a warm cast: Pick neutral, click the patch, and the canvas there
    is grey within 1 code; the recipe's first steps are the white balance it set."""
    path = os.path.join(tmp, 'warm-cast.png')
    cast_photo(path, (1.25, 1.0, 0.72))
    with open(path, 'rb') as f:
        photo = api('/api/photos', body=f.read(), method='POST')['id']
    driver.refresh()
    wait_ready(driver)
    driver.execute_async_script('const done = arguments[arguments.length - 1];'
                                'window.studio.state.mode = "after";'
                                'window.studio.selectPhoto(%d).then(() => done(), () => done());' % photo)
    wait_settled(driver)
    before = driver.execute_script('return window.studio.canvasColour(300, 200);')
    driver.find_element(By.ID, 'neutralPick').click()
    view = driver.find_element(By.ID, 'view')
    ActionChains(driver, duration=20).move_to_element(view).click().perform()
    WebDriverWait(driver, 30).until(lambda d: d.execute_script('return window.studio.state.neutral'))
    wait_settled(driver)
    found = driver.execute_script('return window.studio.state.neutral')
    after = driver.execute_script('return window.studio.canvasColour(300, 200);')
    steps = [s['adjust'] for s in driver.execute_script('return window.studio.recipe(33);')['steps']]
    spread = max(after) - min(after)
    say('neutral eyedropper: patch (%.1f, %.1f, %.1f) under a warm cast → temperature %+.0f K, tint %+.3f → canvas '
        '(%.1f, %.1f, %.1f), spread %.2f codes' % (tuple(before) + (found['shift'], found['tint']) + tuple(after)
                                                   + (spread,)))
    if steps[:2] != ['wb.temperature', 'wb.tint']:
        fail('the neutral eyedropper did not put the white balance first: %r' % steps)
    if spread > 1:
        fail('the picked patch is not grey on the canvas: %r (before %r, found %r)' % (after, before, found))


def fits_window(driver):
    """The preview fits the window at any size: the 2 MP photo is scaled down into its stage, never cut off."""
    for width, height in [(1280, 800), (1000, 640)]:
        driver.set_window_size(width, height)
        box = driver.execute_async_script(FIT_SCRIPT, 1)
        if box['width'] < 50 or box['height'] < 50:
            fail('at %dx%d the preview is %.0fx%.0f px' % (width, height, box['width'], box['height']))
        if box['right'] > box['innerWidth'] + 0.5 or box['bottom'] > box['innerHeight'] + 0.5 \
                or box['right'] > box['stageRight'] + 0.5 or box['bottom'] > box['stageBottom'] + 0.5:
            fail('at %dx%d the preview (%.0f,%.0f)-(%.0f,%.0f) leaves the window (%dx%d) or its stage'
                 % (width, height, box['left'], box['top'], box['right'], box['bottom'], box['innerWidth'],
                    box['innerHeight']))
        say('window %dx%d: the 2 MP preview is drawn %.0fx%.0f px, inside the window and its stage'
            % (width, height, box['width'], box['height']))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--binary', default=os.path.join(ROOT, '.build/debug/lookstudio'))
    parser.add_argument('--screenshot')
    args = parser.parse_args()
    started = time.time()
    tmp = tempfile.mkdtemp(prefix='lookstudio-browser-')
    catalog = os.path.join(tmp, 'catalog.sqlite')
    big = os.path.join(tmp, 'gradient-2mp.png')
    two_megapixel_photo(big)
    photo = os.path.join(ROOT, 'samples/coffee.png')
    cli = lambda *a: subprocess.run([args.binary, '--catalog', catalog] + list(a), capture_output=True, text=True)

    server = subprocess.Popen([args.binary, '--catalog', catalog, 'studio', photo, big, '--port', '0'],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    args.url = server.stdout.readline().strip()
    if not args.url.startswith('http://127.0.0.1:'):
        fail('the studio printed no URL: %r' % args.url)
    base, token = args.url.split('/?token=')

    def api(path, body=None, raw=False, method=None):
        request = urllib.request.Request(base + path, data=body, method=method,
                                         headers={'X-Studio-Token': token, 'Content-Type': 'application/json'})
        with urllib.request.urlopen(request) as reply:
            data = reply.read()
            return data if raw else json.loads(data)

    driver = start_browser()
    try:
        median = grade(driver, api, cli, tmp, args)
        fits_window(driver)
        neutral_step(driver, api, tmp)
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=20)
    if code != 0:
        fail('the studio exited with %d after Ctrl-C' % code)
    # A speed target is reported, not asserted (HELPERS: timings belong in benchmarks; a loaded CI machine is no
    # measure of the page).
    say('latency target 100 ms with scopes on %s' % ('met' if median <= 100 else 'NOT met on this machine'))
    say('OK in %.0f s' % (time.time() - started))


SCREENSHOT_SCRIPT = """
    const done = arguments[arguments.length - 1];
    (async () => {
      const st = window.studio, s = st.state;
      await st.selectPhoto(0);
      st.addAdjustment('curve.rgb');
      st.addAdjustment('grade.lift_gamma_gain');
      st.addAdjustment('curve.hue_sat');
      const [curves, wheels, hue] = s.steps;
      curves.params.master = [[0, 0], [0.25, 0.2], [0.75, 0.82], [1, 1]];
      curves.params.blue = [[0, 0.04], [1, 0.96]];
      curves.ui = { tab: 'master', selected: { master: 2 } };
      wheels.params.lift = [-0.012, -0.004, 0.016];
      wheels.params.gain = [0.03, 0.004, -0.034];
      wheels.params.gamma_master = 0.08;
      hue.params.gain = [[0, 1], [38, 1.35], [60, 1], [120, 0.8], [180, 1], [240, 1.15], [300, 1]];
      hue.ui = { selected: { gain: 1 }, picked: { name: 'gain', x: 38 } };
      st.renderSteps();
      document.querySelector('[data-mode=split]').click();
      s.split = 0.4;
      await st.refresh();
      setTimeout(done, 1000);
    })();"""


def screenshot(driver, path):
    """The studio on the shipped photo in split view: curves, wheels, a hue curve, the scopes; a small PNG."""
    from PIL import Image
    driver.set_window_size(1600, 1250)
    driver.find_element(By.ID, 'search').clear()
    driver.execute_async_script(SCREENSHOT_SCRIPT)
    raw = path + '.full.png'
    driver.save_screenshot(raw)
    # 256 colours (a quarter of the size): libimagequant's dithering keeps the wheels and the hue strip smooth where
    # Pillow has it; median cut otherwise, which bands them.
    image = Image.open(raw).convert('RGB')
    try:
        small = image.quantize(256, method=Image.Quantize.LIBIMAGEQUANT, dither=Image.Dither.FLOYDSTEINBERG)
    except (ValueError, OSError):
        small = image.quantize(256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)
    os.remove(raw)
    say('screenshot %s (%d kB)' % (path, os.path.getsize(path) // 1024))


if __name__ == '__main__':
    main()
