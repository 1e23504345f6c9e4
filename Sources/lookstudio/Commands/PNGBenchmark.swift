import ArgumentParser
import Foundation
import ImageIO

/// `lookstudio bench png`: encode one image with several zlib settings, to choose `PNGWriteOptions.photo`.
struct BenchPNGCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "png",
        abstract: "Time PNG encoding of one image under several zlib levels, filters and strategies.",
        discussion: "Example: lookstudio bench png photo.png"
    )

    @Argument(help: ArgumentHelp("PNG to re-encode (decoded once, encoded in memory for each setting).", valueName: "png"))
    var image: String

    func run() throws {
        let pixels = try PNGImage.read(path: image)
        let settings: [(String, PNGWriteOptions)] = [
            ("photo (current default)", .photo),
            ("level 1, sub", PNGWriteOptions(compressionLevel: 1, filter: .sub, strategy: .standard)),
            ("level 1, paeth", PNGWriteOptions(compressionLevel: 1, filter: .paeth, strategy: .standard)),
            ("level 1, adaptive", PNGWriteOptions(compressionLevel: 1, filter: .adaptive, strategy: .standard)),
            ("level 2, sub", PNGWriteOptions(compressionLevel: 2, filter: .sub, strategy: .standard)),
            ("level 3, sub", PNGWriteOptions(compressionLevel: 3, filter: .sub, strategy: .standard)),
            ("rle, sub", PNGWriteOptions(compressionLevel: 1, filter: .sub, strategy: .rle)),
            ("rle, paeth", PNGWriteOptions(compressionLevel: 1, filter: .paeth, strategy: .rle)),
            ("rle, adaptive", PNGWriteOptions(compressionLevel: 1, filter: .adaptive, strategy: .rle)),
        ]
        print("encode \(pixels.width)×\(pixels.height) \(pixels.channels)-channel \(pixels.depth.rawValue)-bit, one thread")
        for (name, options) in settings {
            let start = DispatchTime.now().uptimeNanoseconds
            let bytes = try PNGImage.encode(pixels, options: options)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print(String(format: "  %-26@ %6.2f s  %7.2f MB", name, seconds, Double(bytes.count) / 1e6))
        }
    }
}
