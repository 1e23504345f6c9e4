import ImageIO
import Testing

@Suite struct JPEGOrientationTests {
    /// Stored pixel (x, y) of a `width`×`height` RGB image: three distinct bytes per pixel.
    static func stored(width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for i in 0..<(width * height) {
            let (r, g, b): (Int, Int, Int) = (i % 251, i / 251, 200 - i % 97)
            pixels += [UInt8(r), UInt8(g), UInt8(b)]
        }
        return pixels
    }

    /// The stored pixel EXIF 2.3 shows at viewed position (x, y), written as the inverse of each operation.
    static func source(of x: Int, _ y: Int, width: Int, height: Int, orientation: Int) -> (Int, Int) {
        switch orientation {
        case 2: (width - 1 - x, y)
        case 3: (width - 1 - x, height - 1 - y)
        case 4: (x, height - 1 - y)
        case 5: (y, x)
        case 6: (y, height - 1 - x)
        case 7: (width - 1 - y, height - 1 - x)
        case 8: (width - 1 - y, x)
        default: (x, y)
        }
    }

    @Test("in place, every orientation shows each stored pixel where EXIF says (odd and even sizes)",
          arguments: 1...8, [(5, 3), (4, 2), (1, 7)])
    func everyPixel(orientation: Int, size: (Int, Int)) {
        let (width, height) = size
        let original = Self.stored(width: width, height: height)
        var pixels = original
        JPEGOrientation.makeUpright(&pixels, width: width, height: height, channels: 3, orientation: orientation)
        let upright = JPEGOrientation.uprightSize(width: width, height: height, orientation: orientation)
        #expect(pixels.count == original.count)
        var mismatches = 0
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let (sx, sy) = Self.source(of: x, y, width: width, height: height, orientation: orientation)
                let d = (y * upright.width + x) * 3, s = (sy * width + sx) * 3
                if pixels[d..<(d + 3)] != original[s..<(s + 3)] { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(pixels == JPEGOrientation.upright(original, width: width, height: height, channels: 3,
                                                  orientation: orientation))
    }

    @Test("orientations 1 to 4 keep the pixels in the buffer they came in; no second image is made",
          arguments: 1...4)
    func inPlace(orientation: Int) {
        var pixels = Self.stored(width: 6, height: 4)
        let before = pixels.withUnsafeBufferPointer { $0.baseAddress }
        JPEGOrientation.makeUpright(&pixels, width: 6, height: 4, channels: 3, orientation: orientation)
        #expect(pixels.withUnsafeBufferPointer { $0.baseAddress } == before)
    }

    @Test("a sample count that does not match the size leaves the pixels alone instead of crashing")
    func mismatchedCount() {
        var pixels: [UInt8] = [1, 2, 3, 4, 5]
        JPEGOrientation.makeUpright(&pixels, width: 2, height: 2, channels: 3, orientation: 6)
        #expect(pixels == [1, 2, 3, 4, 5])
    }
}
