import ArgumentParser
import Foundation
import ImageIO
import LookCore
import LookFormats

/// `lookstudio convert`: LUT file to LUT file, no catalog.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a LUT between .cube, .3dl and PNG (tiled, strip, hald).",
        discussion: """
        The output format follows OUT's extension. `.cube` keeps 1D shapers and input domains; PNG and .3dl hold \
        a plain 0…1 cube, so other LUTs are baked first and values outside 0…1 are clamped (with a warning).
        A PNG input's layout is detected from its pixels; when a 512×512 image could be tiled or Hald and the \
        pixels do not tell, pass --input-layout. OUT may not be IN (nor a link to it): that is refused.

        Examples:
          lookstudio convert warm.cube warm.png                 # 16-bit tiled PNG (strip if the size is not a square)
          lookstudio convert edited.png edited.cube
          lookstudio convert film.3dl film.png --layout hald --size 64 --bits 8
        """
    )

    @Argument(help: ArgumentHelp("LUT to read (.cube, .3dl, .png).", valueName: "in"))
    var input: String

    @Argument(help: ArgumentHelp("File to write; its extension picks the format.", valueName: "out"))
    var output: String

    @OptionGroup var file: LUTFileOptions

    @Option(help: "Layout of a PNG input: auto, tiled, strip or hald.")
    var inputLayout: LayoutChoice = .auto

    @Option(help: "Resample to this cube size (2…256) before writing.")
    var size: Int?

    func validate() throws {
        if let size { try checkCubeSize(size) }
        try file.check(output: output)
    }

    func run() throws {
        try OutputSafety.check(inputs: [input], output: output)
        let loaded = try LUTFormat.read(path: input, layout: inputLayout.layout)
        report(loaded.warnings, file: input)
        let warnings = try Folders.withParents(of: output) {
            try LUTFormat.write(loaded.lut, to: output, options: file.options(size: size))
        }
        report(warnings, file: output)
    }
}
