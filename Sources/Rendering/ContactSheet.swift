import ColorManagement
import ImageIO

/// Before/after sheets: images side by side at one height on a grey background, for a quick visual check.
public enum ContactSheet {
    /// Each photo is read through a streamed preview this long on its long side (as scene analysis reads it).
    public static let previewLongSide = 2048

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
    public static func make(paths: [String], tileHeight: Int = 360, gutter: Int = 12,
                            maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) -> PixelBuffer {
        var images: [PixelBuffer] = []
        for path in paths {
            let preview = try ImagePreview(path: path, maxLongSide: previewLongSide, maxPixels: maxPixels)
            images.append(ImageColor.previewInSRGB(preview.pixels, color: preview.color, file: path))
        }
        return try make(images, tileHeight: tileHeight, gutter: gutter)
    }

    /// 8-bit RGB at `height` rows, width in proportion (the box filter of `PreviewScaler`).
    static func scaled(_ image: PixelBuffer, height: Int) -> (width: Int, height: Int, samples: [UInt8]) {
        let width = max(1, (image.width * height + image.height / 2) / image.height)
        guard let scaled = try? PreviewScaler.resize(image, width: width, height: height),
              case .eight(let samples) = scaled.samples else { return (width, height, []) }
        return (width, height, samples)
    }
}
