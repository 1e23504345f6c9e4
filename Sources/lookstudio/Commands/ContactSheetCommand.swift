import ArgumentParser
import ImageIO
import LookCore
import Rendering

/// `lookstudio contact-sheet`: images side by side in one PNG or JPEG (before/after checks).
struct ContactSheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact-sheet",
        abstract: "Put images side by side at one height, left to right in the order given.",
        discussion: """
        Each image is read through a streamed preview (at most 2048 pixels on the long side), scaled by area \
        averaging to --height rows and placed on a dark grey background.

        Example:
          lookstudio contact-sheet photo.png photo-s40.png photo-s100.png -o sheet.png
        """
    )

    @Argument(help: ArgumentHelp("Images (PNG or JPEG), left to right.", valueName: "image"))
    var images: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Sheet to write (.png or .jpg).", valueName: "file"))
    var output: String

    @Option(help: "Height of each image on the sheet, in pixels.")
    var height: Int = 360

    @OptionGroup var limit: PixelLimitOptions

    @Option(help: "Space around and between images, in pixels.")
    var gutter: Int = 12

    @Option(help: ArgumentHelp("JPEG quality of a .jpg sheet, 1…100 (default \(JPEGImage.defaultQuality)).",
                               valueName: "1…100"))
    var quality: Int = JPEGImage.defaultQuality

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("give at least one image") }
        for (option, value, range) in [("--height", height, 1...4096), ("--gutter", gutter, 0...256)]
        where !range.contains(value) {
            throw ValidationError(TextNumber.outOfRange(option, value, range))
        }
        guard (1...100).contains(quality) else {
            throw ValidationError(TextNumber.outOfRange("--quality", quality, 1...100))
        }
    }

    func run() throws {
        try OutputSafety.check(inputs: images, output: output)
        let sheet = try ContactSheet.make(paths: images, tileHeight: height, gutter: gutter,
                                          maxPixels: limit.maxPixels)
        try ImageFormat.write(sheet, to: output, jpegQuality: quality)
        print(output)
    }
}
