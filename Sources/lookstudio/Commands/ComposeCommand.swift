import ArgumentParser
import Foundation
import LookCore
import LookEngine
import LookFormats
import PluginHost

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

        Examples:
          lookstudio compose warm.yaml -o warm.cube
          lookstudio compose warm.yaml --size 33 --explain
          lookstudio compose warm.yaml --save --name "Warm Film 2"
        """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Recipe file (YAML).", valueName: "recipe"))
    var recipe: String

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("Write the cube here; the extension picks the format (.cube, .3dl, .png).",
                               valueName: "file"))
    var output: String?

    @Flag(help: "Store the cube in the catalog as a look, with the recipe as its provenance; prints its GUID.")
    var save = false

    @Option(help: "Name of the saved look (default: the recipe's name).")
    var name: String?

    @Option(help: "Output cube size, 2…256 (default: the recipe's size, else 64).")
    var size: Int?

    @Option(help: "Layout of a PNG output: tiled, strip or hald (default: tiled for square sizes, else strip).")
    var layout: CubeLayout?

    @Option(help: "PNG bits per sample (8 or 16, default 16), or .3dl output bits (10, 12, 16; default 12).")
    var bits: Int?

    @Flag(help: "Print each step's resolution and the composition error per cube size.")
    var explain = false

    @Flag(help: "With --explain, print the report as one JSON object (see docs/RECIPES.md).")
    var json = false

    func validate() throws {
        guard output != nil || save || explain else {
            throw ValidationError("nothing to do: give -o FILE, --save or --explain")
        }
        if name != nil && !save { throw ValidationError("--name names the look that --save stores; add --save") }
        if json && !explain { throw ValidationError("--json prints the --explain report; add --explain") }
        if let size, !ColorCube.sizeRange.contains(size) {
            throw ValidationError("--size \(size) is out of range: use 2…256 (4, 16, 33 and 64 are usual)")
        }
    }

    func run() throws {
        let recipe = try Recipe.load(path: self.recipe)
        let composer = RecipeSupport.composer(global)
        if explain {
            let report = try composer.explain(recipe, size: size)
            print(json ? try jsonString(report) : report.text)
        }
        guard output != nil || save else { return }
        let cube = try composer.compose(recipe, size: size)
        if let output {
            let warnings = try LUTFormat.write(LUT(cube: cube, title: recipe.name), to: output,
                                               options: .init(layout: layout, bits: bits))
            report(warnings, file: output)
        }
        if save {
            print(try RecipeSupport.save(cube, recipe: recipe, name: name, global: global))
        }
    }
}

/// What the commands that take recipes share: the composer wired to the plugins and the catalog.
enum RecipeSupport {
    /// A composer over the plugins on the search path, resolving looks in the catalog.
    static func composer(_ global: GlobalOptions) -> Composer {
        let registry = PluginRegistry.load(searchPaths: PluginSearchPath.standard(pluginDirs: global.pluginDir))
        for refusal in registry.refusals { printError("warning: \(refusal)") }
        return Composer(registry: registry, resolveLook: lookResolver(global))
    }

    /// Finds looks for recipe steps.
    static func lookResolver(_ global: GlobalOptions) -> @Sendable (String) throws -> ResolvedLook {
        { reference in
            throw ValidationError("look \"\(reference)\": this build has no catalog to find looks in; "
                + "use a `lut:` step with the look's file instead")
        }
    }

    /// Stores a composed cube as a catalog look with its recipe; returns the new look's GUID.
    static func save(_ cube: ColorCube, recipe: Recipe, name: String?, global: GlobalOptions) throws -> String {
        throw ValidationError("--save needs the catalog, which this build does not have yet")
    }
}
