/// The studio's page (`Resources/studio.html`), served apart from its script and style sheet so the
/// Content-Security-Policy can refuse inline scripts. The files are compiled in by the EmbedAssets build-tool
/// plugin (Package.swift), so a `lookstudio` copied alone still serves them.
enum StudioPage {
    static let html = EmbeddedAssets.studioHTML
}

/// The page's scripts. `studio.js`: API calls with the token header, the recipe editor, and the WebGL2 preview that
/// applies the server's composed 33³ cube with tetrahedral interpolation (LookCore's `CubeSampler`), so a slider move
/// fetches 431 kB of cube and re-renders, never sending pixels. Before it, in this order: `studio-math.js` (the
/// Grade plugin's curve and hue maths, the vectorscope plane), `studio-controls.js` (sliders, colours, wheels,
/// choices), `studio-curves.js` (the curve editor), `studio-scopes.js` (histogram, waveform, parade, vectorscope).
enum StudioScript {
    static let js = EmbeddedAssets.studioJS
    /// Every script the page loads: its path on the server and its text, in studio.html's order.
    static let files: [(path: String, text: String)] = [
        ("/studio-math.js", EmbeddedAssets.studioMathJS),
        ("/studio-controls.js", EmbeddedAssets.studioControlsJS),
        ("/studio-curves.js", EmbeddedAssets.studioCurvesJS),
        ("/studio-scopes.js", EmbeddedAssets.studioScopesJS),
        ("/studio.js", EmbeddedAssets.studioJS),
    ]
}

/// The page's style sheet (`Resources/studio.css`): a dark, neutral grey surround so colours are judged fairly.
enum StudioStyle {
    static let css = EmbeddedAssets.studioCSS
}
