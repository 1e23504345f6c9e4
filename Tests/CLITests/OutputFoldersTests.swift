import Foundation
import LookStudioTestSupport
import Testing

/// Single-file outputs (`export`, `generate`, `convert`, `compose`, `apply`) make the folders their `-o` names, as
/// `mkdir -p` would, and a write that fails takes the folders it made away again.
@Suite("output folders")
struct OutputFoldersTests {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test("export --for ocio -o ocio/config.ocio (the help's own example) makes the missing folder")
    func exportMakesItsFolder() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let config = dir + "/deliveries/ocio/config.ocio"
        let exported = try CLI.run(["export", "Warm Film", "--for", "ocio", "-o", config] + catalog)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(Self.exists(config))
        let beside = try FileManager.default.contentsOfDirectory(atPath: dir + "/deliveries/ocio")
        #expect(beside.count >= 2, "the config and its LUT file: \(beside)")
        let cube = try CLI.run(["export", "Warm Film", "-o", dir + "/cubes/teal.cube"] + catalog)
        #expect(cube.status == 0 && Self.exists(dir + "/cubes/teal.cube"), "\(cube.stderr)")
    }

    @Test("generate, convert and compose make the folders -o names")
    func writersMakeTheirFolders() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let generated = try CLI.run(["generate", "--size", "4", "-o", dir + "/a/b/identity.png"])
        #expect(generated.status == 0 && Self.exists(dir + "/a/b/identity.png"), "\(generated.stderr)")
        let converted = try CLI.run(["convert", dir + "/a/b/identity.png", dir + "/c/identity.cube"])
        #expect(converted.status == 0 && Self.exists(dir + "/c/identity.cube"), "\(converted.stderr)")
        try "name: warm\nsize: 9\nsteps:\n  - adjust: tone.exposure\n    params: { stops: 0.3 }\n"
            .write(toFile: dir + "/warm.yaml", atomically: true, encoding: .utf8)
        let composed = try CLI.run(["compose", dir + "/warm.yaml", "-o", dir + "/d/e/warm.cube"])
        #expect(composed.status == 0 && Self.exists(dir + "/d/e/warm.cube"), "\(composed.stderr)")
    }

    @Test("a write that fails leaves none of the folders it made")
    func failedWriteLeavesNoFolder() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let refused = try CLI.run(["generate", "--size", "4", "-o", dir + "/made/here/identity.xyz"])
        #expect(refused.status != 0 && refused.stderr.hasPrefix("error: "), "\(refused.stderr)")
        #expect(!Self.exists(dir + "/made"), "the folders made for the failed write are gone")
        // A file where a folder is needed is named as the cause.
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/plain"))
        let blocked = try CLI.run(["generate", "--size", "4", "-o", dir + "/plain/sub/identity.png"])
        #expect(blocked.status != 0 && blocked.stderr.contains("cannot create the folder \(dir)/plain/sub"),
                "\(blocked.stderr)")
    }
}
