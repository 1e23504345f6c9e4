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

@Suite struct HEIFImageTests {
    @Test("HEIC and AVIF round-trip within 3 codes mean absolute error, keeping the ICC profile",
          arguments: [ImageFormat.heif, .avif])
    func roundTrip(format: ImageFormat) throws {
        #expect(HEIFImage.canEncode(format))
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try WebPImageTests.photo(channels: 3)
        let icc = try #require(Data(base64Encoded: Self.tinyICCBase64)).map { $0 }
        let path = "\(dir)/x.\(format.extensions[0])"
        try ImageFormat.write(image, to: path, color: ColorDescription(iccBytes: icc))
        #expect(try ImageFormat.of(path: path) == format)
        let back = try ImageFormat.readImage(path: path)
        #expect(back.pixels.width == 64 && back.pixels.height == 48 && back.pixels.depth == .eight)
        #expect(WebPImageTests.meanAbsoluteError(back.pixels, image) <= 3)
        #expect(back.color.iccProfile?.data == icc)
    }

    @Test("a truncated HEIC is an error naming the file")
    func truncated() throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageFormat.write(try WebPImageTests.photo(channels: 3), to: "\(dir)/x.heic", color: ColorDescription())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/x.heic"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: "\(dir)/cut.heic"))
        #expect {
            _ = try ImageFormat.readImage(path: "\(dir)/cut.heic")
        } throws: { "\($0)".hasPrefix("\(dir)/cut.heic: truncated or corrupt HEIF") }
    }

    @Test("a HEIC whose header declares another size than it decodes to is an error, not an overflow (fuzz finding)")
    func sizeMismatch() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/heif-size-mismatch.heic").standardizedFileURL.path
        #expect(FileManager.default.fileExists(atPath: path), "fixture missing: \(path)")
        #expect {
            _ = try ImageFormat.readImage(path: path)
        } throws: { "\($0)".hasPrefix("\(path): ") }
    }

    @Test("an image wider than the pixel limit is refused by libheif while it reads the file, naming --max-pixels")
    func sideLimit() throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageFormat.write(try WebPImageTests.photo(channels: 3), to: "\(dir)/x.heic", color: ColorDescription())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/x.heic")).map { $0 }
        #expect(try HEIFImage.decode(bytes, name: "x.heic", maxPixels: 64 * 48).pixels.width == 64)
        #expect {
            _ = try HEIFImage.decode(bytes, name: "x.heic", maxPixels: 40)
        } throws: {
            guard case .unsupportedImage(let file, let detail) = $0 as? ImageIOError else { return false }
            return file == "x.heic" && detail.contains("Security limit") && detail.contains("--max-pixels")
        }
    }

    @Test("a HEIC declaring 9 bits whose samples decode past that depth reads clamped, not trapping (fuzz finding)")
    func depthMismatch() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/heif-depth-mismatch.heic").standardizedFileURL.path
        let image = try ImageFormat.readImage(path: path)
        #expect(image.pixels.width == 24 && image.pixels.height == 16 && image.pixels.depth == .sixteen)
        guard case .sixteen(let samples) = image.pixels.samples else { return }
        #expect(samples.max() == 65535, "values past the depth clamp to white")
    }

    @Test("a 24×16 grid whose descriptor asks for a far larger canvas is refused before libheif allocates it (fuzz finding)")
    func gridCanvas() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/heif-grid-canvas.heic").standardizedFileURL.path
        #expect {
            _ = try ImageFormat.readImage(path: path)
        } throws: {
            guard case .corruptImage(let file, "HEIF", let detail) = $0 as? ImageIOError else { return false }
            return file == path && detail.hasPrefix("a grid or overlay canvas is larger than the 24×16 image it makes")
        }
    }

    /// Profile-shaped bytes (length, RGB data space and 'acsp' signature): only RGB profiles are embedded.
    static let tinyICCBase64: String = {
        var bytes = (0..<160).map { UInt8($0) }
        bytes.replaceSubrange(0..<4, with: [0, 0, 0, 160])
        bytes.replaceSubrange(16..<20, with: Array("RGB ".utf8))
        bytes.replaceSubrange(36..<40, with: Array("acsp".utf8))
        return Data(bytes).base64EncodedString()
    }()
}
