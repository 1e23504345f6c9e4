import ArgumentParser
import Foundation
import ImageIO
import LookCore
import LookFormats

/// `lookstudio generate`: write an identity (reference) cube to edit in an image editor.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write an identity cube (a reference image to edit in any image editor).",
        discussion: """
        Open the PNG next to a photo in Photoshop, GIMP, Affinity…, apply colour-only edits to both \
        (curves, levels, hue/saturation, channel mixer — never blur, sharpen or resize), save the cube PNG, \
        then `lookstudio import` or `lookstudio apply --lut` it.

        PNG layouts (N entries per axis, red varies fastest):
          tiled  N = T² (4, 16, 64, …): an N·T × N·T image of T×T tiles; blue picks the tile, red runs along x and \
        green down y inside it. N=16 → 64×64, N=64 → 512×512. The GPUImage / Core Image "lookup" style.
          strip  any N: an N² × N image; blue picks a column of N-wide squares.
          hald   N = L² (16, 36, 64, …): an L³ × L³ Hald CLUT (ImageMagick, RawTherapee, G'MIC). N=64 → 512×512.
        The output format follows the extension: .png, .cube or .3dl.

        Examples:
          lookstudio generate --size 64 -o identity.png
          lookstudio generate --size 33 --layout strip --bits 16 -o identity33.png
          lookstudio generate --size 17 -o identity.cube
        """
    )

    @Option(help: "Entries per axis (2…256; tiled and hald need a square: 4, 16, 64, …).")
    var size: Int = 64

    @Option(help: "PNG layout: tiled, strip or hald.")
    var layout: CubeLayout = .tiled

    @Option(help: "PNG bits per sample, 8 or 16 (default 8), or .3dl output bits, 10, 12 or 16 (default 12).")
    var bits: Int?

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.png, .cube or .3dl).", valueName: "file"))
    var output: String

    func validate() throws {
        guard ColorCube.sizeRange.contains(size) else {
            throw ValidationError(TextNumber.outOfRange("--size", size, ColorCube.sizeRange)
                                  + " (4, 16 and 64 are the usual sizes)")
        }
        try checkLUTBits(bits, output: output)
    }

    func run() throws {
        let cube = try ColorCube.identity(size: size)
        // 8-bit PNGs are what image editors open without asking; other formats keep their own default.
        let isPNG = (output as NSString).pathExtension.lowercased() == "png"
        _ = try Folders.withParents(of: output) {
            try LUTFormat.write(LUT(cube: cube, title: "LookStudio identity \(size)"), to: output,
                                options: .init(layout: layout, bits: bits ?? (isPNG ? 8 : nil)))
        }
    }
}
