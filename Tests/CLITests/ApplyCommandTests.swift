import Foundation
import LookStudioTestSupport
import ImageIO
import LookCore
import LookFormats
import Testing

@Suite struct ApplyCommandTests {
    struct Case: Decodable { var lut: String; var image: String; var interp: String; var expected: String }
    struct Cases: Decodable { var cases: [Case] }

    static func samples8(_ image: PixelBuffer) -> [UInt8] {
        if case .eight(let s) = image.samples { return s }
        return []
    }

    @Test("every reference case matches colour-science within 1 code, rounding to nearest (mean ≤ 0.05 codes)")
    func referenceAccuracy() throws {
        let fixtures = CLI.fixtures
        let reference = fixtures + "/reference"
        let cases = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: URL(fileURLWithPath: reference + "/cases.json")))
        #expect(cases.cases.count >= 6)
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for c in cases.cases {
            let out = "\(dir)/\(c.expected)"
            let result = try CLI.run(["apply", "--lut", "\(reference)/\(c.lut)", "--interp", c.interp,
                                      "\(reference)/\(c.image)", out])
            #expect(result.status == 0, "\(c.lut): \(result.stderr)")
            let got = Self.samples8(try PNGImage.read(path: out))
            let expected = Self.samples8(try PNGImage.read(path: "\(reference)/\(c.expected)"))
            #expect(got.count == expected.count && !got.isEmpty)
            var worst = 0, sum = 0
            for i in 0..<min(got.count, expected.count) {
                let d = abs(Int(got[i]) - Int(expected[i]))
                worst = max(worst, d)
                sum += d
            }
            let mean = Double(sum) / Double(max(1, got.count))
            #expect(worst <= 1, "\(c.lut) \(c.interp): max error \(worst) codes")
            #expect(mean <= 0.05, "\(c.lut) \(c.interp): mean error \(mean) codes")
        }
    }

    @Test("strength 0 gives the input bit for bit; 100 gives the LUT's result; the default is 100")
    func strength() throws {
        let fixtures = CLI.fixtures
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let chart = fixtures + "/reference/chart.png"
        let lut = fixtures + "/reference/warm17.cube"
        try CLI.run(["apply", "--lut", lut, "--strength", "0", chart, "\(dir)/s0.png"])
        #expect(try PNGImage.read(path: "\(dir)/s0.png") == PNGImage.read(path: chart))
        try CLI.run(["apply", "--lut", lut, "--strength", "100", chart, "\(dir)/s100.png"])
        try CLI.run(["apply", "--lut", lut, chart, "\(dir)/default.png"])
        #expect(try PNGImage.read(path: "\(dir)/s100.png") == PNGImage.read(path: "\(dir)/default.png"))
        #expect(try PNGImage.read(path: "\(dir)/s100.png") != PNGImage.read(path: chart))
        let refused = try CLI.run(["apply", "--lut", lut, "--strength", "250", chart, "\(dir)/bad.png"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("0…200"))
    }

    @Test("applying an edited tiled PNG equals applying the same cube as .cube")
    func pngAndCubeAgree() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let look = try ColorCube(size: 16) { c in SIMD3(c.x * c.x, c.y.squareRoot(), 1 - c.z) }
        try LUTFormat.write(LUT(cube: look), to: "\(dir)/look.png", options: .init(bits: 16))
        try LUTFormat.write(LUT(cube: try CubeImage.read(path: "\(dir)/look.png", layout: nil).cube), to: "\(dir)/look.cube")
        let image = try PixelBuffer(width: 97, height: 31, channels: 3,
                                    samples: .eight((0..<(97 * 31 * 3)).map { UInt8(($0 * 37) % 256) }))
        try PNGImage.write(image, to: "\(dir)/in.png")
        #expect(try CLI.run(["apply", "--lut", "\(dir)/look.png", "\(dir)/in.png", "\(dir)/a.png"]).status == 0)
        #expect(try CLI.run(["apply", "--lut", "\(dir)/look.cube", "\(dir)/in.png", "\(dir)/b.png"]).status == 0)
        #expect(try PNGImage.read(path: "\(dir)/a.png") == PNGImage.read(path: "\(dir)/b.png"))
    }

    @Test("bad inputs exit non-zero with a specific error and leave no output file")
    func badInputs() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try PixelBuffer(width: 300, height: 200, channels: 3,
                                    samples: .eight((0..<(300 * 200 * 3)).map { UInt8(($0 * 7) % 251) }))
        try PNGImage.write(image, to: "\(dir)/in.png")
        let bytes = try PNGImage.encode(image, options: .photo)
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: URL(fileURLWithPath: "\(dir)/truncated.png"))
        // The real file with its header (and the header's CRC) changed to claim 100000×100000 pixels.
        var huge = bytes
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        huge.replaceSubrange(29..<33, with: crc32(Array(huge[12..<29])))
        try Data(huge).write(to: URL(fileURLWithPath: "\(dir)/huge.png"))
        let identity = (0..<8).map { i in "\(i & 1) \((i >> 1) & 1) \((i >> 2) & 1)" }
        let cubes: [String: (String, String)] = [
            "missing_row.cube": ("LUT_3D_SIZE 2\n" + identity.dropLast().joined(separator: "\n") + "\n", "found 7"),
            "letter.cube": ("LUT_3D_SIZE 2\n" + identity.prefix(3).joined(separator: "\n") + "\n0 1x 0\n"
                            + identity.suffix(4).joined(separator: "\n") + "\n", "1x"),
            "size1.cube": ("LUT_3D_SIZE 1\n0 0 0\n", "LUT_3D_SIZE 1"),
            "size300.cube": ("LUT_3D_SIZE 300\n0 0 0\n", "300"),
        ]
        let look = "\(dir)/look.cube"
        try ("LUT_3D_SIZE 2\n" + identity.joined(separator: "\n") + "\n").write(toFile: look, atomically: true, encoding: .utf8)
        for (name, (text, fact)) in cubes {
            try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8)
            let r = try CLI.run(["apply", "--lut", "\(dir)/\(name)", "\(dir)/in.png", "\(dir)/out-\(name).png"])
            #expect(r.status != 0, "\(name)")
            #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(name) && r.stderr.contains(fact), "\(name): \(r.stderr)")
        }
        for (name, fact) in [("truncated.png", "truncated"), ("huge.png", "100000×100000")] {
            let r = try CLI.run(["apply", "--lut", look, "\(dir)/\(name)", "\(dir)/out-\(name)"])
            #expect(r.status != 0, "\(name)")
            #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains(fact), "\(name): \(r.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("out-") || $0.hasPrefix(".") }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    /// CRC-32 (PNG chunk checksum) of `bytes`, big-endian.
    func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        crc ^= 0xFFFF_FFFF
        return [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }
}

@Suite struct ApplyHEICSizeTests {
    @Test("apply and detect read HEIC at phone-export sizes that are not a multiple of HEVC's blocks",
          arguments: [(1080, 1350), (1366, 768), (101, 101), (100, 67)])
    func phoneSizes(width: Int, height: Int) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var samples: [UInt8] = []
        samples.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let blue = (x + y) * 127 / (width + height) + 64
                samples += [UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8(blue)]
            }
        }
        let photo = try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(samples))
        try ImageFormat.write(photo, to: "\(dir)/in.heic", color: ColorDescription())
        // An inverting cube: the output can only match when every pixel went through the look.
        var cube = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { cube += "\(1 - r) \(1 - g) \(1 - b)\n" } } }
        try cube.write(toFile: "\(dir)/invert.cube", atomically: true, encoding: .utf8)
        let applied = try CLI.run(["apply", "--lut", "\(dir)/invert.cube", "\(dir)/in.heic", "\(dir)/out.png"])
        #expect(applied.status == 0, "\(applied.stderr)")
        let input = try ImageFormat.readImage(path: "\(dir)/in.heic").pixels
        let output = try PNGImage.read(path: "\(dir)/out.png")
        #expect(output.width == width && output.height == height)
        guard case .eight(let a) = input.samples, case .eight(let b) = output.samples, a.count == b.count else {
            Issue.record("expected 8-bit pictures of one size")
            return
        }
        let sums = zip(a, b).map { Int($0) + Int($1) }
        #expect(sums.min()! >= 254 && sums.max()! <= 256, "not every pixel went through the inverting look")
        let detected = try CLI.run(["detect", "\(dir)/in.heic"])
        #expect(detected.status == 0, "\(detected.stderr)")
    }
}
