import ArgumentParser
import Foundation
import LookCatalog
import LookCore
import LookFormats
import Recipes
import Workflows

/// `looks rebuild|render-shipped`: cubes made again from their recipes.
extension LooksCommand {
    /// `looks rebuild`.
    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompose a look from its stored recipe and replace its cube, keeping GUID, name and tags.",
            discussion: """
            Use it after a plugin, a LUT file or a look the recipe uses has changed. The recipe is composed at the \
            recipe's size (else the look's) with the plugins on the search path; the new cube replaces the old one in one \
            transaction. Prints whether the cube changed and the largest difference in 16-bit code values. Looks \
            without a recipe (imported or shipped from a colour function) are refused.

            Example:
              lookstudio looks rebuild "Warm Film"
            """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String

        func run() throws {
            let catalog = try global.openCatalog()
            let record = try catalog.resolveLook(look)
            guard let yaml = record.recipeYAML else {
                throw ValidationError("look \(record.guid) (\(shown(record.name))) has no recipe to rebuild it "
                    + "from: it "
                    + "was \(record.sourceFormat == "shipped" ? "shipped as a colour function" : "imported from a \(record.sourceFormat) file")")
            }
            let recipe = try Recipe.parse(yaml, fileName: "recipe of \(record.name)")
            let old = try catalog.cube(record)
            let new = try global.workspace.compose(recipe, size: recipe.size ?? record.cubeSize)
            let result = try catalog.replaceCube(guid: record.guid, with: new)
            guard result.changed else {
                print("unchanged: \(record.guid) (\(shown(record.name))): the recipe gives the stored cube")
                return
            }
            print("rebuilt: \(record.guid) (\(shown(record.name))): cube changed, max difference "
                + "\(Self.maxCodeDifference(old, new)) of 65535 (16-bit code values)")
        }

        /// The largest difference between two cubes in 16-bit code values; a size change compares on the new grid.
        static func maxCodeDifference(_ a: ColorCube, _ b: ColorCube) -> Int {
            let resampled = a.size == b.size ? a : ((try? a.resampled(to: b.size)) ?? a)
            guard resampled.size == b.size else { return 65535 }
            var worst: Float = 0
            for (x, y) in zip(resampled.values, b.values) { worst = max(worst, abs(min(max(x, 0), 1) - min(max(y, 0), 1))) }
            return Int((worst * 65535).rounded())
        }
    }

    /// `looks render-shipped` (hidden): regenerates Looks/ from ShippedLooks.swift; `make looks` runs it.
    struct RenderShipped: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render-shipped",
            abstract: "Regenerate the shipped looks (PNG + YAML) from their recipes or colour functions.",
            shouldDisplay: false)

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Folder to write into.", valueName: "dir")) var out: String = "Looks"

        func run() throws {
            let composer = try global.workspace.composer()
            let written = try ShippedLooks.render(to: out) { look, yaml in
                // Quantised like every stored composed cube, so `looks rebuild` on a fresh catalog finds it unchanged.
                try composer.compose(try Recipe.parse(yaml, fileName: "\(look.stem).yaml"),
                                     size: ShippedLooks.size).quantizedTo16Bit()
            }
            for path in written { print(path) }
        }
    }
}
