import Foundation
import ImageIO

/// PNG encoding of one image under several zlib settings (how `PNGWriteOptions.photo` was chosen).
public enum EncodeBenchmark {
    /// Decodes `image` once, encodes it in memory under each setting and reports seconds and size.
    public static func run(image: String) throws -> String {
        let pixels = try PNGImage.read(path: image)
        let settings: [(String, PNGWriteOptions)] = [
            ("photo (rle, adaptive)", .photo),
            ("grainy photo (level 1)", .grainyPhoto),
            ("level 1, sub", PNGWriteOptions(compressionLevel: 1, filter: .sub, strategy: .standard)),
            ("level 1, paeth", PNGWriteOptions(compressionLevel: 1, filter: .paeth, strategy: .standard)),
            ("level 2, sub", PNGWriteOptions(compressionLevel: 2, filter: .sub, strategy: .standard)),
            ("level 3, sub", PNGWriteOptions(compressionLevel: 3, filter: .sub, strategy: .standard)),
            ("rle, sub", PNGWriteOptions(compressionLevel: 1, filter: .sub, strategy: .rle)),
            ("rle, paeth", PNGWriteOptions(compressionLevel: 1, filter: .paeth, strategy: .rle)),
        ]
        var lines = ["encode \(pixels.width)×\(pixels.height) \(pixels.channels)-channel \(pixels.depth.rawValue)-bit, "
            + "deflate on every core"]
        for (name, options) in settings {
            let start = DispatchTime.now().uptimeNanoseconds
            let bytes = try PNGImage.encode(pixels, options: options)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            lines.append(String(format: "  %-24@ %6.2f s  %7.2f MB", name, seconds, Double(bytes.count) / 1e6))
        }
        return lines.joined(separator: "\n")
    }
}
