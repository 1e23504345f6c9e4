import ArgumentParser
import ColorManagement
import Foundation
import ImageIO
import LookCore

/// `lookstudio info IMAGE`: an image's format, size, depth and colour description.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe an image: format, size, colour type, bits per sample, colour description and colour space.",
        discussion: """
        The size line gives the colour type and bit depth as the file stores them (grey, grey+alpha, RGB, RGBA or \
        palette; 1 to 16 bits); LookStudio reads every image as RGB or RGBA at 8 or 16 bits. The colour \
        description is what the file says (ICC profile, PNG sRGB/gAMA/cHRM chunks, HEIF nclx); the colour space is \
        how LookStudio reads it (untagged means sRGB). A profile LittleCMS rejects is an error. The size is the \
        image as shown: a JPEG stored turned (EXIF orientation, as phones store portraits) is read upright by \
        every command, and the line says how it is stored.

        JSON (--json): {"file": "…", "format": "png", "width": 4032, "height": 3024, "color_type": "RGB", \
        "stored_depth": 8, "channels": 3, "depth": 8, "color_description": "ICC profile (536 bytes)", \
        "color_space": "Display P3", "icc_bytes": 536, "orientation": 1, "warning": null}; color_type and \
        stored_depth are as stored, width, height, channels and depth as read; icc_bytes is null without an ICC \
        profile; orientation is the EXIF orientation the pixels are turned upright by (1: stored upright).

        Examples:
          lookstudio info photo.heic
          lookstudio info --json scan.tif
        """
    )

    @Argument(help: ArgumentHelp("Image file.", valueName: "image"))
    var image: String

    @Flag(help: "Print one JSON object (documented above).")
    var json = false

    @OptionGroup var limit: PixelLimitOptions

    struct Report: Encodable {
        var file: String
        var format: String
        var width: Int
        var height: Int
        var colorType: String
        var storedDepth: Int
        var channels: Int
        var depth: Int
        var colorDescription: String
        var colorSpace: String
        @NullEncoded var iccBytes: Int?
        var orientation: Int
        @NullEncoded var warning: String?

        enum CodingKeys: String, CodingKey {
            case file, format, width, height, channels, depth, orientation, warning
            case colorDescription = "color_description", colorSpace = "color_space", iccBytes = "icc_bytes"
            case colorType = "color_type", storedDepth = "stored_depth"
        }
    }

    func run() throws {
        // A LUT file is the commonest wrong input here; say which command reads it rather than list image formats.
        if ["cube", "3dl", "clf"].contains((image as NSString).pathExtension.lowercased()),
           FileManager.default.fileExists(atPath: image) {
            throw ValidationError("\(image) is a LUT file, not an image: `lookstudio inspect \(image)` describes it")
        }
        let info = try ImageFormat.info(path: image, maxPixels: limit.maxPixels)
        let (profile, warning) = try ImageColor.profile(for: info.color, file: image)
        let report = Report(file: image, format: info.format.rawValue, width: info.width, height: info.height,
                            colorType: info.stored.colorType.rawValue, storedDepth: info.stored.bitDepth,
                            channels: info.channels, depth: info.depth.rawValue,
                            colorDescription: info.color.summary, colorSpace: profile.description,
                            iccBytes: info.color.iccProfile?.data.count, orientation: info.orientation,
                            warning: warning)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        if let warning { printError("warning: \(warning)") }
        print("""
            file:        \(image)
            format:      \(info.format.rawValue)
            size:        \(info.width)×\(info.height), \(info.stored)\(Self.turned(info))
            colour:      \(info.color.summary)
            read as:     \(profile.description)
            """)
    }

    /// How a file stored turned is shown: its stored size and its EXIF orientation, after the upright size.
    static func turned(_ info: ImageInfo) -> String {
        guard info.orientation != 1 else { return "" }
        let stored = JPEGOrientation.uprightSize(width: info.width, height: info.height, orientation: info.orientation)
        return " (stored \(stored.width)×\(stored.height) and \(JPEGOrientation.turn(info.orientation)) to show: EXIF "
            + "orientation \(info.orientation))"
    }
}
