/// Turns pixels stored in an EXIF orientation into upright pixels, so every later stage sees the image as viewed.
///
/// EXIF 2.3 tag 0x0112: 2 mirror horizontally, 3 rotate 180°, 4 mirror vertically, 5 transpose, 6 rotate 90°
/// clockwise, 7 transverse, 8 rotate 90° counter-clockwise.
public enum JPEGOrientation {
    /// Width and height after making an image of `width`×`height` in `orientation` upright (5…8 swap them).
    public static func uprightSize(width: Int, height: Int, orientation: Int) -> (width: Int, height: Int) {
        (5...8).contains(orientation) ? (height, width) : (width, height)
    }

    /// Returns `pixels` (`width`×`height`, `channels` interleaved) rotated/flipped upright; 1 (or unknown) is
    /// returned as is.
    public static func upright(_ pixels: [UInt8], width: Int, height: Int, channels: Int,
                               orientation: Int) -> [UInt8] {
        var out = pixels
        makeUpright(&out, width: width, height: height, channels: channels, orientation: orientation)
        return out
    }

    /// What `orientation` does to the stored pixels to show them, in words ("turned 90° clockwise").
    public static func turn(_ orientation: Int) -> String {
        guard (2...8).contains(orientation) else { return "shown as stored" }
        return ["mirrored left to right", "turned 180°", "flipped top to bottom", "transposed", "turned 90° clockwise",
                "transversed", "turned 90° counter-clockwise"][orientation - 2]
    }

    /// Returns upright `pixels` (`width`×`height`, `channels` interleaved) turned back as a file in `orientation`
    /// stores them: the inverse turn (the quarter turns 6 and 8 undo each other; every other one undoes itself).
    public static func stored(_ pixels: [UInt8], width: Int, height: Int, channels: Int,
                              orientation: Int) -> [UInt8] {
        upright(pixels, width: width, height: height, channels: channels,
                orientation: orientation == 6 ? 8 : orientation == 8 ? 6 : orientation)
    }

    /// Makes `pixels` (`width`×`height`, `channels` interleaved) upright where they lie.
    ///
    /// 1 (or unknown) touches nothing; the mirrors and the half turn (2, 3, 4) swap pixels in place, so a whole
    /// image never needs a second buffer; only the quarter turns (5…8) change the row length and build a new one.
    public static func makeUpright(_ pixels: inout [UInt8], width: Int, height: Int, channels: Int,
                                   orientation: Int) {
        guard (2...8).contains(orientation), width > 0, height > 0, channels > 0,
              pixels.count == width * height * channels else { return }
        switch orientation {
        case 2, 3, 4:
            pixels.withUnsafeMutableBufferPointer { flip($0, width: width, height: height, channels: channels,
                                                         orientation: orientation) }
        default:
            pixels = rotated(pixels, width: width, height: height, channels: channels, orientation: orientation)
        }
    }

    /// Mirrors (2), turns half way (3) or flips vertically (4) by swapping pixel pairs.
    private static func flip(_ p: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, channels: Int,
                             orientation: Int) {
        let row = width * channels
        switch orientation {
        case 4:
            for y in 0..<(height / 2) {
                swapRuns(p, row * y, row * (height - 1 - y), count: row)
            }
        case 3:
            // Reversing the whole pixel sequence is a 180° turn.
            let n = width * height
            for i in 0..<(n / 2) { swapPixels(p, i * channels, (n - 1 - i) * channels, channels) }
        default:
            for y in 0..<height {
                let base = y * row
                for x in 0..<(width / 2) {
                    swapPixels(p, base + x * channels, base + (width - 1 - x) * channels, channels)
                }
            }
        }
    }

    @inline(__always)
    private static func swapPixels(_ p: UnsafeMutableBufferPointer<UInt8>, _ a: Int, _ b: Int, _ channels: Int) {
        for c in 0..<channels { p.swapAt(a + c, b + c) }
    }

    private static func swapRuns(_ p: UnsafeMutableBufferPointer<UInt8>, _ a: Int, _ b: Int, count: Int) {
        for i in 0..<count { p.swapAt(a + i, b + i) }
    }

    /// The quarter turns: a stored pixel (x, y) lands at `origin + x·stepX + y·stepY` in the upright image.
    private static func rotated(_ pixels: [UInt8], width: Int, height: Int, channels: Int,
                                orientation: Int) -> [UInt8] {
        // The upright row length is the stored height.
        let h = height
        let (origin, stepX, stepY): (Int, Int, Int) = switch orientation {
        case 5: (0, h, 1)
        case 6: (h - 1, h, -1)
        case 7: (width * h - 1, -h, -1)
        default: ((width - 1) * h, -h, 1)
        }
        return [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, count in
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    var s = y * width * channels
                    var d = origin + y * stepY
                    for _ in 0..<width {
                        let o = d * channels
                        for c in 0..<channels { dst[o + c] = src[s + c] }
                        s += channels
                        d += stepX
                    }
                }
            }
            count = pixels.count
        }
    }
}
