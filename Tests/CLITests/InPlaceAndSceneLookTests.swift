import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

/// `--in-place` (apply and correct) and the rule that only a confident scene paints its default look.
@Suite struct InPlaceAndSceneLookTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("apply --in-place replaces the input, keeps NAME.orig.EXT byte for byte, and never overwrites a backup")
    func applyInPlace() throws {
        let (dir, lut) = try CorrectCommandTests.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try CorrectCommandTests.photo(3), to: dir + "/p.png")
        let original = try Self.bytes(dir + "/p.png")
        var r = try CLI.run(["apply", "--lut", lut, dir + "/p.png", dir + "/p.png"])
        #expect(r.status == 1 && r.stderr.contains("refusing to write"), "still refused without --in-place")
        r = try CLI.run(["apply", "--lut", lut, dir + "/p.png", dir + "/expected.png"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["apply", "--lut", lut, "--in-place", dir + "/p.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the original is kept as \(dir)/p.orig.png"))
        #expect(try Self.bytes(dir + "/p.orig.png") == original)
        #expect(try PNGImage.read(path: dir + "/p.png") == PNGImage.read(path: dir + "/expected.png"))
        let graded = try Self.bytes(dir + "/p.png")
        r = try CLI.run(["apply", "--lut", lut, "--in-place", dir + "/p.png"])
        #expect(r.status == 1 && r.stderr.contains("p.orig.png exists"), "\(r.stderr)")
        #expect(try Self.bytes(dir + "/p.png") == graded, "a refused run changes nothing")
        #expect(try Self.bytes(dir + "/p.orig.png") == original)
        r = try CLI.run(["apply", "--lut", lut, "--in-place", "--no-backup", dir + "/p.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.bytes(dir + "/p.png") != graded, "graded a second time")
        #expect(try Self.bytes(dir + "/p.orig.png") == original)
        r = try CLI.run(["apply", "--lut", lut, "--no-backup", dir + "/p.png", dir + "/q.png"])
        #expect(r.status != 0 && r.stderr.contains("--no-backup only goes with --in-place"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/q.png"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    @Test("correct --in-place over a folder replaces each image, keeps backups, and a rerun leaves backups alone")
    func correctInPlace() throws {
        let (dir, lut) = try CorrectCommandTests.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folder = dir + "/shoot"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var originals: [String: Data] = [:]
        for i in 0..<3 {
            try PNGImage.write(try CorrectCommandTests.photo(i), to: folder + "/i\(i).png")
            originals["i\(i)"] = try Self.bytes(folder + "/i\(i).png")
        }
        var r = try CLI.run(["correct", folder, "-o", folder, "--lut", lut, "--auto", "off"])
        #expect(r.status == 1 && r.stderr.contains("refusing to write"), "still refused without --in-place")
        r = try CLI.run(["correct", folder, "--in-place", "--lut", lut, "--auto", "off", "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("3 images corrected"), "\(r.stderr)")
        for (name, data) in originals {
            #expect(try Self.bytes(folder + "/\(name).orig.png") == data)
            #expect(try Self.bytes(folder + "/\(name).png") != data)
        }
        // Backups are not inputs of a folder run; existing backups make each image fail rather than be replaced.
        r = try CLI.run(["correct", folder, "--in-place", "--lut", lut, "--auto", "off"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("0 of 3 images corrected, 3 failed"), "\(r.stderr)")
        for (name, data) in originals { #expect(try Self.bytes(folder + "/\(name).orig.png") == data) }
        r = try CLI.run(["correct", folder, "--in-place", "--no-backup", "--lut", lut, "--auto", "off"])
        #expect(r.status == 0 && r.stderr.contains("3 images corrected"), "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["i0.orig.png", "i0.png", "i1.orig.png", "i1.png", "i2.orig.png", "i2.png"])
        r = try CLI.run(["correct", folder, "--in-place", "--strength", "40,80", "--lut", lut])
        #expect(r.status != 0 && r.stderr.contains("one --strength"), "\(r.stderr)")
    }

    @Test("the fallback scene applies no creative look unless --scene-looks; --scene LABEL and --look still do")
    func fallbackSceneNoLook() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/catalog.sqlite"]
        try PNGImage.write(try CorrectCommandTests.photo(7), to: dir + "/in.png")
        func run(_ extra: [String]) throws -> [String: Any] {
            let r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--auto", "off", "--json"]
                                + catalog + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
            return try #require(array?.first)
        }
        let guessed = try run([])
        #expect(guessed["scene"] as? Int == 60)
        let confidence = try #require(guessed["confidence"] as? Double)
        #expect(confidence < 0.75, "the fallback's confidence")
        #expect(guessed["look_name"] is NSNull, "a guess paints no look: \(guessed)")
        #expect(try PNGImage.read(path: dir + "/out.png") == PNGImage.read(path: dir + "/in.png"))
        let asked = try run(["--scene-looks"])
        #expect(asked["look_name"] as? String == "Teal & Orange")
        #expect(asked["look_strength"] as? Double == 35)
        let given = try run(["--scene", "60"])
        #expect(given["look_name"] as? String == "Teal & Orange", "a scene the user gives is not a guess")
        let explicit = try run(["--look", "Cyanotype"])
        #expect(explicit["look_name"] as? String == "Cyanotype")
        let r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--auto", "off"] + catalog)
        #expect(r.stderr.contains("no look (scene look Teal & Orange not applied: detection confidence"),
                "the progress line says why: \(r.stderr)")
    }
}
