import Foundation
import Testing
@testable import ImageIO
@testable import Pixels

@Suite("PNGImage")
struct PNGImageTests {
    private static func image(channels: Int, depth: PixelBuffer.Depth, seed: UInt64) throws -> PixelBuffer {
        var gen = SampleGenerator(seed: seed)
        let (w, h) = (23, 17)
        let n = w * h * channels
        return try PixelBuffer(width: w, height: h, channels: channels,
                               samples: depth == .eight ? .eight(gen.bytes(n)) : .sixteen(gen.words(n)))
    }

    @Test("RGB and RGBA at 8 and 16 bits round-trip bit-exactly through a file and through memory",
          arguments: [3, 4], [PixelBuffer.Depth.eight, .sixteen])
    func roundTrip(channels: Int, depth: PixelBuffer.Depth) throws {
        let image = try Self.image(channels: channels, depth: depth, seed: UInt64(channels * depth.rawValue))
        let fromMemory = try PNGImage.decode(PNGImage.encode(image), name: "memory.png")
        #expect(fromMemory == image)

        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let path = folder.file("round.png")
        try PNGImage.write(image, to: path)
        #expect(try PNGImage.read(path: path) == image)
        #expect(folder.contents == ["round.png"])
    }

    @Test("every filter, level and strategy decodes to the same pixels")
    func everyOption() throws {
        let image = try Self.image(channels: 3, depth: .sixteen, seed: 99)
        for filter in PNGWriteOptions.Filter.allCases {
            for strategy in PNGWriteOptions.Strategy.allCases {
                for level in [0, 1, 9] {
                    let options = PNGWriteOptions(compressionLevel: level, filter: filter, strategy: strategy)
                    #expect(try PNGImage.decode(PNGImage.encode(image, options: options), name: "o.png") == image)
                }
            }
        }
    }

    @Test("a compression level outside 0…9 is refused")
    func badLevel() throws {
        let image = try Self.image(channels: 3, depth: .eight, seed: 1)
        #expect(throws: ImageIOError.self) {
            try PNGImage.encode(image, options: PNGWriteOptions(compressionLevel: 10, filter: .none))
        }
    }

    @Test("an existing file is replaced only when the new one is complete")
    func replaces() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let path = folder.file("out.png")
        let first = try Self.image(channels: 3, depth: .eight, seed: 5)
        let second = try Self.image(channels: 4, depth: .sixteen, seed: 6)
        try PNGImage.write(first, to: path)
        try PNGImage.write(second, to: path)
        #expect(try PNGImage.read(path: path) == second)
        #expect(throws: ImageIOError.self) { try PNGImage.write(first, to: folder.file("no/such/dir.png")) }
        #expect(folder.contents == ["out.png"])
    }
}
