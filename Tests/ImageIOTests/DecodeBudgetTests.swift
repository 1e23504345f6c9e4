import Foundation
import ImageIO
import Testing

/// Tiny files declaring huge images are refused from their headers, before any allocation, with exact figures.
@Suite struct DecodeBudgetTests {
    /// A 90-byte PNG whose header declares 249,000,000 × 1 RGBA at 16 bits (under the pixel limit, 2 GB a row).
    static func widePNG() -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += PNGFixture.chunk("IHDR", PNGFixture.be32(249_000_000) + PNGFixture.be32(1) + [16, 6, 0, 0, 0])
        bytes += PNGFixture.chunk("IDAT", [0x78, 0x01] + [UInt8](repeating: 0, count: 31))
        bytes += PNGFixture.chunk("IEND", [])
        return bytes
    }

    /// A 34-byte lossless WebP declaring 15,000 × 15,000 (900 MB decoded as RGBA).
    static func largeWebP() -> [UInt8] {
        let w = UInt32(15_000 - 1), h = UInt32(15_000 - 1)
        let bits = w | h << 14 | 1 << 28
        var payload: [UInt8] = [0x2F] + withUnsafeBytes(of: bits.littleEndian, Array.init)
        payload += [UInt8](repeating: 0, count: 9)
        var chunk = Array("VP8L".utf8) + withUnsafeBytes(of: UInt32(payload.count).littleEndian, Array.init) + payload
        chunk = Array("WEBP".utf8) + chunk
        return Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(chunk.count).littleEndian, Array.init) + chunk
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "lookstudio-budget-\(UUID().uuidString)-" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the 90-byte 249,000,000×1 RGBA16 PNG is refused by its row size, stream and whole")
    func widePNGRefused() throws {
        #expect(Self.widePNG().count == 90)
        let path = try Self.write(Self.widePNG(), "wide.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = ImageIOError.tooManyBytes(file: path, what: "one row", bytes: 1_992_000_000,
                                                 limit: DecodeBudget.maxRowBytes)
        #expect(throws: expected) { try PNGReader(path: path) }
        #expect(throws: expected) { try ImageFormat.info(path: path) }
        #expect(throws: expected) { try ImageFormat.readImage(path: path) }
        #expect(expected.description.contains("1,992,000,000 bytes, over the decode budget of 67,108,864 bytes"))
    }

    @Test("the 34-byte 15,000×15,000 lossless WebP: info reads the header; decoding is refused by its size")
    func largeWebPRefused() throws {
        #expect(Self.largeWebP().count == 34)
        let path = try Self.write(Self.largeWebP(), "large.webp")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let info = try ImageFormat.info(path: path)
        #expect(info.width == 15_000 && info.height == 15_000 && info.format == .webp)
        #expect(throws: ImageIOError.tooManyBytes(file: path, what: "the 15000×15000 image decoded whole from a "
                                                  + "34-byte file", bytes: 900_000_000, limit: 64 << 20)) {
            try ImageFormat.readImage(path: path)
        }
    }

    /// Found by the decodebudget fuzz target: under 512 MiB whole, but 461 MB for 30 bytes.
    @Test("a 30-byte WebP declaring 11,265×10,241 RGBA is refused: 1,024 bytes decoded per byte stored, at least 64 MiB")
    func tinyFileExpansion() throws {
        let bytes: [UInt8] = Array("RIFF".utf8) + [0x12, 0, 0, 0] + Array("WEBPVP8L".utf8) + [6, 0, 0, 0]
            + [0x2F, 0x00, 0x2C, 0x00, 0x1A, 0x63] + Array("HRM".utf8) + [0]
        #expect(bytes.count == 30)
        let path = try Self.write(bytes, "tiny.webp")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let info = try ImageFormat.info(path: path)
        #expect(info.width == 11_265 && info.height == 10_241 && info.channels == 4)
        #expect(throws: ImageIOError.tooManyBytes(file: path, what: "the 11265×10241 image decoded whole from a "
                                                  + "30-byte file", bytes: 461_459_460, limit: 67_108_864)) {
            try ImageFormat.readImage(path: path)
        }
        #expect(DecodeBudget.maxExpansion == 1024 && DecodeBudget.minWholeBytes == 64 << 20)
    }

    @Test("the pixel limit message gives exact pixel counts")
    func exactFigures() {
        let message = ImageIOError.tooManyPixels(file: "a.png", width: 4096, height: 4097, limit: 16_777_216)
            .description
        #expect(message == "a.png: 4096×4097 = 16,781,312 pixels is over the limit of 16,777,216 pixels")
    }
}
