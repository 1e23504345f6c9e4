import ArgumentParser
import ImageIO
import LookCore
import LookEngine
import LookFormats

/// `lookstudio apply`: apply a LUT file (or, later, a catalog look or recipe) to a PNG image.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a LUT to a PNG image, streaming it in bands of rows.",
        discussion: """
        The LUT becomes one cube; strength scales it against the identity cube (I + s·(L − I)), so 0 returns \
        the image unchanged bit for bit, 100 is the look as authored and up to 200 exaggerates it. 8- and 16-bit \
        RGB and RGBA images keep their depth; alpha passes through; grey and palette images come out as RGB(A).

        Examples:
          lookstudio apply --lut edited.png photo.png photo-edited.png
          lookstudio apply --lut film.cube --strength 60 --interp trilinear in.png out.png
        """
    )

    @Option(help: ArgumentHelp("LUT file: .cube, .3dl or a cube PNG.", valueName: "file"))
    var lut: String

    @Option(help: "Layout of a PNG LUT: auto, tiled, strip or hald.")
    var layout: LayoutChoice = .auto

    @Option(help: "Look strength in percent, 0…200.")
    var strength: Double = 100

    @Option(help: "Interpolation: tetrahedral or trilinear.")
    var interp: Interpolation = .tetrahedral

    @Option(help: "Refuse images with more pixels than this (protects memory from hostile headers).")
    var maxPixels: Int = PNGReader.defaultMaxPixels

    @Flag(help: "Print the time spent decoding, applying and encoding to stderr.")
    var timings = false

    @Argument(help: ArgumentHelp("Image to read (PNG).", valueName: "in"))
    var input: String

    @Argument(help: ArgumentHelp("Image to write (PNG); written to a temporary file and renamed.", valueName: "out"))
    var output: String

    func validate() throws {
        _ = try strengthFactor(strength)
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
    }

    func run() throws {
        let loaded = try LUTFormat.read(path: lut, layout: layout.layout)
        report(loaded.warnings, file: lut)
        let cube = try loaded.lut.bakedCube().scaled(strength: try strengthFactor(strength))
        var options = ImagePipeline.Options()
        options.maxPixels = maxPixels
        let t = try ImagePipeline.apply(cube, interpolation: interp, input: input, output: output, options: options)
        if timings {
            printError(String(format: "timings: decode %.3f s, apply %.3f s, encode %.3f s, wall %.3f s, peak memory %.0f MB",
                              t.decode, t.apply, t.encode, t.wall, Double(peakMemoryKilobytes()) / 1024))
        }
    }
}
