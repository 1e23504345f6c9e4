#!/usr/bin/python3
"""Browser test of `lookstudio studio` in Debian's headless Chromium (Selenium + chromium-driver).

Opens the studio on a shipped photo and a generated 2-megapixel one, adds an adjustment, moves its slider, compares
the WebGL canvas with `lookstudio apply` of the same recipe on the same preview-sized photo (within 2 codes), saves
the look, checks `looks show` has it with its recipe, reloads and finds it; measures and prints slider change ->
repainted preview (median of 20 moves, each from a settled page, until the draw has run and the next frame
began; reported, not asserted). Fails (exit 1) on any mismatch. With
--screenshot FILE it also writes a screenshot.
"""
import argparse, json, os, signal, statistics, subprocess, sys, tempfile, time, urllib.request, zlib, struct

import numpy as np
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREVIEW = 1732  # 1732 x 1155 = 2.0 megapixels for the latency photo


def fail(message):
    print('studio-browser-test: FAIL: ' + message)
    sys.exit(1)


def write_png(path, rgb):
    h, w, _ = rgb.shape
    raw = b''.join(b'\x00' + rgb[y].tobytes() for y in range(h))
    chunk = lambda tag, data: struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(raw, 1)) + chunk(b'IEND', b''))


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
    url = server.stdout.readline().strip()
    if not url.startswith('http://127.0.0.1:'):
        fail('the studio printed no URL: %r' % url)
    base, token = url.split('/?token=')

    def api(path, body=None, raw=False, method=None):
        request = urllib.request.Request(base + path, data=body, method=method,
                                         headers={'X-Studio-Token': token, 'Content-Type': 'application/json'})
        with urllib.request.urlopen(request) as reply:
            data = reply.read()
            return data if raw else json.loads(data)

    options = webdriver.ChromeOptions()
    options.binary_location = '/usr/bin/chromium'
    for flag in ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--use-angle=swiftshader',
                 '--enable-unsafe-swiftshader', '--window-size=1600,1000', '--force-device-scale-factor=1']:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
    driver.set_script_timeout(90)
    try:
        driver.get(url + '&preview=%d' % PREVIEW)
        wait_ready(driver)
        renderer = driver.execute_script("""
            const gl = document.getElementById('view').getContext('webgl2');
            const info = gl.getExtension('WEBGL_debug_renderer_info');
            return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);""")
        print('studio-browser-test: WebGL2 renderer: ' + renderer)

        # Add an adjustment through the page and move its slider.
        Select(driver.find_element(By.ID, 'adjustment')).select_by_value('wb.temperature')
        driver.find_element(By.ID, 'addAdjustment').click()
        Select(driver.find_element(By.ID, 'adjustment')).select_by_value('tone.contrast')
        driver.find_element(By.ID, 'addAdjustment').click()
        move(driver, '.param-shift', 1200)
        move(driver, '.param-amount', 0.3)
        recipe = driver.execute_script('return window.studio.recipe(33);')
        if [s['adjust'] for s in recipe['steps']] != ['wb.temperature', 'tone.contrast']:
            fail('unexpected recipe %r' % recipe)

        # The same recipe through `lookstudio apply` on the same preview-sized photo.
        preview = os.path.join(tmp, 'preview.png')
        with open(preview, 'wb') as f:
            f.write(api('/api/photos/0/preview?long=%d' % PREVIEW, raw=True))
        recipe_file = os.path.join(tmp, 'recipe.yaml')
        with open(recipe_file, 'w') as f:
            json.dump(recipe, f)  # JSON is YAML
        applied = os.path.join(tmp, 'applied.png')
        run = cli('apply', '--recipe', recipe_file, preview, applied)
        if run.returncode != 0:
            fail('lookstudio apply: ' + run.stderr)
        with open(applied, 'rb') as f:
            reference = api('/api/photos', body=f.read(), method='POST')['id']
        diff = driver.execute_async_script(
            'const done = arguments[arguments.length - 1];'
            'window.studio.comparePreviewWith(%d).then(done, (e) => done({error: e.message}));' % reference)
        print('studio-browser-test: canvas vs lookstudio apply on %dx%d: max %d codes, mean %.3f, %d samples over 2'
              % (diff.get('width', 0), diff.get('height', 0), diff.get('max', -1), diff.get('mean', -1),
                 diff.get('over', -1)))
        if 'error' in diff or diff['max'] > 2:
            fail('canvas differs from lookstudio apply: %r' % diff)

        # Latency on the 2-megapixel photo: slider change -> composed cube -> repainted frame.
        times = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            (async () => {
              await window.studio.selectPhoto(1);
              const s = window.studio.state;
              const input = document.querySelector('.param-shift');
              const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
              // Repainted means the draw has run, not only been queued: reading a pixel waits for the GL commands
              // issued so far; the frame after that shows them.
              const gl = document.getElementById('view').getContext('webgl2');
              const pixel = new Uint8Array(4);
              const finished = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
              const times = [], composes = [];
              // Each move starts from a settled page (the previous frame presented, nothing queued), so a move's
              // figure is its own latency rather than the wait behind the previous move's frame.
              const settle = async () => {
                await frame(); await frame();
                await new Promise((r) => setTimeout(r, 50));
                await frame();
              };
              for (let i = 0; i < 20; i++) {
                await settle();
                const t0 = performance.now();
                input.value = String(-1500 + 150 * i);
                input.dispatchEvent(new Event('input'));
                const wanted = s.version;
                while (s.rendered < wanted) await new Promise((r) => setTimeout(r, 1));
                finished();
                await frame();
                times.push(performance.now() - t0);
                composes.push(s.timing.compose);
              }
              // The WebGL share alone: the same frame drawn again, no compose.
              const draws = [];
              for (let i = 0; i < 20; i++) {
                await settle();
                const t0 = performance.now();
                window.studio.redraw();
                finished();
                await frame();
                draws.push(performance.now() - t0);
              }
              return { times, composes, draws, width: s.width, height: s.height };
            })().then(done, (e) => done({ error: e.message }));""")
        if 'error' in times:
            fail('latency run: ' + times['error'])
        median = statistics.median(times['times'])
        print('studio-browser-test: slider -> repainted %dx%d preview (%.1f MP): median %.1f ms, min %.1f, max %.1f '
              '(20 moves)' % (times['width'], times['height'],
                                                 times['width'] * times['height'] / 1e6, median,
                                                 min(times['times']), max(times['times'])))
        print('studio-browser-test: of which compose request (server compose + transfer of the 33³ float cube): '
              'median %.1f ms; a redraw alone (WebGL draw run, then the next frame): median %.1f ms'
              % (statistics.median(times['composes']), statistics.median(times['draws'])))
        if times['width'] * times['height'] < 2_000_000:
            fail('the latency preview is under 2 megapixels')

        # Save through the page; the catalog has it with its recipe; a reload shows it.
        name = 'Browser Test Warm'
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
        if 'wb.temperature' not in yaml or 'tone.contrast' not in yaml:
            fail('the saved look has no recipe: %r' % record)
        listed = cli('looks', 'list', '--tag', 'studio')
        if name not in listed.stdout:
            fail('looks list --tag studio does not list the look: ' + listed.stdout)
        driver.refresh()
        wait_ready(driver)
        driver.find_element(By.ID, 'search').send_keys('Browser Test')
        cards = [c.text for c in driver.find_elements(By.CSS_SELECTOR, '.look .name')]
        if name not in cards:
            fail('after reload the look list is %r' % cards)
        print('studio-browser-test: saved "%s" (%s) with its recipe; listed after reload' % (name, record['guid']))

        if args.screenshot:
            screenshot(driver, args.screenshot)
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=20)
    if code != 0:
        fail('the studio exited with %d after Ctrl-C' % code)
    # A speed target is reported, not asserted (HELPERS: timings belong in benchmarks; a loaded CI machine is no
    # measure of the page).
    print('studio-browser-test: latency target 100 ms %s' % ('met' if median <= 100 else 'NOT met on this machine'))
    print('studio-browser-test: OK in %.0f s' % (time.time() - started))


def wait_ready(driver):
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        'return window.studio && (window.studio.state.ready || window.studio.state.failed)'))
    failed = driver.execute_script('return window.studio.state.failed')
    if failed:
        fail('the page failed to start: ' + failed)


def move(driver, selector, value):
    """Sets a slider as a drag would (input events) and waits for the repaint of that state."""
    driver.execute_async_script("""
        const [selector, value, done] = arguments;
        const input = document.querySelector(selector);
        input.value = String(value);
        input.dispatchEvent(new Event('input'));
        const s = window.studio.state, wanted = s.version;
        (function poll() { s.rendered >= wanted ? done() : setTimeout(poll, 5); })();""", selector, value)


def screenshot(driver, path):
    """The studio on the shipped photo in split view: two adjustments and a look as steps, correction explained."""
    driver.find_element(By.ID, 'search').clear()
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const st = window.studio;
          await st.selectPhoto(0);
          st.addAdjustment('wb.temperature');
          st.addAdjustment('tone.contrast');
          const look = st.state.looks.find((l) => l.name === 'Browser Test Warm') || st.state.looks[0];
          st.state.steps[0].params.shift = 600;
          st.state.steps[1].params.amount = 0.2;
          st.addLookStep(st.state.looks.find((l) => l.tags.includes('film')) || st.state.looks[0]);
          st.state.steps[2].strength = 60;
          st.renderSteps();
          document.querySelector('.look[data-guid="' + look.guid + '"]').click();
          document.querySelector('[data-mode=split]').click();
          document.getElementById('autoOn').click();
          const started = performance.now();
          while (!document.querySelector('#explain .scene') && performance.now() - started < 60000) {
            await new Promise((r) => setTimeout(r, 100));
          }
          await st.refresh();
          setTimeout(done, 1000);
        })();""")
    driver.save_screenshot(path)
    print('studio-browser-test: screenshot ' + path)


if __name__ == '__main__':
    main()
