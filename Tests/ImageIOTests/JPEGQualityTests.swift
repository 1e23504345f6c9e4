import Foundation
@testable import ImageIO
import Testing

/// A JPEG's quality is recovered from its quantisation tables.
@Suite struct JPEGQualityTests {
    static func gradient() throws -> PixelBuffer {
        let (w, h) = (48, 32)
        var s = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                s[(y * w + x) * 3] = UInt8(x * 5)
                s[(y * w + x) * 3 + 1] = UInt8(y * 7)
                s[(y * w + x) * 3 + 2] = UInt8((x * y) % 256)
            }
        }
        return try PixelBuffer(width: w, height: h, channels: 3, samples: .eight(s))
    }

    @Test("libjpeg's quality is estimated exactly", arguments: [10, 35, 50, 75, 85, 92, 96, 100])
    func roundTrip(quality: Int) throws {
        let bytes = try JPEGImage.encode(try Self.gradient(), quality: quality)
        let reader = try JPEGReader(data: bytes, name: "q\(quality).jpg")
        #expect(reader.quality == quality)
    }

    @Test("no tables, no estimate; an input's quality fills an unset option and never overrides a given one")
    func options() throws {
        #expect(JPEGQuality.estimate(tables: []) == nil)
        let dir = NSTemporaryDirectory() + "lookstudio-q-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try JPEGImage.write(try Self.gradient(), to: dir + "/in.jpg", quality: 81)
        try PNGImage.write(try Self.gradient(), to: dir + "/in.png")
        #expect(EncoderOptions().resolved(forInput: dir + "/in.jpg").effectiveQuality == 81)
        #expect(EncoderOptions(quality: 60).resolved(forInput: dir + "/in.jpg").effectiveQuality == 60)
        #expect(EncoderOptions().resolved(forInput: dir + "/in.png").effectiveQuality == EncoderOptions.defaultQuality)
    }
}

/// A JPEG's compression (tables and chroma sampling) is read back and can be re-applied to other pixels.
@Suite struct JPEGCompressionTests {
    @Test("the file's own tables and sampling are reported", arguments: [(85, 2), (95, 1)])
    func tablesAndSampling(quality: Int, subsampling: Int) throws {
        let bytes = try JPEGImage.encode(try JPEGQualityTests.gradient(), quality: quality)
        let compression = try #require(try JPEGReader(data: bytes, name: "q.jpg").compression)
        #expect(compression.horizontal == subsampling && compression.vertical == subsampling)
        #expect(compression.tables.prefix(64).map(Int.init) == JPEGQuality.scaled(JPEGQuality.luminance,
                                                                                    quality: quality))
        #expect(compression.tables.suffix(64).map(Int.init) == JPEGQuality.scaled(JPEGQuality.chrominance,
                                                                                    quality: quality))
    }

    @Test("re-applying a file's compression reproduces what the encoder did to the same pixels")
    func roundTripMatchesTheEncoder() throws {
        let source = try JPEGQualityTests.gradient()
        let bytes = try JPEGImage.encode(source, quality: 85)
        let reader = try JPEGReader(data: bytes, name: "q85.jpg")
        let compression = try #require(reader.compression)
        var decoded = [UInt8](repeating: 0, count: 3 * reader.width * reader.height)
        try decoded.withUnsafeMutableBufferPointer { try reader.readRows(reader.height, into: $0) }
        guard case .eight(let original) = source.samples else { Issue.record("8-bit source expected"); return }
        let again = try compression.roundTrip(original, width: source.width, height: source.height)
        #expect(again == decoded)
        // The loss is real: the file differs from its source.
        #expect(again != original)
        #expect(JPEGCompression(tables: [UInt16](repeating: 0, count: 128), horizontal: 2, vertical: 2) == nil)
        // Too tall for strips here: one pass, the reference the strip test below compares with.
        #expect(JPEGCompression(tables: [UInt16](repeating: 4, count: 128), horizontal: 3, vertical: 2) == nil)
    }

    /// RGB noise over a smooth field (fixed seed), so both the blocks' detail and the chroma upsampling matter.
    static func texture(width w: Int, height h: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: 3 * w * h)
        var state: UInt32 = 12_345
        for i in rgb.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            rgb[i] = UInt8(truncatingIfNeeded: Int(state >> 28) + (i / 3 % w) * 3 + (i / (3 * w)) * 2 + (i % 3) * 40)
        }
        return rgb
    }

    @Test("a file stored turned (EXIF orientation) is reproduced bit for bit from its upright pixels",
          arguments: 2...8)
    func roundTripOfAnUprightedFile(orientation: Int) throws {
        // Sizes that are no multiple of a block, so a turn moves every block boundary.
        let (w, h) = (37, 29)
        let rgb = Self.texture(width: w, height: h)
        let stored = try PixelBuffer(width: w, height: h, channels: 3, samples: .eight(rgb))
        let jpeg = JPEGImageTests.insertAfterSOI(JPEGImageTests.exifSegment(orientation: UInt8(orientation)),
                                                 try JPEGImage.encode(stored, quality: 85))
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(jpeg).write(to: URL(fileURLWithPath: dir + "/turned.jpg"))
        let shown = try ImageFormat.readImage(path: dir + "/turned.jpg").pixels
        guard case .eight(let decoded) = shown.samples else { Issue.record("8-bit decode expected"); return }
        var compression = try #require(try JPEGReader(data: jpeg, name: "turned.jpg").compression)
        compression.orientation = orientation
        // The source turned upright as a viewer shows it, then through the file's compression.
        let upright = JPEGOrientation.upright(rgb, width: w, height: h, channels: 3, orientation: orientation)
        let again = try compression.roundTrip(upright, width: shown.width, height: shown.height)
        #expect(again == decoded)
        // Coded upright instead, the blocks fall elsewhere and the result differs.
        compression.orientation = 1
        #expect(try compression.roundTrip(upright, width: shown.width, height: shown.height) != decoded)
    }

    @Test("coding in strips gives the one-pass result bit for bit, 4:2:0 and 4:4:4, any strip count",
          arguments: [(85, 3), (85, 5), (95, 4)])
    func stripsMatchOnePass(quality: Int, strips: Int) throws {
        // Tall enough for several MCU rows per strip, with a last strip that ends inside an MCU row (101 rows).
        let (w, h) = (37, 101)
        let rgb = Self.texture(width: w, height: h)
        let source = try PixelBuffer(width: w, height: h, channels: 3, samples: .eight(rgb))
        let compression = try #require(try JPEGReader(data: try JPEGImage.encode(source, quality: quality),
                                                      name: "q.jpg").compression)
        let whole = try compression.roundTrip(rgb, width: w, height: h, strips: 1)
        let striped = try compression.roundTrip(rgb, width: w, height: h, strips: strips)
        #expect(striped.count == whole.count)
        #expect(zip(striped, whole).filter { $0 != $1 }.count == 0, "samples that differ from the one-pass result")
        #expect(whole != rgb)
    }
}
