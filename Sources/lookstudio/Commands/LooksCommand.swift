import ArgumentParser
import Foundation
import LookCatalog
import LookCore
import LookEngine

/// `lookstudio looks …`: list, show and remove catalog looks.
struct LooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "looks",
        abstract: "List, show, rebuild and remove the looks in the catalog.",
        subcommands: [List.self, Show.self, Rebuild.self, Remove.self, RenderShipped.self])

    /// `looks list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List looks by name.",
            discussion: "Example:\n  lookstudio looks list --tag black-and-white --json")

        @OptionGroup var global: GlobalOptions
        @Option(help: "Only looks with this tag (ignoring case).") var tag: String?
        @Flag(help: "Print a JSON array (see docs/CATALOG.md).") var json = false

        func run() throws {
            let looks = try CatalogAccess.open(global).looks(tag: tag)
            if json {
                print(try CatalogJSON.string(looks.map { CatalogJSON.Look($0) }))
                return
            }
            for look in looks {
                let tags = look.tags.isEmpty ? "" : "  [\(look.tags.joined(separator: ", "))]"
                print("\(look.guid)  \(look.cubeSize)³  \(look.name)\(tags)")
            }
        }
    }

    /// `looks show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one look's metadata.",
            discussion: "Example:\n  lookstudio looks show \"Red Filter B&W\" --json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String
        @Flag(help: "Print a JSON object (see docs/CATALOG.md).") var json = false

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let scenes = try catalog.scenesUsing(lookGuid: record.guid)
            if json {
                print(try CatalogJSON.string(CatalogJSON.Look(record, defaultForScenes: scenes)))
                return
            }
            print("""
                guid:          \(record.guid)
                name:          \(record.name)
                cube size:     \(record.cubeSize)
                stored as:     16-bit \(record.layout) PNG
                content hash:  \(record.contentHash)
                source:        \(record.sourceFormat)\(record.sourceFile.map { " (\($0))" } ?? "")
                created:       \(CatalogJSON.timestamp(record.createdAt))
                tags:          \(record.tags.joined(separator: ", "))
                working space: \(LookSpaces.title(of: record))
                description:   \(record.description)
                default for scenes: \(scenes.isEmpty ? "none" : scenes.map(String.init).joined(separator: ", "))
                """)
            if let recipe = record.recipeYAML { print("recipe:\n\(recipe)") }
        }
    }

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
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            guard let yaml = record.recipeYAML else {
                throw ValidationError("look \(record.guid) (\(record.name)) has no recipe to rebuild it from: it "
                    + "was \(record.sourceFormat == "shipped" ? "shipped as a colour function" : "imported from a \(record.sourceFormat) file")")
            }
            let recipe = try Recipe.parse(yaml, fileName: "recipe of \(record.name)")
            let old = try catalog.cube(guid: record.guid)
            let new = try RecipeSupport.compose(recipe, size: recipe.size ?? record.cubeSize, global: global)
            let result = try catalog.replaceCube(guid: record.guid, with: new)
            guard result.changed else {
                print("unchanged: \(record.guid) (\(record.name)): the recipe gives the stored cube")
                return
            }
            print("rebuilt: \(record.guid) (\(record.name)): cube changed, max difference "
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

    /// `looks rm`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove a look; refused while a scene uses it as default, unless --force.",
            discussion: "Example:\n  lookstudio looks rm 7C7C394C --force")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String
        @Flag(help: "Also clear the default look of the scenes that use it.") var force = false

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let cleared = try catalog.removeLook(guid: record.guid, force: force)
            if !cleared.isEmpty {
                CatalogAccess.warn("note: cleared the default look of scenes "
                    + cleared.map(String.init).joined(separator: ", "))
            }
            print("removed \(record.guid) (\(record.name))")
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
            let composer = try RecipeSupport.composer(global)
            let written = try ShippedLooks.render(to: out) { look, yaml in
                // Quantised like every stored composed cube, so `looks rebuild` on a fresh catalog finds it unchanged.
                try composer.compose(try Recipe.parse(yaml, fileName: "\(look.stem).yaml"),
                                     size: ShippedLooks.size).quantizedTo16Bit()
            }
            for path in written { print(path) }
        }
    }
}
