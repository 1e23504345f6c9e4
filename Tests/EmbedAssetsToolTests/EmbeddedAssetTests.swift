import Foundation
import Testing
@testable import EmbedAssetsTool

@Suite("embedded assets")
struct EmbeddedAssetTests {
    @Test("a file's name becomes its constant: the stem in camel case, the extension in capitals")
    func names() {
        #expect(EmbeddedAsset.identifier(forFile: "studio.js") == "studioJS")
        #expect(EmbeddedAsset.identifier(forFile: "gallery-grid.min.css") == "galleryGridMinCSS")
        #expect(EmbeddedAsset.identifier(forFile: "Page.html") == "pageHTML")
        #expect(EmbeddedAsset.identifier(forFile: "Makefile") == "makefile")
        #expect(EmbeddedAsset.identifier(forFile: "2d.js") == nil)
        #expect(EmbeddedAsset.identifier(forFile: "page.j-s") == nil)
    }

    @Test("the delimiter has more # than follow any quote or backslash in the text")
    func delimiter() {
        #expect(EmbeddedAsset.hashCount(for: "plain text") == 1)
        #expect(EmbeddedAsset.hashCount(for: "a \"quote\" and \\n") == 1)
        #expect(EmbeddedAsset.hashCount(for: "ends with a quote\"") == 1)
        #expect(EmbeddedAsset.hashCount(for: "\"\"\"#") == 2)
        #expect(EmbeddedAsset.hashCount(for: "\\#(x) and \"##") == 3)
        #expect(EmbeddedAsset.hashCount(for: "### # no quote before them") == 1)
    }

    @Test("the generated constant is the text between a raw delimiter pair, with the closing one first on its line")
    func source() throws {
        let text = "\"\"\"#\n  \\#(x)\n"
        let asset = try EmbeddedAsset(path: "/r/page.js", bytes: Data(text.utf8))
        let source = try EmbeddedAsset.swiftSource([asset])
        #expect(source.contains("    static let pageJS: String = ##\"\"\"\n\(text)\n\"\"\"##\n"))
        #expect(source.hasSuffix("}\n"))
    }

    @Test("text a literal would change or refuse is refused, naming the file and line")
    func refusals() {
        #expect(throws: EmbedError.controlCharacter(path: "a.js", line: 2, value: 13)) {
            try EmbeddedAsset(path: "a.js", bytes: Data("one\ntwo\r\n".utf8))
        }
        #expect(throws: EmbedError.controlCharacter(path: "a.js", line: 1, value: 0)) {
            try EmbeddedAsset(path: "a.js", bytes: Data([0x61, 0x00]))
        }
        #expect(throws: EmbedError.notUTF8(path: "a.js")) {
            try EmbeddedAsset(path: "a.js", bytes: Data([0x61, 0xFF]))
        }
        #expect(throws: EmbedError.badName(path: "/r/1.js")) { try EmbeddedAsset(path: "/r/1.js", bytes: Data()) }
        #expect(throws: EmbedError.sameName("pageJS", paths: ["/a/page.js", "/a/page_.js"])) {
            try EmbeddedAsset.swiftSource([EmbeddedAsset(path: "/a/page.js", bytes: Data()),
                                           EmbeddedAsset(path: "/a/page_.js", bytes: Data())])
        }
        #expect(String(describing: EmbedError.controlCharacter(path: "a.js", line: 2, value: 13))
            == "a.js line 2: control character U+D (use LF line breaks and no control characters other than tab)")
    }
}
