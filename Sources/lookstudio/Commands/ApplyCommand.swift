import ArgumentParser
import ImageIO
import LookCore
import LookFormats
import Workflows

/// `lookstudio apply`: apply a catalog look, a LUT file or a recipe (composed into one cube) to an image.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a LUT to an image (PNG, JPEG, TIFF, WebP, HEIF, AVIF), colour-managed.",
        discussion: """
        The LUT becomes one cube; strength scales it against the identity cube (I + s·(L − I)), so 0 returns \
        the image unchanged bit for bit, 100 is the look as authored and up to 200 exaggerates it. 8- and 16-bit \
        RGB and RGBA images keep their depth; alpha passes through; grey and palette images come out as RGB(A).

        Examples:
          lookstudio apply --look "Warm Film" photo.png photo-warm.png
          lookstudio apply --lut edited.png photo.png photo-edited.png
          lookstudio apply --lut film.cube --strength 60 --interp trilinear in.png out.png
          lookstudio apply --recipe warm.yaml photo.png photo-warm.png    # the chain, composed into one cube
          lookstudio apply --look "Warm Film" iphone.heic graded.tif --output-profile display-p3
          lookstudio apply --look "Warm Film" --in-place photo.jpg    # replaces it, keeps photo.orig.jpg

        OUT may not be IN (nor a link to it, nor the LUT or recipe): that is refused. --in-place replaces IN on \
        purpose: the result is written beside it and renamed over it, after IN is kept as NAME.orig.EXT (a hard \
        link); a backup already there is never overwritten (the run is refused), and --no-backup keeps none.

        Colour: the image is read in its own space (ICC profile, PNG sRGB/gAMA/cHRM, HEIF nclx; untagged = \
        sRGB), converted into the look's working space (sRGB for files, the catalog's for --look) and back into \
        the output space; the conversions are composed into the one cube (docs/COLOR.md); a note says when a \
        tagged image is converted. --raw-codes applies the look to the stored codes as they are instead, as \
        ffmpeg's lut3d and most LUT tools do: right when the LUT was made for the file's own encoding (a camera \
        log, an Adobe RGB grade), the output keeps the input's profile. PNG and TIFF stream \
        in bands and keep 16 bits; JPEG streams too (one with an EXIF rotation is decoded whole to turn it \
        upright); JPEG, WebP, HEIF and AVIF are 8-bit; WebP, HEIF and AVIF are decoded whole.

        A look made by `lookstudio extract` knows which colours its photo pairs showed: when a third or more \
        of IN has colours they did not, a note says how much, since there the look is extrapolated (docs/EXTRACT.md).
        """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("LUT file: .cube, .3dl or a cube PNG.", valueName: "file"))
    var lut: String?

    @Option(help: ArgumentHelp("Recipe (YAML), composed into one cube at its size (default 64).", valueName: "file"))
    var recipe: String?

    @Option(help: ArgumentHelp("Catalog look: GUID, unique GUID prefix (8+ characters) or name.", valueName: "look"))
    var look: String?

    @Option(help: "Layout of a PNG LUT: auto, tiled, strip or hald.")
    var layout: LayoutChoice = .auto

    @Option(help: "Look strength in percent, 0…200.")
    var strength: Double = 100

    @Option(help: "Interpolation: tetrahedral or trilinear.")
    var interp: Interpolation = .tetrahedral

    @Flag(help: ArgumentHelp("Apply the look to the file's stored codes, ignoring its colour profile (no conversion "
                             + "into the look's working space and back; the output keeps the input's profile), as "
                             + "ffmpeg and most LUT tools do. Default: colour-managed."))
    var rawCodes = false

    @Option(help: "Refuse images with more pixels than this (protects memory from hostile headers).")
    var maxPixels: Int = PNGReader.defaultMaxPixels

    @OptionGroup var color: ColorOptions

    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Print the time spent decoding, applying and encoding to stderr.")
    var timings = false

    @Argument(help: ArgumentHelp("Image to read (format from its first bytes).", valueName: "in"))
    var input: String

    @Argument(help: ArgumentHelp("Image to write (format from its extension); written to a temporary file and "
                                 + "renamed. Omitted with --in-place.", valueName: "out"))
    var output: String?

    @OptionGroup var inPlace: InPlaceOptions

    func validate() throws {
        let sources = [lut, recipe, look].compactMap { $0 }
        guard sources.count == 1 else {
            throw ValidationError(sources.isEmpty ? "give what to apply: --look GUID|NAME, --lut FILE or --recipe FILE"
                                                  : "give only one of --look, --lut and --recipe")
        }
        _ = try strengthFactor(strength)
        if inPlace.inPlace, output != nil {
            throw ValidationError("give no OUT with --in-place: the result replaces IN (\(input))")
        }
        if !inPlace.inPlace, output == nil {
            throw ValidationError("give OUT, the image to write, or --in-place to replace IN")
        }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        if rawCodes, color.outputProfile.lowercased() != "keep" {
            throw ValidationError("--raw-codes keeps the input's profile; give no --output-profile with it")
        }
    }

    func run() throws {
        let source: ApplyJob.Source
        if let recipe {
            source = .recipe(recipe)
        } else if let look {
            source = .catalog(look)
        } else if let lut {
            source = .file(lut, layout: layout.layout)
        } else {
            throw ValidationError("give what to apply: --look GUID|NAME, --lut FILE or --recipe FILE")
        }
        var request = ApplyJob.Request(source: source, input: input, output: inPlace.inPlace ? nil : output)
        request.strength = strength
        request.interpolation = interp
        request.maxPixels = maxPixels
        request.color = try color.settings()
        request.color.rawCodes = rawCodes
        request.encoder = outputOptions.encoder
        request.metadata = outputOptions.metadata
        request.keepBackup = !inPlace.noBackup
        Interruption.exitMessage(inPlace.inPlace
            ? "error: interrupted while applying to \(input); it is unchanged and nothing was written"
            : "error: interrupted while writing \(output ?? input); nothing was written")
        let applied = try ApplyJob(request).run(in: global.workspace)
        Interruption.exitMessage(nil)
        if let backup = applied.backup { printError("\(input): replaced; the original is kept as \(backup)") }
        for warning in applied.warnings { printError("warning: \(warning)") }
        if let (name, share) = applied.extrapolated {
            printError(String(format: "note: %.0f %% of %@'s pixels have colours the pairs \"%@\" was extracted from "
                              + "did not show; there the look is extrapolated and may stray from the edit (a look "
                              + "extracted with a second pair that shows such colours carries further)",
                              share * 100, input, name))
        }
        if let converted = applied.timings?.convertedFrom {
            printError("note: \(input) is \(converted.input); it was converted into the look's working space, "
                       + "\(converted.workingSpace), for the look (--raw-codes applies the look to its stored codes)")
        }
        if timings, let t = applied.timings {
            printError(String(format: "timings: decode %.3f s, apply %.3f s, encode %.3f s, wall %.3f s, peak memory %.0f MB",
                              t.decode, t.apply, t.encode, t.wall, Double(peakMemoryKilobytes()) / 1024))
        }
    }
}
