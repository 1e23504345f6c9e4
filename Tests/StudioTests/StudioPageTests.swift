import Foundation
import LookStudioTestSupport
import Testing
@testable import Studio

/// The page, script and style sheet the studio serves are Sources/Studio/Resources, byte for byte, from the binary
/// alone.
@Suite(.serialized) struct StudioPageTests {
    static let resources = CLI.packageRoot + "/Sources/Studio/Resources/"
    static let files = [("/", "studio.html"), ("/studio.css", "studio.css")]
        + StudioScript.files.map { ($0.path, String($0.path.dropFirst())) }

    @Test func theEmbeddedPageScriptsAndStyleSheetAreTheResourceFiles() throws {
        #expect(StudioPage.html == (try String(contentsOfFile: Self.resources + "studio.html", encoding: .utf8)))
        #expect(StudioScript.js == (try String(contentsOfFile: Self.resources + "studio.js", encoding: .utf8)))
        #expect(StudioStyle.css == (try String(contentsOfFile: Self.resources + "studio.css", encoding: .utf8)))
        for (path, text) in StudioScript.files {
            #expect(text == (try String(contentsOfFile: Self.resources + path.dropFirst(), encoding: .utf8)), "\(path)")
        }
    }

    /// Every script the page loads is served, and every script in Resources is one the page loads: a file added
    /// without its route (or its `<script>` tag) would break the page only in a browser.
    @Test func thePageLoadsEveryScriptItServesInOrder() throws {
        let html = StudioPage.html
        let loaded = html.components(separatedBy: "<script src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(loaded == StudioScript.files.map(\.path))
        let scripts = try FileManager.default.contentsOfDirectory(atPath: Self.resources).filter { $0.hasSuffix(".js") }
        #expect(Set(scripts.map { "/" + $0 }) == Set(StudioScript.files.map(\.path)))
    }

    @Test func aBinaryCopiedAloneServesTheResourceFiles() throws {
        let folder = NSTemporaryDirectory() + "lookstudio-alone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: CLI.binary, toPath: folder + "/lookstudio")
        // The seed for the test's new catalog: a copied binary finds none beside it.
        var environment = ProcessInfo.processInfo.environment
        environment["LOOKSTUDIO_SEED_DIR"] = CLI.packageRoot
        let studio = try StudioProcess(photos: [CLI.packageRoot + "/samples/coffee.png"],
                                       binary: folder + "/lookstudio", environment: environment)
        for (target, file) in Self.files {
            let reply = try studio.request(target)
            #expect(reply.status == 200, "\(target)")
            #expect(reply.body == Array(try Data(contentsOf: URL(fileURLWithPath: Self.resources + file))), "\(target)")
        }
        #expect(studio.interrupt() == 0)
    }
}
