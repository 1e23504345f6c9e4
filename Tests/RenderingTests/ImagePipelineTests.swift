import Foundation
import ImageIO
import LookCore
import Rendering
import Testing

@Suite struct ImagePipelineTests {
    static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-pipeline-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func gradient(width: Int, height: Int, channels: Int, depth: PixelBuffer.Depth) throws -> PixelBuffer {
        let n = width * height * channels
        switch depth {
        case .eight:
            let s = (0..<n).map { UInt8(truncatingIfNeeded: ($0 * 31 + $0 / 7) % 256) }
            return try PixelBuffer(width: width, height: height, channels: channels, samples: .eight(s))
        case .sixteen:
            let s = (0..<n).map { UInt16(truncatingIfNeeded: ($0 &* 2_654_435_761) % 65536) }
            return try PixelBuffer(width: width, height: height, channels: channels, samples: .sixteen(s))
        }
    }

    static let look = try! ColorCube(size: 17) { c in SIMD3(c.x * c.x, 1 - c.y, 0.5 * c.z + 0.25) }

    @Test("streaming in small bands equals applying the cube to the whole image",
          arguments: [(3, PixelBuffer.Depth.eight), (4, .eight), (3, .sixteen), (4, .sixteen)])
    func bandsEqualWhole(channels: Int, depth: PixelBuffer.Depth) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.gradient(width: 123, height: 77, channels: channels, depth: depth)
        try PNGImage.write(image, to: "\(dir)/in.png")
        var options = ImagePipeline.Options()
        options.bandBytes = 1000  // a few rows per band, with a short last band
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/out.png", options: options)
        let out = try PNGImage.read(path: "\(dir)/out.png")
        var expected = image
        let applier = CubeApplier(cube: Self.look)
        switch expected.samples {
        case .eight(var s):
            try s.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: channels) }
            expected.samples = .eight(s)
        case .sixteen(var s):
            try s.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: channels) }
            expected.samples = .sixteen(s)
        }
        #expect(out == expected)
        #expect(out != image)
    }

    @Test("JPEG streams in small bands to JPEG and PNG with the same result as grading the whole decoded image")
    func jpegStreamsLikeWhole() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.gradient(width: 97, height: 45, channels: 3, depth: .eight)
        try JPEGImage.write(image, to: "\(dir)/in.jpg")
        var decoded = try JPEGImage.read(path: "\(dir)/in.jpg").pixels
        guard case .eight(var s) = decoded.samples else { return }
        try s.withUnsafeMutableBufferPointer { try CubeApplier(cube: Self.look).apply(to: $0, channels: 3) }
        decoded.samples = .eight(s)
        var options = ImagePipeline.Options()
        options.bandBytes = 900
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.jpg", output: "\(dir)/out.jpg", options: options)
        let written = try #require(FileManager.default.contents(atPath: "\(dir)/out.jpg"))
        #expect([UInt8](written) == (try JPEGImage.encode(decoded)))
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.jpg", output: "\(dir)/out.png", options: options)
        #expect(try PNGImage.read(path: "\(dir)/out.png") == decoded)
    }

    @Test("a JPEG stored rotated (EXIF 6) comes out upright through the whole-image path")
    func rotatedJPEG() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try JPEGImage.encode(try Self.gradient(width: 40, height: 24, channels: 3, depth: .eight))
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1 = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        try Data(Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])).write(to: URL(fileURLWithPath: "\(dir)/in.jpg"))
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.jpg", output: "\(dir)/out.png")
        let out = try PNGImage.read(path: "\(dir)/out.png")
        #expect(out.width == 24 && out.height == 40)
    }

    @Test("strength 0 returns the input bit for bit", arguments: PixelBuffer.Depth.allCases)
    func strengthZero(depth: PixelBuffer.Depth) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.gradient(width: 64, height: 40, channels: 3, depth: depth)
        try PNGImage.write(image, to: "\(dir)/in.png")
        try ImagePipeline.apply(try Self.look.scaled(strength: 0), input: "\(dir)/in.png", output: "\(dir)/out.png")
        #expect(try PNGImage.read(path: "\(dir)/out.png") == image)
    }

    @Test("a corrupt input leaves no output file behind")
    func failureLeavesNothing() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.gradient(width: 200, height: 200, channels: 3, depth: .eight)
        let bytes = try PNGImage.encode(image, options: .photo)
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: "\(dir)/cut.png"))
        #expect(throws: (any Error).self) {
            try ImagePipeline.apply(Self.look, input: "\(dir)/cut.png", output: "\(dir)/out.png")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["cut.png"])
    }

    /// A small valid v2 RGB display profile (header, one white-point tag, pseudo-random filler so that its deflated
    /// iCCP chunk is over the 92 bytes libpng 1.6.39 needs to read it back).
    static func profile(tint: UInt8) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var p = [UInt8](repeating: 0, count: 256)
        for i in 164..<256 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            p[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        func put(_ bytes: [UInt8], at offset: Int) { p.replaceSubrange(offset ..< offset + bytes.count, with: bytes) }
        put([0, 0, 1, 0, 0, 0, 0, 0, 0x02, 0x10, 0, 0], at: 0)
        put(Array("mntrRGB XYZ ".utf8) + [0x07, 0xE8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0] + Array("acsp".utf8), at: 12)
        put([0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D], at: 68)
        put([0, 0, 0, 1] + Array("wtpt".utf8) + [0, 0, 0, 144, 0, 0, 0, 20], at: 128)
        put(Array("XYZ ".utf8) + [0, 0, 0, 0, 0, 0, 0xF3, 0x51, 0, 1, 0, tint, 0, 1, 0x16, 0xCC], at: 144)
        return p
    }

    /// `png` with an extra chunk inserted right after IHDR.
    static func inserting(_ type: String, _ data: [UInt8], into png: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in Array(type.utf8) + data {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        let chunk = be32(UInt32(data.count)) + Array(type.utf8) + data + be32(~crc)
        return Array(png[0..<33]) + chunk + Array(png[33...])
    }

    @Test("with a prepared applier (no colour management) PNG to PNG keeps iCCP, sRGB, gAMA and cHRM unapplied",
          arguments: [PNGColorMetadata(iccProfile: .init(name: "Studio RGB", data: profile(tint: 9))),
                      PNGColorMetadata(srgbIntent: .perceptual, gamma: 45_455, chromaticities: .sRGB),
                      PNGColorMetadata(gamma: 100_000)])
    func pngColorSurvives(color: PNGColorMetadata) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for depth in PixelBuffer.Depth.allCases {
            let image = try Self.gradient(width: 90, height: 40, channels: 3, depth: depth)
            try PNGImage.write(image, to: "\(dir)/plain.png")
            try PNGImage.write(image, to: "\(dir)/tagged.png", colorMetadata: color)
            var options = ImagePipeline.Options()
            options.bandBytes = 2000
            try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/plain.png", output: "\(dir)/plain-out.png", options: options)
            try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/tagged.png", output: "\(dir)/tagged-out.png",
                                    options: options)
            #expect(try PNGReader(path: "\(dir)/tagged.png").colorMetadata == color)
            #expect(try PNGReader(path: "\(dir)/tagged-out.png").colorMetadata == color)
            #expect(try PNGReader(path: "\(dir)/plain-out.png").colorMetadata.isEmpty)
            let out = try PNGImage.read(path: "\(dir)/tagged-out.png")
            #expect(out == (try PNGImage.read(path: "\(dir)/plain-out.png")))
            #expect(out != image)
        }
    }

    @Test("an ICC profile moves from JPEG to PNG as iCCP and from PNG to JPEG as APP2 (prepared applier)")
    func profileCrossesFormats() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = Self.profile(tint: 4)
        let image = try Self.gradient(width: 48, height: 32, channels: 3, depth: .eight)
        try JPEGImage.write(image, to: "\(dir)/in.jpg", iccProfile: profile)
        try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/in.jpg", output: "\(dir)/out.png")
        #expect(try PNGReader(path: "\(dir)/out.png").colorMetadata
                == PNGColorMetadata(iccProfile: .init(name: "ICC profile", data: profile)))

        try PNGImage.write(image, to: "\(dir)/in.png",
                           colorMetadata: PNGColorMetadata(iccProfile: .init(name: "Studio RGB", data: profile),
                                                           gamma: 45_455))
        try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/in.png", output: "\(dir)/out.jpg")
        #expect(try JPEGImage.read(path: "\(dir)/out.jpg").iccProfile == profile)

        try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/out.png", output: "\(dir)/round.jpg")
        #expect(try JPEGImage.read(path: "\(dir)/round.jpg").iccProfile == profile)
    }

    @Test("a broken iCCP chunk in the input does not fail the image; the other colour chunks carry over")
    func brokenProfileInput() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.gradient(width: 60, height: 20, channels: 3, depth: .sixteen)
        let clean = try PNGImage.encode(image, colorMetadata: PNGColorMetadata(gamma: 50_000))
        let broken = Self.inserting("iCCP", Array("bad\0".utf8) + [0, 0x78, 0x01, 0xFF, 0xFF], into: clean)
        try Data(broken).write(to: URL(fileURLWithPath: "\(dir)/in.png"))
        try Data(clean).write(to: URL(fileURLWithPath: "\(dir)/clean.png"))
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/out.png")
        try ImagePipeline.apply(Self.look, input: "\(dir)/clean.png", output: "\(dir)/clean-out.png")
        #expect(try PNGReader(path: "\(dir)/out.png").colorMetadata == PNGColorMetadata(gamma: 50_000))
        #expect(try PNGImage.read(path: "\(dir)/out.png") == (try PNGImage.read(path: "\(dir)/clean-out.png")))
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/out.jpg")
        #expect(try JPEGImage.read(path: "\(dir)/out.jpg").iccProfile == nil)
    }
}
