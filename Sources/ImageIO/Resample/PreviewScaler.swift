import Pixels

/// Shrinks a photo for previews: 8-bit RGB at most `longSide` pixels on its long side, each output pixel the mean
/// of the source pixels it covers (a box filter, which cannot ring or alias the way point sampling does).
public enum PreviewScaler {
    /// Output width and height for an image of `width × height` fitted to `longSide` (never enlarged).
    public static func fittedSize(width: Int, height: Int, longSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard long > longSide else { return (width, height) }
        let scale = Double(longSide) / Double(long)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The image as 8-bit RGB fitted to `longSide` (alpha dropped, 16-bit reduced by rounding).
    public static func downscale(_ image: PixelBuffer, longSide: Int) throws(ImageIOError) -> PixelBuffer {
        let (ow, oh) = fittedSize(width: image.width, height: image.height, longSide: longSide)
        return try resize(image, width: ow, height: oh)
    }

    /// The image as 8-bit RGB of exactly `ow × oh` pixels (not larger than the source on either side).
    public static func resize(_ image: PixelBuffer, width ow: Int, height oh: Int) throws(ImageIOError) -> PixelBuffer {
        var out = [UInt8](repeating: 0, count: ow * oh * 3)
        out.withUnsafeMutableBufferPointer { dst in
            switch image.samples {
            case .eight(let s):
                s.withUnsafeBufferPointer { box($0, image, maxCode: 255, into: dst, width: ow, height: oh) }
            case .sixteen(let s):
                s.withUnsafeBufferPointer { box($0, image, maxCode: 65535, into: dst, width: ow, height: oh) }
            }
        }
        return try PixelBuffer(width: ow, height: oh, channels: 3, samples: .eight(out))
    }

    private static func box<S: FixedWidthInteger & UnsignedInteger>(
        _ src: UnsafeBufferPointer<S>, _ image: PixelBuffer, maxCode: Float,
        into dst: UnsafeMutableBufferPointer<UInt8>, width ow: Int, height oh: Int
    ) {
        let w = image.width, h = image.height, c = image.channels
        // Source column span of each output column, computed once rather than per row.
        let spans = (0..<ow).map { x -> (Int, Int) in
            let x0 = x * w / ow
            return (x0, max(x0 + 1, (x + 1) * w / ow))
        }
        for y in 0..<oh {
            let y0 = y * h / oh, y1 = max(y0 + 1, (y + 1) * h / oh)
            for x in 0..<ow {
                let (x0, x1) = spans[x]
                var r: Float = 0, g: Float = 0, b: Float = 0
                for sy in y0..<y1 {
                    var i = (sy * w + x0) * c
                    for _ in x0..<x1 {
                        r += Float(src[i])
                        g += Float(src[i + 1])
                        b += Float(src[i + 2])
                        i += c
                    }
                }
                let k = 255 / (maxCode * Float((y1 - y0) * (x1 - x0)))
                let o = (y * ow + x) * 3
                dst[o] = UInt8(min(255, (r * k).rounded()))
                dst[o + 1] = UInt8(min(255, (g * k).rounded()))
                dst[o + 2] = UInt8(min(255, (b * k).rounded()))
            }
        }
    }
}
