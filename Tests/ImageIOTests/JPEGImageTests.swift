import Foundation
import ImageIO
import Testing

@Suite struct JPEGImageTests {
    /// A fresh temporary folder, removed by the caller.
    static func scratchFolder() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-jpeg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A smooth 8-bit RGB image (JPEG-friendly) with a distinct colour in each quadrant.
    static func quadrants(width: Int = 64, height: Int = 32) throws -> PixelBuffer {
        var s = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let (r, g, b): (UInt8, UInt8, UInt8) = switch (x < width / 2, y < height / 2) {
                case (true, true): (230, 30, 30)
                case (false, true): (30, 220, 30)
                case (true, false): (30, 30, 220)
                case (false, false): (235, 235, 235)
                }
                (s[i], s[i + 1], s[i + 2]) = (r, g, b)
            }
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(s))
    }

    /// An APP1 Exif segment (big-endian TIFF) with one IFD0 entry: orientation.
    static func exifSegment(orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0,
                             0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func insertAfterSOI(_ segment: [UInt8], _ jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    static func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return max(abs(d.x), abs(d.y), abs(d.z))
    }

    static func pixel(_ image: PixelBuffer, _ x: Int, _ y: Int) -> SIMD3<Float> {
        SIMD3(image.normalized(x: x, y: y, channel: 0), image.normalized(x: x, y: y, channel: 1),
              image.normalized(x: x, y: y, channel: 2))
    }

    @Test("encode then decode stays close to the original at quality 92")
    func roundTrip() throws {
        let image = try Self.quadrants()
        let decoded = try JPEGImage.decode(try JPEGImage.encode(image), name: "rt.jpg")
        #expect(decoded.pixels.width == 64 && decoded.pixels.height == 32)
        #expect(Self.distance(Self.pixel(decoded.pixels, 5, 5), Self.pixel(image, 5, 5)) < 0.03)
        #expect(Self.distance(Self.pixel(decoded.pixels, 60, 30), Self.pixel(image, 60, 30)) < 0.03)
        #expect(decoded.storedOrientation == 1)
    }

    @Test("EXIF orientation 6 is rotated 90° clockwise on read: the top-left red quadrant goes top-right")
    func orientationSix() throws {
        let jpeg = Self.insertAfterSOI(Self.exifSegment(orientation: 6), try JPEGImage.encode(try Self.quadrants()))
        let decoded = try JPEGImage.decode(jpeg, name: "o6.jpg")
        #expect(decoded.storedOrientation == 6)
        #expect(decoded.pixels.width == 32 && decoded.pixels.height == 64)
        let topRight = Self.pixel(decoded.pixels, 28, 4)
        #expect(topRight.x > 0.8 && topRight.y < 0.2)
        let topLeft = Self.pixel(decoded.pixels, 4, 4)
        #expect(topLeft.z > 0.8 && topLeft.x < 0.2)
        // The header alone says the same size as the pixels read, and how the file stores them.
        let dir = try TIFFImageTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(jpeg).write(to: URL(fileURLWithPath: dir + "/o6.jpg"))
        let info = try ImageFormat.info(path: dir + "/o6.jpg")
        #expect(info.width == 32 && info.height == 64 && info.orientation == 6)
    }

    @Test("every orientation maps the stored top-left pixel where EXIF says", arguments: 1...8)
    func allOrientations(orientation: Int) throws {
        let pixels: [UInt8] = [1, 2, 3, 4, 5, 6]  // a 3×2 single-channel image
        let out = JPEGOrientation.upright(pixels, width: 3, height: 2, channels: 1, orientation: orientation)
        let size = JPEGOrientation.uprightSize(width: 3, height: 2, orientation: orientation)
        // Where stored (0,0) must land: the viewed corner EXIF 2.3 names for row 0 / column 0.
        let corner: (Int, Int) = switch orientation {
        case 1, 5: (0, 0)
        case 2, 6: (size.width - 1, 0)
        case 3, 7: (size.width - 1, size.height - 1)
        default: (0, size.height - 1)
        }
        #expect(out[corner.1 * size.width + corner.0] == 1)
        #expect(out.sorted() == pixels)
    }

    @Test("the ICC profile is reassembled from APP2 chunks and written back with the output")
    func iccPassThrough() throws {
        let profile = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }  // two chunks
        let jpeg = try JPEGImage.encode(try Self.quadrants(), iccProfile: profile)
        let decoded = try JPEGImage.decode(jpeg, name: "icc.jpg")
        #expect(decoded.iccProfile == profile)
        let again = try JPEGImage.decode(try JPEGImage.encode(decoded.pixels, iccProfile: decoded.iccProfile),
                                         name: "icc2.jpg")
        #expect(again.iccProfile == profile)
    }

    @Test("written JPEGs carry no orientation tag, so viewers do not rotate them twice")
    func noOrientationWritten() throws {
        let jpeg = Self.insertAfterSOI(Self.exifSegment(orientation: 8), try JPEGImage.encode(try Self.quadrants()))
        let upright = try JPEGImage.decode(jpeg, name: "o8.jpg").pixels
        let written = try JPEGImage.encode(upright)
        #expect(JPEGMarkers(parsing: written).orientation == 1)
        #expect(try JPEGImage.decode(written, name: "w.jpg").pixels.width == upright.width)
    }

    @Test("16-bit and RGBA images are written as 8-bit RGB")
    func depthAndAlpha() throws {
        let s16 = [UInt16](repeating: 0, count: 16 * 8 * 4).enumerated().map { $0.offset % 4 == 1 ? UInt16(65535) : 0 }
        let image = try PixelBuffer(width: 16, height: 8, channels: 4, samples: .sixteen(s16))
        let decoded = try JPEGImage.decode(try JPEGImage.encode(image), name: "g.jpg").pixels
        #expect(decoded.channels == 3 && decoded.depth == .eight)
        #expect(Self.pixel(decoded, 3, 3).y > 0.95)
    }

    @Test("truncated, non-JPEG and missing files are errors that name the file")
    func errors() throws {
        let jpeg = try JPEGImage.encode(try Self.quadrants())
        #expect(throws: ImageIOError.self) { try JPEGImage.decode(Array(jpeg.prefix(jpeg.count / 2)), name: "cut.jpg") }
        #expect(throws: ImageIOError.notJPEG(file: "x.jpg")) { try JPEGImage.decode([1, 2, 3, 4, 5], name: "x.jpg") }
        do {
            _ = try JPEGImage.read(path: "/nonexistent/a.jpg")
            Issue.record("reading a missing file succeeded")
        } catch {
            #expect(error.file == "/nonexistent/a.jpg")
        }
        #expect(throws: ImageIOError.invalidOptions("JPEG quality 0 is not in 1…100")) {
            try JPEGImage.encode(try Self.quadrants(), quality: 0)
        }
    }

    @Test("a preview read decodes DCT-scaled straight to the size the box shrink gives")
    func scaledRead() throws {
        let dir = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try JPEGImage.write(try Self.quadrants(width: 400, height: 200), to: dir + "/big.jpg")
        for (target, expected) in [(100, 100), (150, 100), (200, 200), (300, 200)] {
            let small = try JPEGImage.read(path: dir + "/big.jpg", previewLongSide: target)
            #expect(small.pixels.width == expected && small.pixels.height == expected / 2)
            let preview = try ImagePreview(path: dir + "/big.jpg", maxLongSide: target)
            #expect(preview.pixels.width == expected && preview.pixels.height == expected / 2)
        }
    }

    @Test("a preview already at its size is the pixels themselves: the reduced JPEG decode, an in-memory image")
    func previewAtItsSizeIsThePixels() throws {
        let dir = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try JPEGImage.write(try Self.quadrants(width: 400, height: 200), to: dir + "/big.jpg")
        // 400 → 100 is a 1/4 DCT decode with nothing left for the box filter to do.
        let decoded = try JPEGImage.read(path: dir + "/big.jpg", previewLongSide: 100)
        let preview = try ImagePreview(path: dir + "/big.jpg", maxLongSide: 100)
        #expect(preview.pixels == decoded.pixels)
        #expect(preview.sourceWidth == 400 && preview.sourceHeight == 200)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/big.jpg")))
        let fromBytes = try JPEGImage.decode(bytes, name: "big.jpg", minLongSide: 100)
        #expect(fromBytes.pixels.width == 100 && fromBytes.sourceWidth == 400 && fromBytes.sourceHeight == 200)
        let small = try Self.quadrants(width: 64, height: 32)
        #expect(try ImagePreview(image: small, maxLongSide: 64).pixels == small)
        #expect(try ImagePreview(image: small, maxLongSide: 32).pixels.width == 32)
    }

    @Test("a written file holds the same bytes as encode, ICC segments included, and a bad folder is an error")
    func writeMatchesEncode() throws {
        let dir = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }  // two APP2 chunks
        let image = try Self.quadrants(width: 100, height: 60)
        for icc in [nil, profile] {
            try JPEGImage.write(image, to: dir + "/w.jpg", iccProfile: icc)
            let file = try #require(FileManager.default.contents(atPath: dir + "/w.jpg"))
            #expect([UInt8](file) == (try JPEGImage.encode(image, iccProfile: icc)))
            #expect(try JPEGImage.read(path: dir + "/w.jpg").iccProfile == icc)
        }
        do {
            try JPEGImage.write(image, to: dir + "/missing/w.jpg")
            Issue.record("writing into a missing folder succeeded")
        } catch {
            #expect(error.file == dir + "/missing/w.jpg")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }
}
