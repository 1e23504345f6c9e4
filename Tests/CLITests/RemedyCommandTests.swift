import Foundation
import LookStudioTestSupport
import Testing

/// The command line words a failure's remedy as its own option, after the library's message (`Remedy`).
@Suite struct RemedyCommandTests {
    @Test("a file that is no catalog: the message, then the options that choose another")
    func notACatalog() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: dir + "/c.sqlite"))
        let r = try CLI.run(["looks", "list", "--catalog", dir + "/c.sqlite"])
        #expect(r.status == 1 && r.stderr.contains("c.sqlite is not an SQLite database; it was left untouched; point "
                                                   + "--catalog or $LOOKSTUDIO_CATALOG at a catalog file"),
                "\(r.stderr)")
    }

    @Test("the catalog's refusals end with the command that shows what there is, or the option that gets past")
    func catalogPointers() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/c.sqlite"
        let scene = try CLI.run(["scenes", "show", "4242", "--catalog", catalog])
        #expect(scene.status == 1 && scene.stderr.contains("no scene with label 4242 (see `lookstudio scenes list`)"),
                "\(scene.stderr)")
        try Data().write(to: URL(fileURLWithPath: dir + "/taken.sqlite"))
        let recover = try CLI.run(["catalog", "recover", "--catalog", catalog, "--to", dir + "/taken.sqlite"])
        #expect(recover.status != 0 && recover.stderr.contains(
            "taken.sqlite already exists; recovery writes a new catalog, never over a file: give another --to"),
            "\(recover.stderr)")
    }

    @Test("an adjustment id no plugin provides: the ids that are, then the command that lists them with their files")
    func unknownAdjustment() throws {
        let r = try CLI.run(["plugins", "describe", "wb.tempreature"])
        #expect(r.status == 1 && r.stderr.hasPrefix("error: no adjustment \"wb.tempreature\"; did you mean "
                                                    + "\"wb.temperature\"?"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("); `lookstudio plugins list` shows what is installed\n"), "\(r.stderr)")
    }

    @Test("a correction setting out of its range is named by its option, as an argument error")
    func settingByItsOption() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["correct", CLI.fixtures + "/capture/a1.jpg", "-o", dir + "/out.jpg",
                             "--look-strength", "250"])
        #expect(r.status == 64 && r.stderr.hasPrefix("error: --look-strength 250 is out of range: use 0…200"),
                "\(r.stderr)")
    }

    @Test("an image of a batch whose metadata cannot be carried fails with the option that skips it")
    func metadataInABatch() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // EXIF whose TIFF header is broken: the photo decodes, exiv2 refuses its metadata.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLI.fixtures + "/capture/a1.jpg")))
        let exif = try #require(bytes.indices.dropLast(8).first { bytes[$0...($0 + 5)].elementsEqual("Exif\0\0".utf8) })
        bytes[exif + 6] = 0
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/a.jpg"))
        try FileManager.default.copyItem(atPath: CLI.fixtures + "/capture/a2.jpg", toPath: dir + "/b.jpg")
        let r = try CLI.run(["correct", dir + "/a.jpg", dir + "/b.jpg", "-o", dir + "/out", "--no-look"])
        #expect(r.status == 1 && r.stderr.contains("a.jpg: cannot carry metadata (exiv2: ")
                && r.stderr.contains("); --strip-metadata skips it"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out/b.jpg"))
    }
}
