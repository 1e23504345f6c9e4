import Foundation
import ImageIO
import LookCore
import LookEngine
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
}
