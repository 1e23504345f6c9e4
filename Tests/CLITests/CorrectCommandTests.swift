import Foundation
import ImageIO
import LookCore
import LookFormats
import Testing

@Suite struct CorrectCommandTests {
    static let look = try! ColorCube(size: 17) { c in SIMD3(c.x * c.x, 0.7 * c.y + 0.2, 1 - c.z) }

    static func photo(_ seed: Int, width: Int = 48, height: Int = 32) throws -> PixelBuffer {
        var s = [UInt8](repeating: 0, count: width * height * 3)
        for i in s.indices { s[i] = UInt8(truncatingIfNeeded: (i / 3 % width) * 4 + (i / 3 / width) * 3 + (i % 3) * 50 + seed * 11) }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(s))
    }

    /// A temporary folder with `look.cube` written, removed by the caller.
    static func setUp() throws -> (dir: String, lut: String) {
        let dir = try CLI.tempDir()
        let lut = dir + "/look.cube"
        _ = try LUTFormat.write(LUT(cube: look), to: lut)
        return (dir, lut)
    }

    @Test("--look-strength 0 returns the pre-look result bit for bit; 100 equals applying the look")
    func lookStrengthEnds() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.photo(1), to: dir + "/in.png")
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/zero.png", "--lut", lut, "--look-strength", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/zero.png") == PNGImage.read(path: dir + "/in.png"))
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/full.png", "--lut", lut, "--look-strength", "100"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["apply", "--lut", lut, dir + "/in.png", dir + "/applied.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let full = try PNGImage.read(path: dir + "/full.png")
        #expect(full == (try PNGImage.read(path: dir + "/applied.png")))
        #expect(full != (try PNGImage.read(path: dir + "/in.png")))
    }

    @Test("a folder of 20 images (PNG and JPEG, one corrupt): 19 outputs, the corrupt one named, exit 1, no partials")
    func folderWithOneCorrupt() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in", output = dir + "/out"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for i in 0..<19 {
            let name = String(format: "img%02d", i)
            if i % 2 == 0 {
                try PNGImage.write(try Self.photo(i), to: "\(input)/\(name).png")
            } else {
                try JPEGImage.write(try Self.photo(i), to: "\(input)/\(name).jpg")
            }
        }
        let good = try PNGImage.encode(try Self.photo(99, width: 400, height: 300))
        try Data(good.prefix(good.count / 2)).write(to: URL(fileURLWithPath: input + "/broken.png"))
        let r = try CLI.run(["correct", input, "-o", output, "--lut", lut, "--jobs", "3"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("broken.png"))
        #expect(r.stderr.contains("19 of 20 images corrected, 1 failed"))
        let written = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(written.count == 19)
        #expect(!written.contains { $0.hasPrefix(".") || $0.contains("broken") })
        #expect(written.filter { $0.hasSuffix(".jpg") }.count == 9)
        let decoded = try JPEGImage.read(path: output + "/img01.jpg")
        #expect(decoded.pixels.width == 48)
    }

    @Test("--strength 40,70,100 writes one file per strength from one analysis, named -sN")
    func severalStrengths() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.photo(3), to: dir + "/photo.png")
        let r = try CLI.run(["correct", dir + "/photo.png", "-o", dir + "/out", "--lut", lut,
                             "--strength", "40,70,100"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(names == ["photo-s100.png", "photo-s40.png", "photo-s70.png"])
        let s40 = try PNGImage.read(path: dir + "/out/photo-s40.png")
        let s100 = try PNGImage.read(path: dir + "/out/photo-s100.png")
        #expect(s40 != s100)
    }

    @Test("bad flags are refused before any work, naming the flag")
    func validation() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.photo(3), to: dir + "/photo.png")
        for args in [["--strength", "40,x"], ["--strength", "120"], ["--look-contrast", "-150"], ["--scene", "42"]] {
            let r = try CLI.run(["correct", dir + "/photo.png", "-o", dir + "/o.png", "--lut", lut] + args)
            #expect(r.status != 0)
            #expect(r.stderr.contains(args[0]), "\(args): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }

    @Test("detect --json reports label 100 for the shipped grey camera.png")
    func detectJSON() throws {
        let r = try CLI.run(["detect", CLI.packageRoot + "/samples/camera.png", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(object?["label"] as? Int == 100)
        #expect((object?["statistics"] as? [String: Any])?["chroma_p99"] != nil)
    }
}
