import Foundation
import LookStudioTestSupport
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
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/zero.png", "--lut", lut, "--look-strength", "0",
                             "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/zero.png") == PNGImage.read(path: dir + "/in.png"))
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/full.png", "--lut", lut, "--look-strength", "100",
                         "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["apply", "--lut", lut, dir + "/in.png", dir + "/applied.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let full = try PNGImage.read(path: dir + "/full.png")
        #expect(full == (try PNGImage.read(path: dir + "/applied.png")))
        #expect(full != (try PNGImage.read(path: dir + "/in.png")))
    }

    @Test("--timings names each image's analysis and render seconds, then the run's wall time and peak memory")
    func timingsLines() throws {
        let (dir, lut) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.photo(1), to: dir + "/a.png")
        try PNGImage.write(try Self.photo(2), to: dir + "/b.png")
        let r = try CLI.run(["correct", dir + "/a.png", dir + "/b.png", "-o", dir + "/out", "--lut", lut, "--timings"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("timings: ") }.map(String.init)
        #expect(lines.count == 3, "\(r.stderr)")
        for name in ["a.png", "b.png"] {
            let line = lines.first { $0.contains(name + ": analysis ") }
            let seconds = line.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
            #expect(seconds.count == 2 && seconds.allSatisfy { $0 > 0 && $0 < 60 }, "\(line ?? r.stderr)")
        }
        let peak = lines.last?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(lines.last?.hasPrefix("timings: wall ") == true && peak.count == 2 && peak[1] > 1, "\(r.stderr)")
        let quiet = try CLI.run(["correct", dir + "/a.png", "-o", dir + "/quiet.png", "--lut", lut])
        #expect(quiet.status == 0 && !quiet.stderr.contains("timings:"), "\(quiet.stderr)")
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

    /// Shipped look GUIDs (docs/CATALOG.md): fixed on every install.
    static let cyanotype = "887A3B95-9F89-4605-A509-254B653619FB"

    static func same(_ a: String, _ b: String) throws -> Bool {
        try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b))
    }

    @Test("--look GUID --look-strength 0 after a --recipe equals apply --recipe bit for bit")
    func lookStrengthZeroAfterRecipe() throws {
        let (dir, _) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        try PNGImage.write(try Self.photo(4), to: dir + "/in.png")
        try """
            steps:
              - adjust: tone.exposure
                params: { stops: 0.3 }
              - lut: look.cube
                strength: 60
              - look: Warm Film
                strength: 50
            """.write(toFile: dir + "/pre.yaml", atomically: true, encoding: .utf8)
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/zero.png", "--catalog", catalog,
                             "--recipe", dir + "/pre.yaml", "--look", Self.cyanotype, "--look-strength", "0", "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["apply", "--catalog", catalog, "--recipe", dir + "/pre.yaml", dir + "/in.png",
                         dir + "/pre.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/zero.png") == PNGImage.read(path: dir + "/pre.png"))
        #expect(try PNGImage.read(path: dir + "/zero.png") != PNGImage.read(path: dir + "/in.png"))
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/full.png", "--catalog", catalog,
                         "--recipe", dir + "/pre.yaml", "--look", Self.cyanotype, "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/full.png") != PNGImage.read(path: dir + "/pre.png"))
    }

    @Test("--look GUID at 100 equals apply --look GUID; a name and an 8-character GUID prefix pick the same look")
    func lookByGuidEqualsApply() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        try PNGImage.write(try Self.photo(5), to: dir + "/in.png")
        var r = try CLI.run(["apply", "--catalog", catalog, "--look", Self.cyanotype, dir + "/in.png",
                             dir + "/applied.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let references = [Self.cyanotype, "cyanotype", String(Self.cyanotype.prefix(8)).lowercased()]
        for (i, reference) in references.enumerated() {
            r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/c\(i).png", "--catalog", catalog,
                             "--look", reference, "--look-strength", "100", "--scene", "60", "--auto", "off"])
            #expect(r.status == 0, "\(reference): \(r.stderr)")
            #expect(try Self.same(dir + "/c\(i).png", dir + "/applied.png"), "\(reference)")
        }
        #expect(try PNGImage.read(path: dir + "/applied.png") != PNGImage.read(path: dir + "/in.png"))
    }

    @Test("--scene 100 without --look uses the Black & White scene's default look at its default strength")
    func sceneDefaultLook() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        try PNGImage.write(try Self.photo(6), to: dir + "/in.png")
        var r = try CLI.run(["scenes", "show", "100", "--json", "--catalog", catalog])
        #expect(r.status == 0, "\(r.stderr)")
        let scene = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let guid = try #require(scene?["default_look_guid"] as? String)
        let strength = try #require(scene?["default_look_strength"] as? Int)
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/bw.png", "--catalog", catalog, "--scene", "100",
                         "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = try PNGImage.read(path: dir + "/bw.png")
        guard case .eight(let samples) = out.samples else {
            Issue.record("expected 8-bit output")
            return
        }
        #expect(out.channels == 3)
        var grey = true
        for i in stride(from: 0, to: samples.count, by: 3) where samples[i] != samples[i + 1] || samples[i] != samples[i + 2] {
            grey = false
        }
        #expect(grey)
        #expect(Set(samples).count > 8)
        r = try CLI.run(["apply", "--catalog", catalog, "--look", guid, "--strength", "\(strength)",
                         dir + "/in.png", dir + "/applied.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.same(dir + "/bw.png", dir + "/applied.png"))
    }

    @Test("--look overrides the scene's default look, at 100 rather than the scene's strength")
    func lookOverridesScene() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        try PNGImage.write(try Self.photo(7), to: dir + "/in.png")
        // Landscape's default is Teal & Orange at 35 (docs/CATALOG.md); --look replaces look and strength.
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/c.png", "--catalog", catalog,
                             "--scene", "60", "--look", "Cyanotype", "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["apply", "--catalog", catalog, "--look", Self.cyanotype, dir + "/in.png", dir + "/a.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.same(dir + "/c.png", dir + "/a.png"))
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/d.png", "--catalog", catalog, "--scene", "60",
                         "--auto", "off"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/d.png") != PNGImage.read(path: dir + "/c.png"))
    }

    @Test("an unknown look is an error naming it, and no output file is written")
    func unknownLook() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.photo(8), to: dir + "/in.png")
        let r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--catalog", dir + "/c.sqlite",
                             "--look", "No Such Look"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("No Such Look"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
        let both = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--catalog", dir + "/c.sqlite",
                                "--look", "Cyanotype", "--lut", dir + "/x.cube"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--lut"))
    }

    /// A photo-like image about three stops too dark (its key below any good photo's), with a warm cast: something for the stage to correct.
    static func faulted() throws -> PixelBuffer {
        let width = 64, height = 48
        var s = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let v = Double(x) / Double(width - 1), u = Double(y) / Double(height - 1)
                let rgb = [0.08 * v * 1.3, 0.08 * (0.5 * v + 0.5 * u * v), 0.08 * u * 0.7]
                for c in 0..<3 {
                    let e = rgb[c] <= 0.0031308 ? 12.92 * rgb[c] : 1.055 * pow(rgb[c], 1 / 2.4) - 0.055
                    s[(y * width + x) * 3 + c] = UInt8((min(1, e) * 255).rounded())
                }
            }
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(s))
    }

    @Test("--auto off --no-look returns the input bit for bit, and so do all five strengths at 0")
    func autoOffIsIdentity() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = dir + "/catalog.sqlite"
        try PNGImage.write(try Self.faulted(), to: dir + "/in.png")
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/off.png", "--catalog", catalog,
                             "--auto", "off", "--no-look"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/off.png") == PNGImage.read(path: dir + "/in.png"))
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/zero.png", "--catalog", catalog, "--no-look",
                         "--exposure", "0", "--levels", "0", "--white-balance", "0", "--contrast", "0", "--vibrance", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/zero.png") == PNGImage.read(path: dir + "/in.png"))
        // At 200 % the model's whole estimate is applied, so the stage must change this dark, tinted image.
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/auto.png", "--catalog", catalog, "--no-look",
                         "--explain", "--exposure", "200", "--white-balance", "200"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(path: dir + "/auto.png") != PNGImage.read(path: dir + "/in.png"), "\(r.stdout)")
    }

    @Test("--explain prints the scene, every correction's inputs and amount, and the look; --json carries the plan")
    func explainAndJSON() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.faulted(), to: dir + "/in.png")
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--catalog", dir + "/c.sqlite",
                             "--explain", "--scene", "60"])
        #expect(r.status == 0, "\(r.stderr)")
        for word in ["scene 60", "white balance 100%: model cast log(R/G, B/G)", "→ confidence", "→ applied",
                     "levels 100%: black p0.5", "exposure 100%: key", "model estimate", "contrast 100%",
                     "vibrance 100%", "look: Teal & Orange at 35"] {
            #expect(r.stdout.contains(word), "\(word) missing from \(r.stdout)")
        }
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--catalog", dir + "/c.sqlite",
                         "--json", "--scene", "100", "--white-balance", "50"])
        #expect(r.status == 0, "\(r.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        let auto = try #require(array?.first?["auto"] as? [String: Any])
        let settings = try #require(auto["settings"] as? [String: Any])
        // Black & White's preset switches cast removal off: 0 × 50 % is still 0.
        #expect(settings["white_balance"] as? Double == 0)
        #expect((auto["levels"] as? [String: Any])?["measured_white"] is Double)
        let wb = try #require(auto["white_balance"] as? [String: Any])
        #expect(wb["confidence"] is Double && wb["estimate"] is [String: Any] && wb["amount"] is Double)
        let exposure = try #require(auto["exposure"] as? [String: Any])
        #expect(exposure["estimate"] is Double && exposure["confidence"] is Double && exposure["stops"] is Double)
        #expect(auto["model"] is String)
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--catalog", dir + "/c.sqlite",
                         "--json", "--auto", "off"])
        let off = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        #expect(off?.first?["auto"] is NSNull)
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/o.png", "--exposure", "300"])
        #expect(r.status != 0 && r.stderr.contains("--exposure"))
    }

    @Test("--json reports per image the detected scene, its confidence, the look GUID and the outputs")
    func correctJSON() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["correct", CLI.packageRoot + "/samples/camera.png", "-o", dir + "/out",
                             "--catalog", dir + "/c.sqlite", "--strength", "50,100", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        let item = try #require(array?.first)
        #expect(array?.count == 1)
        #expect(item["scene"] as? Int == 100)
        #expect((item["confidence"] as? Double ?? 0) > 0.5)
        #expect(item["faces"] as? Int == 0)
        #expect(item["look_guid"] as? String == "2DA54C60-1F05-4E56-A1FF-9B21A272704C")
        #expect(item["error"] is NSNull)
        let outputs = try #require(item["outputs"] as? [String])
        #expect(outputs.count == 2)
        #expect(outputs.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }

    @Test("detect --json reports label 100 for the shipped grey camera.png")
    func detectJSON() throws {
        let r = try CLI.run(["detect", CLI.packageRoot + "/samples/camera.png", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(object?["label"] as? Int == 100)
        #expect((object?["statistics"] as? [String: Any])?["chroma_p99"] != nil)
        let correction = object?["correction"] as? [String: Any]
        #expect((correction?["exposure"] as? [String: Any])?["key"] is Double)
        #expect((correction?["white_balance"] as? [String: Any])?["estimate"] is [String: Any])
    }
}
