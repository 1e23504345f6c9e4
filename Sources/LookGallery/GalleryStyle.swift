/// The pages' style sheet, inlined in every page so a gallery folder works offline with no other files.
///
/// Kept as a Swift string rather than a SwiftPM resource: a resource bundle on Linux is a folder found beside the
/// executable at run time, which a copied or installed `lookstudio` loses; a string constant cannot go missing.
enum GalleryStyle {
    static let css = """
        :root { color-scheme: dark; --bg: #141416; --card: #1f1f23; --line: #34343a; --text: #e8e8ea;
          --dim: #a0a0a8; --accent: #7fb2ff; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text);
          font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        a { color: var(--accent); }
        header.top { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); }
        h1 { margin: 0 0 4px; font-size: 22px; }
        .sub { margin: 0 0 10px; color: var(--dim); }
        .controls { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
        .controls input, .controls select { background: var(--card); color: var(--text); border: 1px solid var(--line);
          border-radius: 6px; padding: 6px 8px; font: inherit; }
        #search { min-width: 280px; }
        #count { color: var(--dim); }
        .report { margin: 16px 24px; }
        .report pre, pre.recipe { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
          padding: 12px; overflow: auto; font-size: 12px; }
        main#cards { display: grid; gap: 16px; padding: 16px 24px 32px;
          grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px; }
        .card[hidden] { display: none; }
        .views { display: flex; gap: 8px; }
        .view { margin: 0; flex: 1 1 0; min-width: 0; }
        .frame { position: relative; }
        .view img, .view canvas { display: block; width: 100%; height: auto; border-radius: 4px; }
        .view img[hidden], .view canvas[hidden] { display: none; }
        .divider { position: absolute; top: 0; bottom: 0; width: 2px; margin-left: -1px; background: #fff;
          box-shadow: 0 0 3px #000; pointer-events: none; }
        .divider[hidden] { display: none; }
        figcaption { color: var(--dim); font-size: 12px; margin-top: 2px; overflow: hidden; text-overflow: ellipsis;
          white-space: nowrap; }
        .sliders { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 8px 0 4px; }
        .sliders .strength { width: 180px; vertical-align: middle; }
        .sliders output { min-width: 48px; font-variant-numeric: tabular-nums; }
        .card h2 { font-size: 17px; margin: 6px 0 2px; }
        .card h2 a { color: var(--text); text-decoration: none; }
        .card h2 a:hover { text-decoration: underline; }
        .guid code { font-size: 12px; color: var(--dim); }
        .guid { margin: 0 0 4px; }
        button.copy { background: none; border: 1px solid var(--line); color: var(--dim); border-radius: 4px;
          font-size: 11px; padding: 1px 6px; cursor: pointer; }
        .tags { margin: 4px 0; }
        .tag { display: inline-block; background: #2c3546; color: #cfe0ff; border-radius: 10px; padding: 0 8px;
          font-size: 12px; }
        .desc { margin: 4px 0; }
        dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0 10px; margin: 6px 0 0;
          font-size: 12px; color: var(--dim); }
        dl.meta dt { font-weight: 600; }
        dl.meta dd { margin: 0; }
        main.look { padding: 8px 24px 32px; max-width: 1100px; }
        .pairs figure { margin: 0 0 12px; }
        .pairs img { max-width: 40%; height: auto; margin-right: 1%; border-radius: 4px; }
        .slices { display: flex; flex-wrap: wrap; gap: 16px; }
        .slices figure { margin: 0; }
        .slices img { width: 180px; height: auto; image-rendering: pixelated; margin-right: 4px; }
        svg.curves { background: var(--card); border-radius: 8px; }

        """
}
