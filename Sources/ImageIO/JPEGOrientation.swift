/// Turns pixels stored in an EXIF orientation into upright pixels, so every later stage sees the image as viewed.
public enum JPEGOrientation {
    /// Width and height after making an image of `width`×`height` in `orientation` upright (5…8 swap them).
    public static func uprightSize(width: Int, height: Int, orientation: Int) -> (width: Int, height: Int) {
        (5...8).contains(orientation) ? (height, width) : (width, height)
    }

    /// Returns `pixels` (`width`×`height`, `channels` interleaved) rotated/flipped upright; 1 (or unknown) is a copy.
    ///
    /// EXIF 2.3 tag 0x0112: 2 mirror horizontally, 3 rotate 180°, 4 mirror vertically, 5 transpose, 6 rotate 90°
    /// clockwise, 7 transverse, 8 rotate 90° counter-clockwise.
    public static func upright(_ pixels: [UInt8], width: Int, height: Int, channels: Int,
                               orientation: Int) -> [UInt8] {
        guard (2...8).contains(orientation) else { return pixels }
        let size = uprightSize(width: width, height: height, orientation: orientation)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let (dx, dy): (Int, Int)
                        switch orientation {
                        case 2: (dx, dy) = (width - 1 - x, y)
                        case 3: (dx, dy) = (width - 1 - x, height - 1 - y)
                        case 4: (dx, dy) = (x, height - 1 - y)
                        case 5: (dx, dy) = (y, x)
                        case 6: (dx, dy) = (height - 1 - y, x)
                        case 7: (dx, dy) = (height - 1 - y, width - 1 - x)
                        default: (dx, dy) = (y, width - 1 - x)
                        }
                        let s = (y * width + x) * channels
                        let d = (dy * size.width + dx) * channels
                        for c in 0..<channels { dst[d + c] = src[s + c] }
                    }
                }
            }
        }
        return out
    }
}
