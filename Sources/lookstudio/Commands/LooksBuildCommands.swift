import ArgumentParser
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
            let rebuilt = try global.workspace.rebuildLook(look)
            let record = rebuilt.look
            guard rebuilt.changed else {
                print("unchanged: \(named(record)): the recipe gives the stored cube")
                return
            }
            print("rebuilt: \(named(record)): cube changed, max difference "
                + "\(rebuilt.maxCodeDifference) of 65535 (16-bit code values)")
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
            for path in try global.workspace.renderShippedLooks(to: out) { print(path) }
        }
    }
}
