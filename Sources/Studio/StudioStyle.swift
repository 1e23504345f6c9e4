/// The studio page's stylesheet: a dark, neutral grey surround so colours are judged fairly.
enum StudioStyle {
    static let css = """
    :root { --bg: #2b2b2b; --panel: #333; --line: #474747; --text: #e8e8e8; --dim: #a8a8a8; --accent: #5aa9ff; }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.4 system-ui, sans-serif; }
    header { display: flex; align-items: center; justify-content: space-between; padding: 8px 16px;
             border-bottom: 1px solid var(--line); }
    h1 { font-size: 18px; margin: 0; } h1 span { color: var(--accent); font-weight: 400; }
    h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: var(--dim); margin: 4px 0 8px; }
    h3 { font-size: 13px; margin: 12px 0 6px; color: var(--dim); font-weight: 500; }
    h3 span { color: var(--text); }
    main { display: grid; grid-template-columns: 250px minmax(0, 1fr) 350px; height: calc(100vh - 45px); }
    aside { overflow-y: auto; overflow-x: hidden; padding: 12px; background: var(--panel); min-width: 0; }
    #left { border-right: 1px solid var(--line); } #right { border-left: 1px solid var(--line); }
    section { margin-bottom: 18px; }
    #center { display: flex; flex-direction: column; padding: 12px; margin: 0; min-width: 0; }
    .viewbar { display: flex; gap: 16px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
    .modes button.on { background: var(--accent); color: #111; }
    .strength { display: flex; align-items: center; gap: 8px; }
    #stage { position: relative; flex: 1; display: flex; align-items: center; justify-content: center; min-height: 0; }
    #view { max-width: 100%; max-height: 100%; background: #222; cursor: col-resize; }
    #splitLine { position: absolute; top: 0; bottom: 0; width: 2px; background: #fff; pointer-events: none;
                 box-shadow: 0 0 3px #000; }
    button, select, input { font: inherit; color: var(--text); background: #444; border: 1px solid #5a5a5a;
                            border-radius: 4px; padding: 4px 8px; }
    button:hover { border-color: var(--accent); } button.primary { background: var(--accent); color: #111; }
    input[type=range] { padding: 0; accent-color: var(--accent); }
    input[type=search], #lookName, #lookTags { width: 100%; margin-bottom: 6px; }
    .thumbs { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 6px; }
    .thumbs img { width: 100%; aspect-ratio: 1; object-fit: cover; border: 2px solid transparent; border-radius: 3px;
                  cursor: pointer; }
    .thumbs img.on { border-color: var(--accent); }
    .drop { display: block; margin-top: 8px; padding: 10px; border: 1px dashed #666; border-radius: 4px;
            color: var(--dim); font-size: 12px; }
    .drop.over { border-color: var(--accent); color: var(--text); }
    .drop input { width: 100%; margin-top: 4px; font-size: 12px; }
    .looks { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; margin-top: 6px; }
    .look { position: relative; background: #3a3a3a; border: 2px solid transparent; border-radius: 4px; padding: 3px;
            cursor: pointer; }
    .look.on { border-color: var(--accent); }
    .look img { width: 100%; aspect-ratio: 3/2; object-fit: cover; display: block; border-radius: 2px; }
    .look .name { font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .look .tags { font-size: 11px; color: var(--dim); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .look button { position: absolute; top: 5px; right: 5px; padding: 0 6px; font-size: 13px; font-weight: 700; }
    .add { display: flex; gap: 6px; } .add select { flex: 1; min-width: 0; }
    .steps { list-style: none; padding: 0; margin: 10px 0 0; }
    .step { background: #3a3a3a; border-radius: 4px; padding: 8px; margin-bottom: 8px; }
    .step.off { opacity: .5; }
    .step .head { display: flex; align-items: center; gap: 6px; }
    .step .head .title { flex: 1; font-weight: 600; }
    .step .head button { padding: 0 6px; }
    .param { display: grid; grid-template-columns: 84px minmax(0, 1fr) 58px; gap: 6px; align-items: center;
             margin-top: 6px; }
    .param label { font-size: 12px; color: var(--dim); }
    .param output { font-size: 12px; text-align: right; font-variant-numeric: tabular-nums; }
    .hint { color: var(--dim); font-size: 12px; }
    .explain { font-size: 12px; color: var(--dim); }
    .explain .row { display: flex; justify-content: space-between; align-items: center; }
    .explain .scene { color: var(--text); margin: 6px 0; }
    .buttons { display: flex; gap: 6px; margin-bottom: 6px; flex-wrap: wrap; } .buttons select { flex: 1; }
    .error { color: #ff8080; }
    #status { color: var(--dim); font-size: 12px; }
    """
}
