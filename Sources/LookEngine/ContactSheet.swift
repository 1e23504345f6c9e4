import ImageIO

/// Before/after sheets: images side by side at one height on a grey background, for a quick visual check.
public enum ContactSheet {
    /// Lays `images` out in one row, each scaled (area average) to `tileHeight` rows, `gutter` pixels apart.
    public static func make(_ images: [PixelBuffer], tileHeight: Int = 360, gutter: Int = 12) throws(ImageIOError)
        -> PixelBuffer {
        guard !images.isEmpty, tileHeight > 0, gutter >= 0 else {
            throw .invalidRows(file: "contact sheet", detail: "needs at least one image and a positive tile height")
        }
        let tiles = images.map { scaled($0, height: tileHeight) }
        let width = tiles.reduce(gutter) { $0 + $1.width + gutter }
        let height = tileHeight + 2 * gutter
        var out = [UInt8](repeating: 48, count: width * height * 3)
        var x0 = gutter
        for tile in tiles {
            for y in 0..<tile.height {
                let src = y * tile.width * 3, dst = ((y + gutter) * width + x0) * 3
                out.replaceSubrange(dst..<(dst + tile.width * 3), with: tile.samples[src..<(src + tile.width * 3)])
            }
            x0 += tile.width + gutter
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(out))
    }

    /// Reads each file through its streamed preview (≤ 2048 px, so huge PNGs are never held whole) and lays
    /// them out as `make` does.
    public static func make(paths: [String], tileHeight: Int = 360, gutter: Int = 12) throws(ImageIOError)
        -> PixelBuffer {
        var images: [PixelBuffer] = []
        for path in paths { images.append(try SceneAnalysis(path: path, detectFaces: false).preview) }
        return try make(images, tileHeight: tileHeight, gutter: gutter)
    }

    /// 8-bit RGB at `height` rows (width in proportion), each output pixel the mean of the source pixels it covers.
    static func scaled(_ image: PixelBuffer, height: Int) -> (width: Int, height: Int, samples: [UInt8]) {
        let width = max(1, (image.width * height + image.height / 2) / image.height)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let sy0 = y * image.height / height, sy1 = max(sy0 + 1, (y + 1) * image.height / height)
            for x in 0..<width {
                let sx0 = x * image.width / width, sx1 = max(sx0 + 1, (x + 1) * image.width / width)
                var sum = SIMD3<Float>()
                for sy in sy0..<sy1 {
                    for sx in sx0..<sx1 {
                        sum += SIMD3(image.normalized(x: sx, y: sy, channel: 0),
                                     image.normalized(x: sx, y: sy, channel: 1),
                                     image.normalized(x: sx, y: sy, channel: 2))
                    }
                }
                let mean = sum / Float((sy1 - sy0) * (sx1 - sx0)) * 255
                let i = (y * width + x) * 3
                out[i] = UInt8(min(255, max(0, mean.x.rounded())))
                out[i + 1] = UInt8(min(255, max(0, mean.y.rounded())))
                out[i + 2] = UInt8(min(255, max(0, mean.z.rounded())))
            }
        }
        return (width, height, out)
    }
}
