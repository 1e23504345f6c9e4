import Foundation
import LookStudioTestSupport
import Testing
@testable import Studio

/// The page, script and style sheet the studio serves are Sources/Studio/Resources, byte for byte, from the binary
/// alone.
@Suite(.serialized) struct StudioPageTests {
    static let resources = CLI.packageRoot + "/Sources/Studio/Resources/"
    static let files = [("/", "studio.html"), ("/studio.js", "studio.js"), ("/studio.css", "studio.css")]

    @Test func theEmbeddedPageScriptAndStyleSheetAreTheResourceFiles() throws {
        #expect(StudioPage.html == (try String(contentsOfFile: Self.resources + "studio.html", encoding: .utf8)))
        #expect(StudioScript.js == (try String(contentsOfFile: Self.resources + "studio.js", encoding: .utf8)))
        #expect(StudioStyle.css == (try String(contentsOfFile: Self.resources + "studio.css", encoding: .utf8)))
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
