import ColorManagement
import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

/// `info`, `import --space`, `looks show` and `apply --output-profile`, run as a user would.
@Suite struct ColorCommandTests {
    static func p3Image(_ path: String) throws {
        let p3 = ColorProfile(.displayP3)
        let samples = (0..<(40 * 30 * 3)).map { UInt8(truncatingIfNeeded: ($0 * 37) % 251) }
        try PNGImage.write(try PixelBuffer(width: 40, height: 30, channels: 3, samples: .eight(samples)), to: path,
                           colorMetadata: PNGColorMetadata(iccProfile: .init(name: "Display P3", data: p3.data)))
    }

    @Test("info prints format, size, depth and colour space; --json has the documented keys")
    func info() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.p3Image("\(dir)/p3.png")
        let text = try CLI.run(["info", "\(dir)/p3.png"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("40×30, RGB, 8-bit") && text.stdout.contains("read as:     Display P3"))
        let json = try CLI.run(["info", "--json", "\(dir)/p3.png"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["color_space"] as? String == "Display P3")
        #expect(object?["format"] as? String == "png" && object?["depth"] as? Int == 8)
        #expect(Set(object?.keys.map { $0 } ?? []) == ["file", "format", "width", "height", "color_type",
                                                        "stored_depth", "channels", "depth", "color_description",
                                                        "color_space", "icc_bytes", "orientation", "warning"])
        #expect(object?["color_type"] as? String == "RGB" && object?["stored_depth"] as? Int == 8)
    }

    @Test("info names a grey PNG's colour type and bit depth as stored, not the RGB it is read as")
    func infoGrey() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A 5×2 16-bit grey PNG: IHDR colour type 0, each row a filter byte and five two-byte samples.
        let rows = Array((0..<2).map { _ in [0] + [UInt8](repeating: 0x80, count: 10) }.joined())
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + HostilePNG.chunk("IHDR", HostilePNG.be32(5) + HostilePNG.be32(2) + [16, 0, 0, 0, 0])
            + HostilePNG.chunk("IDAT", HostilePNG.zlibStored(rows)) + HostilePNG.chunk("IEND", [])
        try HostilePNG.write(png, to: dir + "/grey.png")
        let text = try CLI.run(["info", dir + "/grey.png"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("size:        5×2, grey, 16-bit\n"), "\(text.stdout)")
        let json = try CLI.run(["info", "--json", dir + "/grey.png"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["color_type"] as? String == "grey" && object?["stored_depth"] as? Int == 16)
        #expect(object?["channels"] as? Int == 3 && object?["depth"] as? Int == 16)
    }

    @Test("info on a LUT file says it is one and which command describes it")
    func infoOnALUT() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "LUT_3D_SIZE 2\n".write(toFile: dir + "/look.cube", atomically: true, encoding: .utf8)
        let result = try CLI.run(["info", dir + "/look.cube"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("look.cube is a LUT file, not an image: `lookstudio inspect "), "\(result.stderr)")
        // A missing file is still reported as missing.
        let missing = try CLI.run(["info", dir + "/none.cube"])
        #expect(missing.status == 1 && missing.stderr.contains("none.cube: cannot open (no such file)"))
    }

    @Test("import --space stores the working space; looks show prints it and --json has working_space")
    func importSpace() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(r) \(g) \(b)\n" } } }
        try cube.write(toFile: "\(dir)/id.cube", atomically: true, encoding: .utf8)
        let catalog = ["--catalog", "\(dir)/cat.sqlite"]
        let imported = try CLI.run(["import"] + catalog + ["\(dir)/id.cube", "--space", "display-p3", "--name", "P3 id"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = try CLI.run(["looks", "show"] + catalog + ["P3 id"])
        #expect(shown.stdout.contains("working space: Display P3"))
        let json = try CLI.run(["looks", "show"] + catalog + ["P3 id", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["working_space"] as? String == "display-p3")
        // A look authored in Display P3, applied to a Display P3 image, is applied to its codes unconverted.
        try Self.p3Image("\(dir)/in.png")
        let applied = try CLI.run(["apply"] + catalog + ["--look", "P3 id", "\(dir)/in.png", "\(dir)/out.png"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try PNGImage.read(path: "\(dir)/out.png") == (try PNGImage.read(path: "\(dir)/in.png")))
    }

    @Test("apply --output-profile srgb writes an sRGB-tagged PNG; a bad --output-profile file fails with no output")
    func outputProfile() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.p3Image("\(dir)/in.png")
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(r) \(g) \(b)\n" } } }
        try cube.write(toFile: "\(dir)/id.cube", atomically: true, encoding: .utf8)
        let ok = try CLI.run(["apply", "--lut", "\(dir)/id.cube", "--output-profile", "srgb", "\(dir)/in.png",
                              "\(dir)/out.png"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try PNGReader(path: "\(dir)/out.png").colorMetadata == PNGColorMetadata(srgbIntent: .perceptual))
        try Data(repeating: 9, count: 300).write(to: URL(fileURLWithPath: "\(dir)/bad.icc"))
        let bad = try CLI.run(["apply", "--lut", "\(dir)/id.cube", "--output-profile", "\(dir)/bad.icc",
                               "\(dir)/in.png", "\(dir)/bad-out.png"])
        #expect(bad.status != 0)
        #expect(bad.stderr.hasPrefix("error: \(dir)/bad.icc: "))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/bad-out.png"))
        // A folder is named as one, not as a missing file.
        let folder = try CLI.run(["apply", "--lut", "\(dir)/id.cube", "--output-profile", dir, "\(dir)/in.png",
                                  "\(dir)/f-out.png"])
        #expect(folder.status != 0 && folder.stderr.contains("it is a folder, not an ICC file"), "\(folder.stderr)")
    }

    @Test("convert names how far clamped values reach, and import suggests --name for a file name that is no name")
    func clampReachAndUnusableFileNames() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(Double(r) * 1.3) \(g) \(b)\n" } } }
        try cube.write(toFile: "\(dir)/hot.cube", atomically: true, encoding: .utf8)
        let converted = try CLI.run(["convert", "\(dir)/hot.cube", "\(dir)/hot.png"])
        #expect(converted.status == 0)
        #expect(converted.stderr.contains("4 values outside 0…1 (up to 1.3) were clamped"), "\(converted.stderr)")
        try cube.write(toFile: "\(dir)/12345678.cube", atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", "\(dir)/12345678.cube", "--catalog", "\(dir)/c.sqlite"])
        #expect(imported.status == 1 && imported.stderr.contains("give one with --name"), "\(imported.stderr)")
    }
}

@Suite struct FormatCommandTests {
    @Test("apply reads and writes TIFF and WebP by signature and extension; a truncated TIFF fails with no output")
    func formats() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ColorCommandTests.p3Image("\(dir)/in.png")
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(r) \(g) \(b)\n" } } }
        try cube.write(toFile: "\(dir)/id.cube", atomically: true, encoding: .utf8)
        let tif = try CLI.run(["apply", "--lut", "\(dir)/id.cube", "--tiff-compression", "deflate", "\(dir)/in.png",
                               "\(dir)/out.tif"])
        #expect(tif.status == 0, "\(tif.stderr)")
        #expect(try TIFFReader(path: "\(dir)/out.tif").compression == .deflate)
        // An identity look leaves even colours outside sRGB alone: the lossless WebP holds the input's codes.
        let webp = try CLI.run(["apply", "--lut", "\(dir)/id.cube", "--webp-lossless", "\(dir)/out.tif",
                                "\(dir)/out.webp"])
        #expect(webp.status == 0, "\(webp.stderr)")
        #expect(try ImageFormat.readImage(path: "\(dir)/out.webp").pixels == (try PNGImage.read(path: "\(dir)/in.png")))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/out.tif"))
        // Cut inside the strips: libtiff writes the directory (and the ICC profile) after them.
        try bytes.prefix(40).write(to: URL(fileURLWithPath: "\(dir)/cut.tif"))
        let cut = try CLI.run(["apply", "--lut", "\(dir)/id.cube", "\(dir)/cut.tif", "\(dir)/cut-out.png"])
        #expect(cut.status != 0)
        #expect(cut.stderr.hasPrefix("error: \(dir)/cut.tif: "))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/cut-out.png"))
    }

    @Test("correct picks TIFF, WebP and HEIC up in a folder and writes each in its own format")
    func correctFolder() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        try ColorCommandTests.p3Image("\(dir)/p3.png")
        let image = try PNGImage.read(path: "\(dir)/p3.png")
        for ext in ["tif", "webp", "heic"] {
            try ImageFormat.write(image, to: "\(dir)/in/photo-\(ext).\(ext)", color: ColorDescription())
        }
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(r) \(g) \(b)\n" } } }
        try cube.write(toFile: "\(dir)/id.cube", atomically: true, encoding: .utf8)
        let r = try CLI.run(["correct", "\(dir)/in", "-o", "\(dir)/out", "--lut", "\(dir)/id.cube", "--scene", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        for ext in ["tif", "webp", "heic"] {
            #expect(try ImageFormat.of(path: "\(dir)/out/photo-\(ext).\(ext)").extensions.contains(ext))
        }
    }
}
