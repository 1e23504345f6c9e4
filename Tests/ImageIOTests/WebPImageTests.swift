import Foundation
import Testing
@testable import ImageIO

@Suite struct WebPImageTests {
    /// Smooth content, as photos are: lossy codecs are judged on it, not on noise.
    static func photo(width: Int = 64, height: Int = 48, channels: Int) throws -> PixelBuffer {
        var s: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                s += [UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((x + y) * 255 / (width + height))]
                if channels == 4 { s.append(UInt8(255 - x)) }
            }
        }
        return try PixelBuffer(width: width, height: height, channels: channels, samples: .eight(s))
    }

    static func meanAbsoluteError(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard case .eight(let x) = a.samples, case .eight(let y) = b.samples, x.count == y.count else { return .infinity }
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
    }

    @Test("lossless WebP round-trips exactly, RGB and RGBA, with its ICC profile", arguments: [3, 4])
    func lossless(channels: Int) throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.photo(channels: channels)
        let icc = [UInt8](repeating: 7, count: 200)
        try WebPImage.write(image, to: "\(dir)/x.webp", lossless: true, iccProfile: icc)
        #expect(try ImageFormat.of(path: "\(dir)/x.webp") == .webp)
        let back = try ImageFormat.readImage(path: "\(dir)/x.webp")
        #expect(back.pixels == image)
        #expect(back.color.iccProfile?.data == icc)
        #expect(WebPImage.compression(path: "\(dir)/x.webp") == .lossless)
    }

    @Test("lossy WebP at quality 92 stays within 2 codes mean absolute error of the original")
    func lossy() throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.photo(channels: 3)
        try ImageFormat.write(image, to: "\(dir)/x.webp", color: ColorDescription())
        let back = try ImageFormat.readImage(path: "\(dir)/x.webp")
        #expect(WebPImage.compression(path: "\(dir)/x.webp") == .lossy)
        #expect(Self.meanAbsoluteError(back.pixels, image) <= 2)
        // The bitstream's kind is found behind an ICC profile larger than any fixed header read (VP8X, ICCP, VP8).
        try WebPImage.write(image, to: "\(dir)/tagged.webp", lossless: false, quality: 80,
                            iccProfile: [UInt8](repeating: 7, count: 3144))
        #expect(WebPImage.compression(path: "\(dir)/tagged.webp") == .lossy)
        try Data("RIFF0000WEBPVP8X".utf8).write(to: URL(fileURLWithPath: "\(dir)/cut.webp"))
        #expect(WebPImage.compression(path: "\(dir)/cut.webp") == nil)
    }

    @Test("a truncated or damaged WebP is an error naming the file")
    func corrupt() throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = try WebPImage.encode(try Self.photo(channels: 3), lossless: true)
        for broken in [Array(bytes.prefix(20)), Array(bytes.prefix(bytes.count / 2))] {
            try Data(broken).write(to: URL(fileURLWithPath: "\(dir)/bad.webp"))
            #expect {
                _ = try ImageFormat.readImage(path: "\(dir)/bad.webp")
            } throws: { "\($0)".hasPrefix("\(dir)/bad.webp: truncated or corrupt WebP") }
        }
    }
}
