import ArgumentParser
import Foundation
import ImageIO
import LookCore
import LookFormats
import Workflows

/// `lookstudio compose`: merge a recipe's chain of adjustments, looks and LUT files into one cube.
struct ComposeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Compose a recipe (YAML) into one cube: write it, store it in the catalog, or explain it.",
        discussion: """
        Every step is evaluated in Float on the output grid and blended against its input by its strength; the \
        whole chain becomes one N³ cube, so applying it costs one lookup per pixel however long the chain is. \
        The size is --size, else the recipe's `size:`, else 64. See docs/RECIPES.md for the recipe format.

        --explain prints what each step resolved to (plugin file and version, look GUID and size) and the \
        composition error: the chain evaluated step by step in Float against the composed cube over 10 000 fixed \
        probe colours, max and mean in 8-bit code values, at the chosen size and at 4, 16, 33 and 64, so you can \
        pick the smallest size that is good enough.

        --preview PHOTO writes a gallery page for the recipe instead (-o names its folder, default \
        RECIPE-preview): one card per step showing the chain's cumulative result after that step on each photo, \
        with the exact strength slider and split view of `lookstudio gallery`, and the --explain report on top. \
        Previews are cached in the folder, so rerun it after each edit of the recipe.

        Examples:
          lookstudio compose warm.yaml -o warm.cube
          lookstudio compose warm.yaml --size 33 --explain
          lookstudio compose warm.yaml --save --name "Warm Film 2"
          lookstudio compose warm.yaml --save --replace     # a new version of the look named in the recipe
          lookstudio compose warm.yaml --preview photo.jpg -o warm-preview
        """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Recipe file (YAML).", valueName: "recipe"))
    var recipe: String

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("Write the cube here; the extension picks the format (.cube, .3dl, .png). With "
                               + "--preview, the gallery folder.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Write a gallery page of the recipe's steps on this photo (repeatable).",
                               valueName: "photo"))
    var preview: [String] = []

    @Option(name: .customLong("preview-size"), help: "Long side of --preview images, in pixels.")
    var previewSize: Int = 768

    @Flag(help: "Store the cube in the catalog as a look, with the recipe as its provenance; prints its GUID.")
    var save = false

    @Flag(help: ArgumentHelp("With --save: store the cube as a new version of the existing look of that name "
                             + "(same GUID; older versions kept as GUID@N) instead of refusing the name."))
    var replace = false

    @Option(help: ArgumentHelp("With --save: store the cube as a new version of this look (GUID, prefix or name).",
                               valueName: "look"))
    var asVersion: String?

    @Option(help: "Name of the saved look (default: the recipe's name).")
    var name: String?

    @Option(help: "Output cube size, 2…256 (default: the recipe's size, else 64).")
    var size: Int?

    @OptionGroup var file: LUTFileOptions

    @Flag(help: "Print each step's resolution and the composition error per cube size.")
    var explain = false

    @Flag(help: "With --explain, print the report as one JSON object (see docs/RECIPES.md).")
    var json = false

    func validate() throws {
        if let output { try file.check(output: output) }
        guard output != nil || save || explain || !preview.isEmpty else {
            throw ValidationError("nothing to do: give -o FILE, --save, --explain or --preview PHOTO")
        }
        if !preview.isEmpty { try checkGallerySize(previewSize, option: "--preview-size") }
        if name != nil && !save { throw ValidationError("--name names the look that --save stores; add --save") }
        if (replace || asVersion != nil) && !save {
            throw ValidationError("--replace and --as-version say how --save stores the look; add --save")
        }
        if replace && asVersion != nil { throw ValidationError("give only one of --replace and --as-version") }
        if json && !explain { throw ValidationError("--json prints the --explain report; add --explain") }
        if let size, !ColorCube.sizeRange.contains(size) {
            throw ValidationError(TextNumber.outOfRange("--size", size, ColorCube.sizeRange)
                                  + " (4, 16, 33 and 64 are usual)")
        }
    }

    func run() throws {
        let workspace = try global.workspace
        let job = try ComposeJob(recipe: recipe, size: size, in: workspace)
        if let output, preview.isEmpty {
            try OutputSafety.check(inputs: job.inputFiles, output: output)
        }
        if explain {
            let report = try job.explain()
            print(json ? try jsonString(report) : report.text)
        }
        if !preview.isEmpty {
            try writePreview(job)
            if save { print(try store(try job.cube(), job: job, in: workspace)) }
            return
        }
        guard output != nil || save else { return }
        let lattice = try job.lattice()
        if let output { report(try job.write(lattice, to: output, options: file.options()), file: output) }
        if save { print(try store(try lattice.materialized(), job: job, in: workspace)) }
    }
}
