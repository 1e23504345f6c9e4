import Foundation
import Testing
@testable import ImageIO
@testable import Pixels

@Suite("PNGReader")
struct PNGReaderTests {
    private func decode8(_ fixture: PNGFixture) throws -> (PNGInfo, [UInt8]) {
        let reader = try PNGReader(data: fixture.bytes(), name: "fixture.png")
        var out = [UInt8](repeating: 0, count: reader.info.width * reader.info.height * reader.info.channels)
        try out.withUnsafeMutableBufferPointer { try reader.readRows(reader.info.height, into: $0) }
        return (reader.info, out)
    }

    private func decode16(_ fixture: PNGFixture) throws -> (PNGInfo, [UInt16]) {
        let reader = try PNGReader(data: fixture.bytes(), name: "fixture.png")
        var out = [UInt16](repeating: 0, count: reader.info.width * reader.info.height * reader.info.channels)
        try out.withUnsafeMutableBufferPointer { try reader.readRows(reader.info.height, into: $0) }
        return (reader.info, out)
    }

    @Test("palette without tRNS becomes RGB, palette with tRNS becomes RGBA")
    func palette() throws {
        let palette: [UInt8] = [10, 20, 30, 40, 50, 60, 200, 210, 220]
        var fixture = PNGFixture(width: 3, height: 2, bitDepth: 4, colorType: 3, samples: [0, 1, 2, 2, 1, 0])
        fixture.palette = palette
        let (info, rgb) = try decode8(fixture)
        #expect(info.channels == 3 && info.depth == .eight)
        #expect(info.stored == StoredFormat(colorType: .palette, bitDepth: 4))
        #expect(rgb == [10, 20, 30, 40, 50, 60, 200, 210, 220, 200, 210, 220, 40, 50, 60, 10, 20, 30])

        fixture.bitDepth = 8
        fixture.trns = [0, 128]
        let (infoA, rgba) = try decode8(fixture)
        #expect(infoA.channels == 4)
        #expect(Array(rgba[0..<12]) == [10, 20, 30, 0, 40, 50, 60, 128, 200, 210, 220, 255])
    }

    @Test("grey at 1, 2, 4 and 8 bits is widened to 8-bit RGB", arguments: [1, 2, 4, 8])
    func grey(bits: Int) throws {
        let maxValue = (1 << bits) - 1
        let values = (0..<10).map { $0 * maxValue / 9 }
        let (info, rgb) = try decode8(PNGFixture(width: 5, height: 2, bitDepth: bits, colorType: 0, samples: values))
        #expect(info.channels == 3 && info.depth == .eight)
        let expected = values.flatMap { v -> [UInt8] in
            let wide = UInt8(v * 255 / maxValue)
            return [wide, wide, wide]
        }
        #expect(rgb == expected)
    }

    @Test("grey+alpha becomes RGBA at 8 and 16 bits")
    func greyAlpha() throws {
        let (info8, out8) = try decode8(PNGFixture(width: 2, height: 1, bitDepth: 8, colorType: 4,
                                                   samples: [7, 100, 250, 3]))
        #expect(info8.channels == 4)
        #expect(out8 == [7, 7, 7, 100, 250, 250, 250, 3])
        let (info16, out16) = try decode16(PNGFixture(width: 2, height: 1, bitDepth: 16, colorType: 4,
                                                      samples: [1, 65534, 40000, 2]))
        #expect(info16.channels == 4 && info16.depth == .sixteen)
        #expect(out16 == [1, 1, 1, 65534, 40000, 40000, 40000, 2])
    }

    @Test("16-bit grey keeps every sample exactly, in native byte order")
    func grey16() throws {
        let values = [0, 1, 255, 256, 257, 0x1234, 0xFEDC, 65535]
        let (info, out) = try decode16(PNGFixture(width: 4, height: 2, bitDepth: 16, colorType: 0, samples: values))
        #expect(info.depth == .sixteen && info.channels == 3)
        #expect(out == values.flatMap { [UInt16($0), UInt16($0), UInt16($0)] })
    }

    @Test("gAMA, sRGB and iCCP chunks do not change 16-bit samples (a cube PNG is data)")
    func colourChunksIgnored() throws {
        let values = (0..<12).map { $0 * 5957 }
        var fixture = PNGFixture(width: 2, height: 2, bitDepth: 16, colorType: 2, samples: values)
        fixture.gamma = 45455
        fixture.extraChunks = [("sRGB", [0]), ("iCCP", Array("junk\0".utf8) + [0, 1, 2, 3])]
        let (_, out) = try decode16(fixture)
        #expect(out == values.map { UInt16($0) })
    }

    @Test("RGB with a tRNS colour gets an alpha channel")
    func rgbTRNS() throws {
        var fixture = PNGFixture(width: 2, height: 1, bitDepth: 8, colorType: 2, samples: [1, 2, 3, 4, 5, 6])
        fixture.trns = [0, 1, 0, 2, 0, 3]
        let (info, out) = try decode8(fixture)
        #expect(info.channels == 4)
        #expect(out == [1, 2, 3, 0, 4, 5, 6, 255])
    }

    @Test("an interlaced image reads the same as a plain one, whole and in bands")
    func interlaced() throws {
        var gen = SampleGenerator(seed: 7)
        let values = gen.bytes(13 * 11 * 3).map(Int.init)
        let plain = PNGFixture(width: 13, height: 11, bitDepth: 8, colorType: 2, samples: values)
        var adam7 = plain
        adam7.interlaced = true
        let reader = try PNGReader(data: adam7.bytes(), name: "adam7.png")
        #expect(reader.info.interlaced)
        var banded: [UInt8] = []
        var band = [UInt8](repeating: 0, count: 4 * 13 * 3)
        while reader.rowsRead < 11 {
            let n = min(4, 11 - reader.rowsRead)
            try band.withUnsafeMutableBufferPointer { try reader.readRows(n, into: $0) }
            banded += band[0 ..< n * 13 * 3]
        }
        #expect(banded == values.map { UInt8($0) })
        #expect(try decode8(plain).1 == banded)
    }

    @Test("reading in bands gives the same rows as one whole read")
    func bands() throws {
        var gen = SampleGenerator(seed: 11)
        let image = try PixelBuffer(width: 37, height: 29, channels: 4, samples: .sixteen(gen.words(37 * 29 * 4)))
        let bytes = try PNGImage.encode(image, options: .photo)
        let reader = try PNGReader(data: bytes, name: "bands.png")
        var rows: [UInt16] = []
        var band = [UInt16](repeating: 0, count: 5 * 37 * 4)
        for n in [1, 5, 3, 5, 5, 5, 5] {
            try band.withUnsafeMutableBufferPointer { try reader.readRows(n, into: $0) }
            rows += band[0 ..< n * 37 * 4]
        }
        #expect(reader.rowsRead == 29)
        #expect(PixelBuffer.Samples.sixteen(rows) == image.samples)
    }

    @Test("a header announcing 100000×100000 is refused before any pixel memory is allocated")
    func hugeHeader() throws {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += PNGFixture.chunk("IHDR", PNGFixture.be32(100_000) + PNGFixture.be32(100_000) + [8, 2, 0, 0, 0])
        bytes += PNGFixture.chunk("IDAT", [0x78, 0x01])
        #expect(throws: ImageIOError.tooManyPixels(file: "huge.png", width: 100_000, height: 100_000,
                                                   limit: PNGReader.defaultMaxPixels)) {
            try PNGReader(data: bytes, name: "huge.png")
        }
        let message = ImageIOError.tooManyPixels(file: "huge.png", width: 100_000, height: 100_000,
                                                 limit: 250_000_000).description
        // The command line adds its option (`Remedy`); the library names none.
        #expect(message == "huge.png: 100000×100000 = 10,000,000,000 pixels is over the limit of 250,000,000 pixels")
    }

    @Test("the pixel limit is the caller's: a small image over a small limit is refused")
    func callerLimit() throws {
        let bytes = PNGFixture(width: 4, height: 4, bitDepth: 8, colorType: 0, samples: Array(repeating: 0, count: 16))
            .bytes()
        #expect(throws: ImageIOError.self) { try PNGReader(data: bytes, name: "a.png", maxPixels: 15) }
        #expect(try PNGReader(data: bytes, name: "a.png", maxPixels: 16).info.width == 4)
    }

    @Test("a truncated PNG is an error naming the file, not a crash")
    func truncated() throws {
        var gen = SampleGenerator(seed: 3)
        let image = try PixelBuffer(width: 64, height: 64, channels: 3, samples: .eight(gen.bytes(64 * 64 * 3)))
        let bytes = try PNGImage.encode(image)
        for cut in [20, 40, bytes.count / 2, bytes.count - 20] {
            do {
                _ = try PNGImage.decode(Array(bytes[0..<cut]), name: "cut.png")
                Issue.record("a PNG cut at \(cut) of \(bytes.count) bytes decoded")
            } catch {
                guard case .corruptPNG(let file, _) = error else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(file == "cut.png")
                #expect(error.description.hasPrefix("cut.png: truncated or corrupt PNG (libpng: "))
            }
        }
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let path = folder.file("cut.png")
        try Data(bytes[0 ..< bytes.count / 2]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageIOError.corruptPNG(file: path, detail: "unexpected end of file")) {
            try PNGImage.read(path: path)
        }
    }

    @Test("a damaged CRC in the image data is an error")
    func badCRC() throws {
        var bytes = PNGFixture(width: 2, height: 2, bitDepth: 8, colorType: 2, samples: Array(0..<12)).bytes()
        bytes[bytes.count - 13] ^= 0xFF  // last byte of the IDAT CRC
        #expect(throws: ImageIOError.self) { try PNGImage.decode(bytes, name: "crc.png") }
    }

    @Test("bytes that are not a PNG are refused as such")
    func notPNG() throws {
        let junk = Array("GIF89a this is not a png at all".utf8)
        #expect(throws: ImageIOError.notPNG(file: "x.png")) { try PNGImage.decode(junk, name: "x.png") }
        #expect(throws: ImageIOError.notPNG(file: "empty.png")) { try PNGImage.decode([], name: "empty.png") }
        #expect(ImageIOError.notPNG(file: "x.png").description == "x.png: not a PNG file")
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let path = folder.file("x.png")
        try Data(junk).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImageIOError.notPNG(file: path)) { try PNGImage.read(path: path) }
        #expect(throws: ImageIOError.self) { try PNGImage.read(path: folder.file("missing.png")) }
    }

    @Test("rows must be requested at the image's depth and not past its end")
    func misuse() throws {
        let bytes = PNGFixture(width: 2, height: 2, bitDepth: 8, colorType: 2, samples: Array(0..<12)).bytes()
        let reader = try PNGReader(data: bytes, name: "m.png")
        var wide = [UInt16](repeating: 0, count: 12)
        #expect(throws: ImageIOError.depthMismatch(file: "m.png", image: .eight, buffer: .sixteen)) {
            try wide.withUnsafeMutableBufferPointer { try reader.readRows(1, into: $0) }
        }
        var small = [UInt8](repeating: 0, count: 5)
        #expect(throws: ImageIOError.self) {
            try small.withUnsafeMutableBufferPointer { try reader.readRows(1, into: $0) }
        }
        var rows = [UInt8](repeating: 0, count: 12)
        #expect(throws: ImageIOError.self) {
            try rows.withUnsafeMutableBufferPointer { try reader.readRows(3, into: $0) }
        }
        try rows.withUnsafeMutableBufferPointer { try reader.readRows(2, into: $0) }
        #expect(rows == Array(0..<12))
    }
}
