import Foundation
import Testing
@testable import LookGallery

/// A document whose strings try every way out of their context: element text, attributes, script JSON.
private func hostileDocument() -> GalleryDocument {
    let preview = PreviewRef(key: "p-1", file: "previews/p-1.jpg", script: "previews/p-1.js", width: 4, height: 3)
    let before = PreviewRef(key: "b-1", file: "previews/b-1.jpg", script: "previews/b-1.js", width: 4, height: 3)
    let info = GalleryLookInfo(
        id: "ABC-1", guid: "ABC-1", name: "</script><script>alert('name')</script>",
        description: "<!-- <script>alert(\"desc\")</script> & more", tags: ["\"><img src=x onerror=alert(1)>", "warm"],
        cubeSize: 16, source: "png", sourceFile: "<b>.png", createdAt: Date(timeIntervalSince1970: 1_700_000_000),
        scenes: [GalleryScene(label: 57, name: "Animals <i>", strength: 80)], recipeYAML: "name: </pre><script>x</script>")
    let curves = GreyCurves(inputs: [0, 0.5, 1], red: [0, 0.5, 1], green: [0, 0.5, 1], blue: [0, 0.5, 1])
    let look = GalleryLook(info: info, previews: [preview], curves: curves,
                           slices: [CubeSlice(value: 0.5, beforeFile: "cubes/slice-v50.png", afterFile: "cubes/c-v50.png")])
    return GalleryDocument(title: "Gallery <script>", photos: [GalleryPhoto(name: "<photo>.png", before: before)],
                           looks: [look], report: "recipe </pre><script>alert(2)</script>")
}

private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

/// The JSON between `<script type="application/json" id="gallery-data">` and `</script>`.
private func embeddedJSON(_ html: String) throws -> [String: Any] {
    let open = "<script type=\"application/json\" id=\"gallery-data\">"
    let start = try #require(html.range(of: open))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let json = String(html[start.upperBound..<end.lowerBound])
    return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
}

@Suite("Gallery pages")
struct GalleryPageTests {
    @Test("a <script> in a look's name, tags, description, recipe or report stays text")
    func hostileStringsStayText() throws {
        let html = try GalleryPage.index(hostileDocument())
        // Exactly the page's own two script elements: the JSON data and the page script.
        #expect(occurrences(of: "<script", in: html) == 2)
        #expect(occurrences(of: "</script", in: html) == 2)
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<!-- <script"))
        #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"))
        #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert('name')&lt;/script&gt;"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("<title>Gallery &lt;script&gt;</title>"))
    }

    @Test("the embedded JSON escapes < and still parses back to the exact strings")
    func jsonRoundTrips() throws {
        let html = try GalleryPage.index(hostileDocument())
        let data = try embeddedJSON(html)
        let looks = try #require(data["looks"] as? [[String: Any]])
        #expect(looks.first?["name"] as? String == "</script><script>alert('name')</script>")
        #expect(looks.first?["tags"] as? [String] == ["\"><img src=x onerror=alert(1)>", "warm"])
        #expect(looks.first?["created"] as? String == "2023-11-14T22:13:20Z")
        #expect(html.contains("\\u003c/script\\u003e"))
    }

    @Test("a look's page shows hostile strings as text and has no script at all")
    func lookPageEscapes() throws {
        let document = hostileDocument()
        let html = GalleryPage.lookPage(document.looks[0], photos: document.photos, title: document.title)
        #expect(occurrences(of: "<script", in: html) == 0)
        #expect(html.contains("<pre class=\"recipe\">name: &lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;</pre>"))
        #expect(html.contains("57 Animals &lt;i&gt; at 80 %"))
        #expect(html.contains("src=\"../previews/p-1.jpg\""))
    }

    @Test("the same document gives the same bytes")
    func stableOutput() throws {
        #expect(try GalleryPage.index(hostileDocument()) == GalleryPage.index(hostileDocument()))
        let a = hostileDocument()
        #expect(GalleryPage.lookPage(a.looks[0], photos: a.photos, title: "t")
                == GalleryPage.lookPage(a.looks[0], photos: a.photos, title: "t"))
    }

    @Test("one card per look, with its GUID, copy button, cube size, scenes and a link to its page")
    func cardContents() throws {
        let html = try GalleryPage.index(hostileDocument())
        #expect(occurrences(of: "<article class=\"card\"", in: html) == 1)
        #expect(html.contains("<code>ABC-1</code> <button type=\"button\" class=\"copy\" data-copy=\"ABC-1\">"))
        #expect(html.contains("<dd>16³</dd>"))
        #expect(html.contains("href=\"looks/ABC-1.html\""))
        #expect(html.contains("class=\"strength\" min=\"0\" max=\"200\""))
    }

    @Test("identity curves run along the diagonal of the plot")
    func identityCurves() {
        let svg = GalleryPage.curvesSVG(GreyCurves(inputs: [0, 1], red: [0, 1], green: [0, 1], blue: [0, 1]))
        #expect(occurrences(of: "points=\"0.0,256.0 256.0,0.0\"", in: svg) == 3)
        // Outputs outside 0…1 are drawn at the frame, not outside it.
        let clipped = GalleryPage.curvesSVG(GreyCurves(inputs: [0, 1], red: [-1, 2], green: [0, 1], blue: [0, 1]))
        #expect(clipped.contains("class=\"red\" fill=\"none\" stroke=\"#ff5050\" stroke-width=\"2\" points=\"0.0,256.0 256.0,0.0\""))
    }

    @Test("a preview script registers its key with a JPEG data URI")
    func previewScript() throws {
        let script = try GalleryPage.previewScript(key: "p-</script>", jpeg: Data([0xFF, 0xD8, 0xFF]))
        #expect(script == "LookGallery.register(\"p-\\u003c/script\\u003e\",\"data:image/jpeg;base64,/9j/\");\n")
    }

    @Test("every page inlines the style sheet and the index the script: Sources/LookGallery/Resources, byte for byte")
    func assetsAreTheResourceFiles() throws {
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Sources/LookGallery/Resources")
        let css = try String(contentsOf: resources.appending(path: "gallery.css"), encoding: .utf8)
        let js = try String(contentsOf: resources.appending(path: "gallery.js"), encoding: .utf8)
        let document = hostileDocument()
        let index = try GalleryPage.index(document)
        #expect(index.contains("<style>\n\(css)</style>\n</head>"))
        #expect(index.hasSuffix("<script>\n\(js)</script>\n</body>\n</html>\n"))
        let page = GalleryPage.lookPage(document.looks[0], photos: document.photos, title: document.title)
        #expect(page.contains("<style>\n\(css)</style>\n</head>"))
    }

    @Test("ids become file names of letters, digits, - and _ only")
    func fileSafeNames() {
        #expect(GalleryPage.fileSafe("3F2A-BC_9") == "3F2A-BC_9")
        #expect(GalleryPage.fileSafe("../é x/") == "_____x_")
    }
}
