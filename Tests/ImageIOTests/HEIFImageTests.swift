import Foundation
import Testing
@testable import ImageIO

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

    @Test("an image wider than the pixel limit is refused by libheif while it reads the file, naming the side limit")
    func sideLimit() throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageFormat.write(try WebPImageTests.photo(channels: 3), to: "\(dir)/x.heic", color: ColorDescription())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/x.heic")).map { $0 }
        #expect(try HEIFImage.decode(bytes, name: "x.heic", maxPixels: 64 * 48).pixels.width == 64)
        #expect {
            _ = try HEIFImage.decode(bytes, name: "x.heic", maxPixels: 40)
        } throws: {
            guard let error = $0 as? ImageIOError, case .sideOverLimit(let file, let detail, let side) = error
            else { return false }
            return file == "x.heic" && detail.contains("Security limit")
                && error.reason.contains("the side limit is the pixel limit, at most \(side)")
                && !error.reason.contains("--")
        }
    }

    @Test("a HEIC declaring 9 bits whose samples decode past that depth reads clamped or is refused by name, never trapping (fuzz finding)")
    func depthMismatch() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/heif-depth-mismatch.heic").standardizedFileURL.path
        // libheif up to 1.15.1-1+deb12u1 decodes the samples past the declared depth; later builds refuse the file
        // ("Decoded image does not have the bit depth signaled in the file"). Both are safe; a trap ends the run.
        let image: DecodedImage
        do {
            image = try ImageFormat.readImage(path: path)
        } catch {
            guard case .corruptImage(let file, "HEIF", let detail) = error as? ImageIOError else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(file == path && !detail.isEmpty)
            #expect("\(error)".hasPrefix("\(path): "))
            return
        }
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

    /// Sizes phones and editors write, most of them not a multiple of HEVC's coding blocks: libheif from Debian's
    /// 1.15.1-1+deb12u2 checks the coded size against the side limit, and a limit at the declared size refused them.
    static let phoneSizes: [(Int, Int)] = [(1080, 1350), (1366, 768), (101, 101), (100, 67), (4032, 3024), (40, 30)]

    @Test("HEIC at phone and editor sizes decodes at its declared size and round-trips", arguments: phoneSizes)
    func phoneSize(width: Int, height: Int) throws {
        try roundTrip(width: width, height: height, format: .heif, ext: "heic")
    }

    @Test("AVIF at sizes that are not a multiple of its blocks decodes and round-trips",
          arguments: [(101, 101), (100, 67), (40, 30)])
    func avifSize(width: Int, height: Int) throws {
        try roundTrip(width: width, height: height, format: .avif, ext: "avif")
    }

    private func roundTrip(width: Int, height: Int, format: ImageFormat, ext: String) throws {
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try WebPImageTests.photo(width: width, height: height, channels: 3)
        try HEIFImage.write(image, to: "\(dir)/a.\(ext)", format: format, quality: 92, iccProfile: nil)
        let info = try ImageFormat.info(path: "\(dir)/a.\(ext)")
        #expect(info.width == width && info.height == height)
        let first = try ImageFormat.readImage(path: "\(dir)/a.\(ext)")
        #expect(first.pixels.width == width && first.pixels.height == height)
        #expect(WebPImageTests.meanAbsoluteError(image, first.pixels) < 3, "\(width)×\(height) decoded far off")
        try HEIFImage.write(first.pixels, to: "\(dir)/b.\(ext)", format: format, quality: 92, iccProfile: nil)
        let second = try ImageFormat.readImage(path: "\(dir)/b.\(ext)")
        #expect(second.pixels.width == width && second.pixels.height == height)
        #expect(WebPImageTests.meanAbsoluteError(image, second.pixels) < 4, "\(width)×\(height) re-encoded far off")
    }

    @Test("the side limit passed to libheif covers the coded size of any picture and stays near the declared one")
    func codedSideLimit() {
        for side in [1, 30, 40, 64, 101, 127, 128, 129, 1350, 1366, 4032, 8192] {
            let limit = HEIFImage.codedSideLimit(side)
            // HEVC codes up to 64-sample blocks, small pictures padded to 64; AV1 up to 128.
            #expect(limit > max((side + 63) / 64 * 64, 64) && limit > (side + 127) / 128 * 128)
            #expect(limit <= side + 129)
        }
    }
}
