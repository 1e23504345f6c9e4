import Foundation
import LookStudioTestSupport
import ImageIO
import LookCore
import Testing

/// An output that cannot be written (a path under a regular file, /proc, a full disk) is an `error:` line naming
/// the path and the reason, exit 1, and no file or temporary file left — for every format and every command that
/// writes images. Tests run as root, so a read-only folder would still be writable: a path under a file stands in.
@Suite struct WriteFailureTests {
    static let chart = CLI.fixtures + "/reference/chart.png"
    static let lut = CLI.fixtures + "/reference/warm17.cube"
    static let formats = ["png", "jpg", "tif", "webp", "heic"]

    /// A folder holding one regular file, `file.txt`, whose path cannot be a folder.
    static func folderWithFile() throws -> String {
        let dir = try CLI.tempDir()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: dir + "/file.txt"))
        return dir
    }

    static func expectCleanFailure(_ r: CLI.Result, output: String, dir: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(r.status == 1, "exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("error: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(output), "the error names the output: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("crashed") && !r.stderr.contains("Fatal error"), "\(r.stderr)",
                sourceLocation: sourceLocation)
        #expect(try DiskFullTests.entries(dir) == ["file.txt"], "nothing left behind", sourceLocation: sourceLocation)
    }

    @Test("apply to a path under a regular file: an error naming it, nothing left", arguments: formats)
    func applyUnderFile(ext: String) throws {
        let dir = try Self.folderWithFile()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = dir + "/file.txt/o." + ext
        let r = try CLI.run(["apply", "--lut", Self.lut, Self.chart, output])
        try Self.expectCleanFailure(r, output: output, dir: dir)
        #expect(r.stderr.contains("Not a directory"), "the reason: \(r.stderr)")
    }

    // A missing folder is made as `mkdir -p` would (OutputFoldersTests); one that cannot be made, under /proc, fails.
    @Test("apply to /proc and to a folder that cannot be made: an error, no crash", arguments: ["png", "jpg", "tif"])
    func applyProcAndMissing(ext: String) throws {
        for output in ["/proc/o." + ext, "/proc/nonexistent-lookstudio-dir/o." + ext] {
            let r = try CLI.run(["apply", "--lut", Self.lut, Self.chart, output])
            #expect(r.status == 1, "\(output): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(output), "\(r.stderr)")
            #expect(!r.stderr.contains("crashed"), "\(r.stderr)")
        }
    }

    @Test("apply on a full disk: an error with the system's reason, no file or temporary file",
          arguments: formats)
    func applyFullDisk(ext: String) throws {
        if ext == "heic" { try #require(HEIFImage.canEncode(.heif), "libheif here has an HEVC encoder") }
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = dir + "/o." + ext
        // One block of 512 bytes: every encoding of the 256×256 chart is larger.
        let r = try DiskFullTests.runLimited(blocks: 1, ["apply", "--lut", Self.lut, Self.chart, output])
        #expect(r.status == 1, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(output), "\(r.stderr)")
        #expect(r.stderr.contains("File too large"), "\(r.stderr)")
        #expect(try DiskFullTests.entries(dir) == [], "no partial output or temporary file")
    }

    @Test("correct, contact-sheet and detect --overlay to a path under a regular file: an error, nothing left",
          arguments: [
              ["correct", "IN", "-o", "OUT/x.png", "--lut", "LUT"],
              ["correct", "IN", "-o", "OUT/x.jpg", "--lut", "LUT"],
              ["contact-sheet", "IN", "IN", "-o", "OUT/sheet.png"],
              ["contact-sheet", "IN", "-o", "OUT/sheet.jpg"],
              ["detect", "IN", "--overlay", "OUT/faces.png"],
          ])
    func otherCommands(template: [String]) throws {
        let dir = try Self.folderWithFile()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let arguments = template.map {
            $0.replacingOccurrences(of: "LUT", with: Self.lut).replacingOccurrences(of: "IN", with: Self.chart)
                .replacingOccurrences(of: "OUT", with: dir + "/file.txt")
        }
        let output = try #require(arguments.first { $0.hasPrefix(dir) })
        let r = try CLI.run(arguments, environment: ["LOOKSTUDIO_CATALOG": dir + "/catalog.sqlite"])
        #expect(r.status == 1, "\(arguments): exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("error: ") && r.stderr.contains(output), "\(r.stderr)")
        #expect(!r.stderr.contains("crashed"), "\(r.stderr)")
        let left = try DiskFullTests.entries(dir).filter { !$0.hasPrefix("catalog.sqlite") }
        #expect(left == ["file.txt"], "nothing left behind")
    }
}

/// `apply` never writes over its input, however the output names it.
@Suite struct ApplyOverwriteTests {
    @Test("apply refuses an output that is the input, a symlink or a hard link to it; the input is unchanged")
    func refusesInput() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.png"
        try FileManager.default.copyItem(atPath: WriteFailureTests.chart, toPath: input)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: dir + "/hard.png")
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        for output in [input, dir + "/link.png", dir + "/hard.png"] {
            let r = try CLI.run(["apply", "--lut", WriteFailureTests.lut, input, output])
            #expect(r.status == 1, "\(output): \(r.stderr)")
            #expect(r.stderr.hasPrefix("error: refusing to write \(output)"), "\(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original, "the input is untouched")
        #expect(try DiskFullTests.entries(dir) == ["hard.png", "in.png", "link.png"])
    }
}

/// `apply --quality`, and a JPEG input's own quality kept by default.
@Suite struct ApplyQualityTests {
    @Test("a JPEG output keeps a JPEG input's quality; --quality overrides it; out of range is refused")
    func quality() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = try ImageFormat.read(path: WriteFailureTests.chart).pixels
        try JPEGImage.write(source, to: dir + "/in.jpg", quality: 96)
        let lut = WriteFailureTests.lut
        #expect(try CLI.run(["apply", "--lut", lut, dir + "/in.jpg", dir + "/kept.jpg"]).status == 0)
        #expect(JPEGQuality.estimate(path: dir + "/kept.jpg") == 96)
        #expect(try CLI.run(["apply", "--lut", lut, "--quality", "70", dir + "/in.jpg", dir + "/q70.jpg"]).status == 0)
        #expect(JPEGQuality.estimate(path: dir + "/q70.jpg") == 70)
        #expect(try CLI.run(["apply", "--lut", lut, WriteFailureTests.chart, dir + "/png.jpg"]).status == 0)
        #expect(JPEGQuality.estimate(path: dir + "/png.jpg") == EncoderOptions.defaultQuality)
        let bad = try CLI.run(["apply", "--lut", lut, "--quality", "0", dir + "/in.jpg", dir + "/bad.jpg"])
        #expect(bad.status != 0 && bad.stderr.contains("--quality 0 is out of range"), "\(bad.stderr)")
        let smaller = try CLI.run(["apply", "--lut", lut, "--quality", "30", dir + "/in.jpg", dir + "/q30.webp"])
        #expect(smaller.status == 0)
        let larger = try CLI.run(["apply", "--lut", lut, "--quality", "95", dir + "/in.jpg", dir + "/q95.webp"])
        #expect(larger.status == 0)
        let size = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }
        #expect(size(dir + "/q30.webp") < size(dir + "/q95.webp"), "--quality reaches the WebP encoder")
    }
}

/// `apply` carries the input's metadata, fixed, and honours --strip-gps and --strip-metadata.
@Suite struct ApplyMetadataTests {
    static func tags(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-j", "-n", "-G1", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a rotated, tagged JPEG: apply keeps Artist and GPS, writes orientation 1; the strip options drop them")
    func metadata() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.jpg"
        try JPEGImage.write(try ImageFormat.read(path: WriteFailureTests.chart).pixels, to: input)
        let tag = Process()
        tag.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        tag.arguments = ["-q", "-overwrite_original", "-Artist=Ann", "-Orientation#=6", "-GPSLatitude=10",
                         "-GPSLatitudeRef=N", input]
        try tag.run()
        tag.waitUntilExit()
        try #require(tag.terminationStatus == 0)
        let lut = WriteFailureTests.lut
        #expect(try CLI.run(["apply", "--lut", lut, input, dir + "/kept.jpg"]).status == 0)
        let kept = try Self.tags(dir + "/kept.jpg")
        #expect(kept.contains("\"IFD0:Artist\": \"Ann\"") && kept.contains("\"GPS:GPSLatitude\": 10"), "\(kept)")
        #expect(kept.contains("\"IFD0:Orientation\": 1") && kept.contains("\"IFD0:Software\": \"LookStudio\""))
        #expect(try CLI.run(["apply", "--lut", lut, "--strip-gps", input, dir + "/nogps.tif"]).status == 0)
        let noGPS = try Self.tags(dir + "/nogps.tif")
        #expect(noGPS.contains("\"IFD0:Artist\": \"Ann\"") && !noGPS.contains("GPSLatitude"), "\(noGPS)")
        #expect(try CLI.run(["apply", "--lut", lut, "--strip-metadata", input, dir + "/none.png"]).status == 0)
        let none = try Self.tags(dir + "/none.png")
        #expect(!none.contains("Artist") && !none.contains("GPSLatitude"), "\(none)")
    }
}

/// A child's two pipes are drained together, so one that fills standard error before closing standard output
/// (a chatty failure) cannot stall the caller.
@Suite struct PipeReadingTests {
    @Test func bothPipesAreReadAtOnce() throws {
        // 300 kB on stderr before anything on stdout: more than a pipe holds, so reading stdout first would wait
        // for ever on a child blocked writing stderr.
        let (process, out, err) = try CLI.start(["-c", "head -c 300000 /dev/zero >&2; echo done"], command: "/bin/sh")
        let (stdout, stderr) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: stdout, as: UTF8.self) == "done\n")
        #expect(stderr.count == 300_000)
    }
}

/// JPEG → JPEG keeps the input's chroma sampling; `--subsampling` chooses it.
@Suite struct ApplySubsamplingTests {
    static func sampling(_ path: String) throws -> JPEGSubsampling? {
        try JPEGReader(path: path, maxPixels: .max).compression.flatMap(JPEGSubsampling.init)
    }

    /// Mean CIEDE2000 between two 8-bit RGB pictures of one size.
    static func meanDeltaE(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard case .eight(let x) = a.samples, case .eight(let y) = b.samples, x.count == y.count, !x.isEmpty else {
            return .infinity
        }
        let n = x.count / a.channels
        var sum = 0.0
        for i in 0..<n {
            func lab(_ s: [UInt8]) -> SIMD3<Double> {
                ColorScience.lab(fromSRGB: SIMD3(Double(s[i * a.channels]), Double(s[i * a.channels + 1]),
                                                 Double(s[i * a.channels + 2])) / 255)
            }
            sum += ColorScience.deltaE2000(lab(x), lab(y))
        }
        return sum / Double(n)
    }

    @Test("strength 0 on a 4:4:4 JPEG writes 4:4:4 at its quality, within 0.1 ΔE00 mean of the input")
    func keepsTheInputsSampling() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try ImageFormat.read(path: CLI.packageRoot + "/samples/coffee.png").pixels
        try JPEGImage.write(photo, to: dir + "/in.jpg", quality: 70, subsampling: .s444)
        #expect(try Self.sampling(dir + "/in.jpg") == .s444)
        let r = try CLI.run(["apply", "--lut", WriteFailureTests.lut, "--strength", "0", dir + "/in.jpg",
                             dir + "/out.jpg"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.sampling(dir + "/out.jpg") == .s444)
        #expect(JPEGQuality.estimate(path: dir + "/out.jpg") == 70)
        let before = try ImageFormat.read(path: dir + "/in.jpg").pixels
        let after = try ImageFormat.read(path: dir + "/out.jpg").pixels
        let moved = Self.meanDeltaE(before, after)
        #expect(moved <= 0.1, "strength 0 moved the JPEG by \(moved) ΔE00 mean")
    }

    @Test("--subsampling 420, 422 and 444 are written as asked; a PNG input gets the quality rule")
    func chosenSampling() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try ImageFormat.read(path: CLI.packageRoot + "/samples/coffee.png").pixels
        try JPEGImage.write(photo, to: dir + "/in.jpg", quality: 95, subsampling: .s444)
        for choice in JPEGSubsampling.allCases {
            let out = dir + "/out\(choice.rawValue).jpg"
            let r = try CLI.run(["apply", "--lut", WriteFailureTests.lut, "--subsampling", choice.rawValue,
                                 dir + "/in.jpg", out])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try Self.sampling(out) == choice)
        }
        let fromPNG = try CLI.run(["apply", "--lut", WriteFailureTests.lut, CLI.packageRoot + "/samples/coffee.png",
                                   dir + "/png.jpg"])
        #expect(fromPNG.status == 0)
        #expect(try Self.sampling(dir + "/png.jpg") == (EncoderOptions.defaultQuality >= 90 ? .s444 : .s420))
        let bad = try CLI.run(["apply", "--lut", WriteFailureTests.lut, "--subsampling", "411", dir + "/in.jpg",
                               dir + "/bad.jpg"])
        #expect(bad.status != 0 && bad.stderr.contains("411"))
    }
}
