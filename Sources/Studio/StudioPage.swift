/// The studio's page: markup only; behaviour in ``StudioScript``, looks in ``StudioStyle`` (served as files, so the
/// Content-Security-Policy can refuse inline scripts).
enum StudioPage {
    static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>LookStudio — studio</title>
    <link rel="stylesheet" href="/studio.css">
    </head>
    <body>
    <header>
      <h1>LookStudio <span>studio</span></h1>
      <div id="status" role="status">loading…</div>
    </header>
    <main>
      <aside id="left">
        <section>
          <h2>Photos</h2>
          <div id="photos" class="thumbs"></div>
          <label id="drop" class="drop">Drop a photo here or <input id="file" type="file" accept="image/*"></label>
        </section>
        <section>
          <h2>Looks</h2>
          <input id="search" type="search" placeholder="Search name or tag">
          <div id="looks" class="looks"></div>
        </section>
      </aside>
      <section id="center">
        <div class="viewbar">
          <div class="modes" role="group" aria-label="Compare">
            <button data-mode="after" class="on">After</button>
            <button data-mode="split">Split</button>
            <button data-mode="side">Side by side</button>
            <button data-mode="before">Before</button>
          </div>
          <label class="strength">Strength <input id="strength" type="range" min="0" max="200" step="1" value="100">
            <output id="strengthOut">100 %</output></label>
        </div>
        <div id="stage"><canvas id="view"></canvas><div id="splitLine" hidden></div></div>
        <div id="glError" class="error" hidden></div>
      </section>
      <aside id="right">
        <section>
          <h2>Recipe</h2>
          <div class="add">
            <select id="adjustment" aria-label="Adjustment"></select>
            <button id="addAdjustment">Add</button>
          </div>
          <ol id="steps" class="steps"></ol>
          <p class="hint" id="emptyHint">Add an adjustment, or a look from the list (+ on its card).</p>
        </section>
        <section>
          <h2>Automatic correction</h2>
          <label class="switch"><input id="autoOn" type="checkbox"> correct the photo first</label>
          <div id="explain" class="explain"></div>
        </section>
        <section>
          <h2>Save</h2>
          <input id="lookName" placeholder="Look name">
          <input id="lookTags" placeholder="Tags, comma separated">
          <div class="buttons">
            <button id="save" class="primary">Save as new look</button>
            <button id="saveVersion" title="Replace the selected look's cube and recipe">Save as new version</button>
          </div>
          <h3>Selected look <span id="selectedName">—</span></h3>
          <div class="buttons">
            <button id="rename">Rename</button>
            <button id="tag">Set tags</button>
          </div>
          <div class="buttons">
            <select id="scene" aria-label="Scene"></select>
            <button id="sceneDefault">Set as scene default</button>
          </div>
          <div class="buttons">
            <select id="exportFormat" aria-label="Export format">
              <option value="cube">.cube</option><option value="3dl">.3dl</option>
              <option value="png">.png (16-bit)</option>
            </select>
            <button id="export">Export</button>
          </div>
        </section>
      </aside>
    </main>
    <script src="/studio.js"></script>
    </body>
    </html>
    """
}
