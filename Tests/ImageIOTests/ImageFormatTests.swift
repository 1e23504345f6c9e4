import Foundation
import ImageIO
import Testing

@Suite struct ImageFormatTests {
    @Test("formats come from the signature for existing files and from the extension for outputs")
    func dispatch() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try PixelBuffer(width: 4, height: 4, channels: 3, depth: .eight)
        try ImageFormat.write(image, to: dir + "/a.JPG")
        try FileManager.default.moveItem(atPath: dir + "/a.JPG", toPath: dir + "/misnamed.png")
        #expect(try ImageFormat.of(path: dir + "/misnamed.png") == .jpeg)
        #expect(try ImageFormat.forOutput(path: "x.jpeg") == .jpeg)
        #expect(try ImageFormat.forOutput(path: "x.png") == .png)
        #expect(try ImageFormat.forOutput(path: "x.TIFF") == .tiff)
        #expect(try ImageFormat.forOutput(path: "x.heic") == .heif)
        #expect(try ImageFormat.forOutput(path: "x.avif") == .avif)
        #expect(try ImageFormat.forOutput(path: "x.webp") == .webp)
        #expect(throws: ImageIOError.unknownImageFormat(file: "x.bmp")) { try ImageFormat.forOutput(path: "x.bmp") }
        #expect(try ImageFormat.read(path: dir + "/misnamed.png").pixels.width == 4)
    }

    @Test("info gives the colour type and bit depth the file stores, beside the RGB(A) shape it is read as",
          arguments: [
              (0, 8, [], StoredFormat(colorType: .grey, bitDepth: 8), 3),
              (0, 1, [], StoredFormat(colorType: .grey, bitDepth: 1), 3),
              (4, 16, [], StoredFormat(colorType: .greyAlpha, bitDepth: 16), 4),
              (3, 4, [], StoredFormat(colorType: .palette, bitDepth: 4), 3),
              (3, 8, [0, 128], StoredFormat(colorType: .palette, bitDepth: 8, transparencyChunk: true), 4),
              (2, 8, [], StoredFormat(colorType: .rgb, bitDepth: 8), 3),
              (6, 16, [], StoredFormat(colorType: .rgba, bitDepth: 16), 4),
          ] as [(Int, Int, [UInt8], StoredFormat, Int)])
    func storedFormat(colorType: Int, bits: Int, trns: [UInt8], stored: StoredFormat, channels: Int) throws {
        let dir = NSTemporaryDirectory() + "lookstudio-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var fixture = PNGFixture(width: 3, height: 2, bitDepth: bits, colorType: colorType, samples: [])
        fixture.samples = [Int](repeating: 1, count: 6 * fixture.samplesPerPixel)
        if colorType == 3 { fixture.palette = [10, 20, 30, 40, 50, 60] }
        fixture.trns = trns
        try Data(fixture.bytes()).write(to: URL(fileURLWithPath: dir + "/f.png"))
        let info = try ImageFormat.info(path: dir + "/f.png")
        #expect(info.stored == stored)
        #expect(info.channels == channels && info.depth == (bits == 16 ? .sixteen : .eight))
    }

    @Test("a grey JPEG is stored grey and read as 8-bit RGB")
    func greyJPEG() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/odd/grey.jpg").standardizedFileURL.path
        let info = try ImageFormat.info(path: path)
        #expect(info.stored == StoredFormat(colorType: .grey, bitDepth: 8))
        #expect(info.channels == 3 && info.depth == .eight)
        let rgb = NSTemporaryDirectory() + "lookstudio-format-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: rgb) }
        try ImageFormat.write(try PixelBuffer(width: 4, height: 4, channels: 3, depth: .eight), to: rgb)
        #expect(try ImageFormat.info(path: rgb).stored == StoredFormat(colorType: .rgb, bitDepth: 8))
    }
}
