import Foundation
import LookStudioTestSupport
import Testing

/// Outputs that are an input, or a link to a device, refused by `convert`, `compose`, `detect` and `export` as `apply`
/// refuses them: before, each wrote a temporary file and renamed it over the input or the link.
@Suite struct OutputSafetyCommandTests {
    private static let lut = CLI.fixtures + "/reference/warm33.cube"
    private static let chart = CLI.fixtures + "/reference/chart.png"

    /// A temporary folder holding a copy of the warm cube as `in.cube` and `full.cube`/`full.png` linked to /dev/full.
    private static func folder() throws -> String {
        let dir = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: lut, toPath: dir + "/in.cube")
        for name in ["full.cube", "full.png"] {
            try FileManager.default.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: "/dev/full")
        }
        return dir
    }

    private static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The run failed with the refusal, and `link` still points at /dev/full.
    private static func expectLinkKept(_ r: CLI.Result, _ link: String) throws {
        #expect(r.status == 1, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: refusing to write \(link): it is a symlink to /dev/full"), "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/full")
    }

    @Test func convertRefusesToWriteOverItsInput() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = try Self.bytes(dir + "/in.cube")
        let same = try CLI.run(["convert", dir + "/in.cube", dir + "/in.cube", "--size", "4"])
        #expect(same.status == 1)
        #expect(same.stderr.hasPrefix("error: refusing to write \(dir)/in.cube: it is the input"), "\(same.stderr)")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.cube", withDestinationPath: dir + "/in.cube")
        let linked = try CLI.run(["convert", dir + "/in.cube", dir + "/link.cube", "--size", "4"])
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("refusing to write \(dir)/link.cube"), "\(linked.stderr)")
        #expect(try Self.bytes(dir + "/in.cube") == before)
        try Self.expectLinkKept(try CLI.run(["convert", dir + "/in.cube", dir + "/full.cube"]), dir + "/full.cube")
    }

    @Test func composeRefusesToWriteOverTheRecipeOrALUTItReads() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recipe = dir + "/r.yaml"
        try "size: 4\nsteps:\n  - lut: in.cube\n".write(toFile: recipe, atomically: true, encoding: .utf8)
        let before = try Self.bytes(dir + "/in.cube")
        let overLUT = try CLI.run(["compose", recipe, "-o", dir + "/in.cube"])
        #expect(overLUT.status == 1)
        #expect(overLUT.stderr.hasPrefix("error: refusing to write \(dir)/in.cube: it is the input"),
                "\(overLUT.stderr)")
        #expect(try Self.bytes(dir + "/in.cube") == before)
        let overRecipe = try CLI.run(["compose", recipe, "-o", recipe])
        #expect(overRecipe.status == 1, "\(overRecipe.stderr)")
        #expect(try String(contentsOfFile: recipe, encoding: .utf8).hasPrefix("size: 4"))
        try Self.expectLinkKept(try CLI.run(["compose", recipe, "-o", dir + "/full.cube"]), dir + "/full.cube")
        let applied = try CLI.run(["apply", "--recipe", recipe, Self.chart, dir + "/in.cube"])
        #expect(applied.status == 1 && applied.stderr.contains("refusing to write"), "\(applied.stderr)")
        #expect(try Self.bytes(dir + "/in.cube") == before)
    }

    @Test func detectRefusesAnOverlayOverItsInput() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.chart, toPath: dir + "/photo.png")
        let before = try Self.bytes(dir + "/photo.png")
        let r = try CLI.run(["detect", dir + "/photo.png", "--overlay", dir + "/photo.png"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: refusing to write \(dir)/photo.png: it is the input"), "\(r.stderr)")
        #expect(try Self.bytes(dir + "/photo.png") == before)
        try Self.expectLinkKept(try CLI.run(["detect", dir + "/photo.png", "--overlay", dir + "/full.png"]),
                                dir + "/full.png")
    }

    @Test func exportRefusesALinkToADeviceAndTheCatalog() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        for target in [[], ["--for", "resolve"], ["--for", "lightroom"]] {
            try Self.expectLinkKept(try CLI.run(["export", "Warm Film", "-o", dir + "/full.cube"] + target + catalog),
                                    dir + "/full.cube")
        }
        #expect(try CLI.run(["export", "Warm Film", "-o", dir + "/warm.cube"] + catalog).status == 0)
        let overCatalog = try CLI.run(["export", "Warm Film", "--for", "resolve", "-o", dir + "/c.sqlite"] + catalog)
        #expect(overCatalog.status == 1)
        #expect(overCatalog.stderr.hasPrefix("error: refusing to write \(dir)/c.sqlite: it is the input"),
                "\(overCatalog.stderr)")
        #expect(try Self.bytes(dir + "/c.sqlite").starts(with: Array("SQLite format 3".utf8)))
    }
}
