import Foundation

/// Writes the gallery's pages as strings: the index with one card per look, one page per look, and the small
/// scripts that carry preview bytes. Pure text; the caller writes the files.
///
/// Every page inlines the style sheet (`Resources/gallery.css`) and the index inlines the script
/// (`Resources/gallery.js`), so a gallery folder works offline with no other files. Both are compiled in by the
/// EmbedAssets build-tool plugin (Package.swift), so a `lookstudio` copied alone still writes them.
///
/// The script's strength slider computes `before + s·(after − before)` per pixel on a canvas (a Uint8ClampedArray
/// rounds and clamps), which is exactly what the look at strength s does, since strength is linear against the
/// identity cube. Canvas pixels come from data URIs handed over by small per-preview scripts
/// (``previewScript(key:jpeg:)``): a canvas that drew a `file://` image could not be read back without browser flags.
/// `index.html?selftest` runs the script's in-browser self-test.
public enum GalleryPage {
    /// Data embedded in the index for the page script: photos and, per look, what search, sort and the slider need.
    struct PageData: Encodable {
        struct Look: Encodable {
            var id: String
            var guid: String?
            var name: String
            var description: String
            var tags: [String]
            var created: Date?
            var previews: [PreviewRef]
        }
        var photos: [GalleryPhoto]
        var looks: [Look]
    }

    /// The index page: header with search, tag filter and sort; a card per look; the data and the page script.
    public static func index(_ document: GalleryDocument) throws -> String {
        let data = PageData(photos: document.photos, looks: document.looks.map {
            .init(id: $0.info.id, guid: $0.info.guid, name: $0.info.name, description: $0.info.description,
                  tags: $0.info.tags, created: $0.info.createdAt, previews: $0.previews)
        })
        let tags = Set(document.looks.flatMap(\.info.tags)).sorted {
            $0.localizedCaseInsensitiveCompare($1) == .orderedAscending
        }
        var html = head(title: document.title, css: EmbeddedAssets.galleryCSS)
        let noun = document.kind == .looks ? "look" : "step"
        let inOrder = document.kind == .recipeSteps
        let photoNames = document.photos.map(\.name).joined(separator: ", ")
        html += """
            <header class="top">
            <h1>\(HTMLText.text(document.title))</h1>
            <p class="sub">\(document.looks.count) \(noun)\(document.looks.count == 1 ? "" : "s") on \
            \(HTMLText.text(photoNames)) · drag a slider for strength 0–200 %, tick “split” to compare with the \
            original</p>
            <div class="controls">
            <input id="search" type="search" placeholder="Search name, GUID, tag, description" aria-label="Search">
            <select id="tag" aria-label="Tag"><option value="">All tags</option>
            """
        for tag in tags {
            html += "<option value=\"\(HTMLText.attribute(tag))\">\(HTMLText.text(tag))</option>"
        }
        html += """
            </select>
            <select id="sort" aria-label="Sort"><option value="name">Sort by name</option>\
            <option value="date">Newest first</option><option value="original"\(inOrder ? " selected" : "")>\
            \(inOrder ? "Recipe order" : "Original order")</option></select>
            <span id="count"></span>
            </div>
            </header>

            """
        if let report = document.report {
            html += "<section class=\"report\"><h2>Composition</h2><pre>\(HTMLText.text(report))</pre></section>\n"
        }
        html += "<main id=\"cards\">\n"
        for (index, look) in document.looks.enumerated() {
            html += card(look, index: index, photos: document.photos)
        }
        html += "</main>\n"
        html += "<script type=\"application/json\" id=\"gallery-data\">\(try HTMLText.scriptJSON(data))</script>\n"
        html += "<script>\n\(EmbeddedAssets.galleryJS)</script>\n</body>\n</html>\n"
        return html
    }

    static func head(title: String, css: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="lookstudio">
        <title>\(HTMLText.text(title))</title>
        <style>
        \(css)</style>
        </head>
        <body>

        """
    }

    static func card(_ look: GalleryLook, index: Int, photos: [GalleryPhoto]) -> String {
        let info = look.info
        let name = HTMLText.text(info.name)
        var html = "<article class=\"card\" id=\"look-\(HTMLText.attribute(info.id))\" data-index=\"\(index)\">\n"
        html += "<div class=\"views\">"
        for (photo, preview) in zip(photos, look.previews) {
            html += """
                <figure class="view"><div class="frame"><img src="\(HTMLText.attribute(preview.file))" \
                width="\(preview.width)" height="\(preview.height)" alt="\(HTMLText.attribute(info.name)) on \
                \(HTMLText.attribute(photo.name))"><canvas hidden></canvas><div class="divider" hidden></div></div>\
                <figcaption>\(HTMLText.text(photo.name))</figcaption></figure>
                """
        }
        html += "</div>\n"
        html += """
            <div class="sliders"><label>Strength <input type="range" class="strength" min="0" max="200" step="1" \
            value="100" aria-label="Strength of \(HTMLText.attribute(info.name))"></label> \
            <output class="strength-value">100 %</output> \
            <label class="split-label"><input type="checkbox" class="split"> split</label> \
            <input type="range" class="split-pos" min="0" max="100" value="50" hidden aria-label="Split position">\
            </div>

            """
        html += "<h2><a href=\"\(HTMLText.attribute(look.pagePath))\">\(name)</a></h2>\n"
        if let guid = info.guid {
            html += "<p class=\"guid\"><code>\(HTMLText.text(guid))</code> <button type=\"button\" class=\"copy\" "
                + "data-copy=\"\(HTMLText.attribute(guid))\">copy</button></p>\n"
        }
        return html + about(info) + "</article>\n"
    }

    /// The look's tags, description and facts, as its card and its page both show them under the name.
    static func about(_ info: GalleryLookInfo) -> String {
        var html = ""
        if !info.tags.isEmpty {
            html += "<p class=\"tags\">" + info.tags.map { "<span class=\"tag\">\(HTMLText.text($0))</span>" }
                .joined(separator: " ") + "</p>\n"
        }
        if !info.description.isEmpty { html += "<p class=\"desc\">\(HTMLText.text(info.description))</p>\n" }
        return html + "<dl class=\"meta\">" + metaRows(info) + "</dl>\n"
    }

    static func metaRows(_ info: GalleryLookInfo) -> String {
        var rows = [("Cube", "\(info.cubeSize)³")]
        rows.append(("Source", info.source + (info.sourceFile.map { " (\($0))" } ?? "")))
        if let created = info.createdAt { rows.append(("Added", dateText(created))) }
        if !info.scenes.isEmpty {
            rows.append(("Default for", info.scenes.map { "\($0.label) \($0.name) at \($0.strength) %" }
                .joined(separator: ", ")))
        }
        return rows.map { "<dt>\(HTMLText.text($0.0))</dt><dd>\(HTMLText.text($0.1))</dd>" }.joined()
    }

    static func dateText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date) + " UTC"
    }

    /// The page of one look: its previews before and after, grey-axis curves, hue/saturation slices, its recipe.
    public static func lookPage(_ look: GalleryLook, photos: [GalleryPhoto], title: String) -> String {
        let info = look.info
        let up = "../"
        var html = head(title: "\(info.name) — \(title)", css: EmbeddedAssets.galleryCSS)
        html += "<header class=\"top\"><p><a href=\"../index.html#look-\(HTMLText.attribute(info.id))\">← "
            + "\(HTMLText.text(title))</a></p>\n<h1>\(HTMLText.text(info.name))</h1>\n"
        if let guid = info.guid { html += "<p class=\"guid\"><code>\(HTMLText.text(guid))</code></p>\n" }
        html += about(info) + "</header>\n<main class=\"look\">\n"
        html += "<section><h2>On the photos (before, after)</h2><div class=\"pairs\">"
        for (photo, preview) in zip(photos, look.previews) {
            html += """
                <figure><img src="\(up)\(HTMLText.attribute(photo.before.file))" width="\(photo.before.width)" \
                height="\(photo.before.height)" alt="\(HTMLText.attribute(photo.name))"><img \
                src="\(up)\(HTMLText.attribute(preview.file))" width="\(preview.width)" height="\(preview.height)" \
                alt="\(HTMLText.attribute(info.name)) on \(HTMLText.attribute(photo.name))">\
                <figcaption>\(HTMLText.text(photo.name))</figcaption></figure>
                """
        }
        html += "</div></section>\n"
        html += "<section><h2>Grey axis</h2><p>What the cube does to each channel of a neutral grey input: the "
            + "dashed diagonal is no change; above it a channel is raised, below it lowered.</p>\n"
            + curvesSVG(look.curves) + "</section>\n"
        if !look.slices.isEmpty {
            html += "<section><h2>Hue × saturation</h2><p>Each pair is a slice of colour space at one HSV value: "
                + "hue across (red, yellow, green, cyan, blue, magenta), saturation from full at the top to grey at "
                + "the bottom; left the input colours, right the same colours through the cube.</p>\n"
                + "<div class=\"slices\">"
            for slice in look.slices {
                let percent = Int((slice.value * 100).rounded())
                html += """
                    <figure><img src="\(up)\(HTMLText.attribute(slice.beforeFile))" alt="input at value \(percent) %">\
                    <img src="\(up)\(HTMLText.attribute(slice.afterFile))" alt="through the cube at value \
                    \(percent) %"><figcaption>value \(percent) %</figcaption></figure>
                    """
            }
            html += "</div></section>\n"
        }
        if let yaml = info.recipeYAML {
            html += "<section><h2>Recipe</h2><pre class=\"recipe\">\(HTMLText.text(yaml))</pre></section>\n"
        }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    /// The grey-axis curves as an inline SVG plot: one polyline per channel over a grid and the identity diagonal.
    public static func curvesSVG(_ curves: GreyCurves) -> String {
        let side = 256.0
        func points(_ values: [Double]) -> String {
            zip(curves.inputs, values).map { x, v in
                let y = side - min(max(v, 0), 1) * side
                return String(format: "%.1f,%.1f", x * side, y)
            }.joined(separator: " ")
        }
        var svg = "<svg class=\"curves\" viewBox=\"-8 -8 272 272\" width=\"272\" height=\"272\" "
            + "role=\"img\" aria-label=\"grey-axis curves\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<rect x=\"0\" y=\"0\" width=\"256\" height=\"256\" fill=\"#1b1b1d\" stroke=\"#555\"/>"
        for k in 1..<4 {
            let p = Double(k) * 64
            svg += "<line x1=\"\(Int(p))\" y1=\"0\" x2=\"\(Int(p))\" y2=\"256\" stroke=\"#333\"/>"
            svg += "<line x1=\"0\" y1=\"\(Int(p))\" x2=\"256\" y2=\"\(Int(p))\" stroke=\"#333\"/>"
        }
        svg += "<line x1=\"0\" y1=\"256\" x2=\"256\" y2=\"0\" stroke=\"#888\" stroke-dasharray=\"4 4\"/>"
        for (values, colour, name) in [(curves.red, "#ff5050", "red"), (curves.green, "#50e050", "green"),
                                       (curves.blue, "#5a8cff", "blue")] {
            svg += "<polyline class=\"\(name)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" "
                + "points=\"\(points(values))\"/>"
        }
        return svg + "</svg>\n"
    }

    /// The script file that hands one preview's bytes to the page (see ``PreviewRef``).
    public static func previewScript(key: String, jpeg: Data) throws -> String {
        "LookGallery.register(\(try HTMLText.scriptString(key)),\"data:image/jpeg;base64,"
            + jpeg.base64EncodedString() + "\");\n"
    }

    /// `id` reduced to characters safe in a file name on any system (letters, digits, `-`, `_`).
    public static func fileSafe(_ id: String) -> String {
        String(id.unicodeScalars.map { c -> Character in
            CharacterSet.alphanumerics.contains(c) && c.isASCII || c == "-" || c == "_" ? Character(c) : "_"
        })
    }
}
