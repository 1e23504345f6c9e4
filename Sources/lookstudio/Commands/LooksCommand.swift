import ArgumentParser
import Foundation
import LookCatalog
import LookCore
import LookFormats
import Recipes
import Workflows

/// Text from the catalog, safe for the terminal (see `TerminalText`).
private func shown(_ text: String) -> String { TerminalText.escape(text) }

/// `lookstudio looks …`: list, show and remove catalog looks.
struct LooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "looks",
        abstract: "List, show, revise, rename, tag, rebuild and remove the looks in the catalog.",
        subcommands: [List.self, Show.self, Update.self, Versions.self, Rename.self, Tag.self, Untag.self,
                      Rebuild.self, Remove.self, RenderShipped.self])

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
                let tags = look.tags.isEmpty ? "" : "  [\(shown(look.tags.joined(separator: ", ")))]"
                print("\(look.guid)  \(look.cubeSize)³  \(shown(look.name))\(tags)")
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
                version:       \(record.version)\(record.isCurrentVersion ? "" : " (an older version)")
                name:          \(shown(record.name))
                cube size:     \(record.cubeSize)
                stored as:     16-bit \(record.layout) PNG
                content hash:  \(record.contentHash)
                source:        \(record.sourceFormat)\(record.sourceFile.map { " (\(shown($0)))" } ?? "")
                created:       \(CatalogJSON.timestamp(record.createdAt))
                tags:          \(shown(record.tags.joined(separator: ", ")))
                working space: \(shown(LookSpaces.title(of: record)))
                description:   \(shown(record.description))
                default for scenes: \(scenes.isEmpty ? "none" : scenes.map(String.init).joined(separator: ", "))
                """)
            if let recipe = record.recipeYAML { print("recipe:\n\(TerminalText.escape(recipe, keepNewlines: true))") }
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

    /// `looks rm`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove a look and its versions; refused while a scene or another look's recipe uses it, "
                + "unless --force.",
            discussion: "Example:\n  lookstudio looks rm 7C7C394C --force")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String
        @Flag(help: "Remove it anyway: clear the default look of the scenes that use it; recipes naming it break.")
        var force = false

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let removal = try catalog.removeLookReporting(guid: record.guid, force: force)
            if !removal.clearedScenes.isEmpty {
                CatalogAccess.warn("note: cleared the default look of scenes "
                    + removal.clearedScenes.map(String.init).joined(separator: ", "))
            }
            if !removal.brokenRecipes.isEmpty {
                CatalogAccess.warn("note: the recipes of " + shown(removal.brokenRecipes.joined(separator: ", "))
                    + " name this look: their cubes stay, but `looks rebuild` of them now fails")
            }
            print("removed \(record.guid) (\(shown(record.name)))")
        }
    }

    /// `looks update`.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a LUT file as the next version of a look (same GUID, name and tags; older versions kept).",
            discussion: """
            Scenes and scripts that use the look's GUID or name get the new version; the older ones stay readable \
            as GUID@N or NAME@N (`looks versions` lists them). A file whose cube is the current one adds nothing.

            Example:
              lookstudio looks update "Warm Film" warm-v2.cube
              lookstudio apply --look "Warm Film@1" in.jpg out.jpg
            """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ hex digits) or name.", valueName: "look")) var look: String
        @Argument(help: ArgumentHelp("The new version (.png, .cube, .3dl).", valueName: "file")) var file: String
        @Option(help: "PNG layout: auto, tiled, strip or hald.") var layout: String = "auto"
        @Option(help: ArgumentHelp("Working space of the new version (as for import).", valueName: "space|file.icc"))
        var space: String = "srgb"

        func validate() throws {
            if layout != "auto" && CubeLayout(rawValue: layout) == nil {
                throw ValidationError("--layout must be auto, tiled, strip or hald")
            }
        }

        func run() throws {
            let workingSpace = try LookSpaces.stored(space)
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let loaded = try LookFile.read(path: file, layout: CubeLayout(rawValue: layout))
            for w in loaded.warnings { CatalogAccess.warn("warning: \(w)") }
            var new = NewLook(cube: loaded.cube, name: record.name, sourceFormat: loaded.format,
                              sourceFile: URL(fileURLWithPath: file).lastPathComponent)
            new.workingSpace = workingSpace.name
            new.workingSpaceICC = workingSpace.icc
            let outcome = try catalog.saveVersion(guid: record.guid, new)
            guard outcome.changed else {
                print("unchanged: \(record.guid) (\(shown(record.name))): the file holds version "
                    + "\(outcome.before.version)'s cube")
                return
            }
            print("\(record.guid) (\(shown(record.name))): version \(outcome.after.version) stored; version "
                + "\(outcome.before.version) stays as \(record.guid)@\(outcome.before.version)")
        }
    }

    /// `looks versions`.
    struct Versions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a look's versions, oldest first.",
            discussion: "Example:\n  lookstudio looks versions \"Warm Film\" --json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ hex digits) or name.", valueName: "look")) var look: String
        @Flag(help: "Print a JSON array (see README, Looks and versions).") var json = false

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let versions = try catalog.versions(guid: record.guid)
            if json {
                print(try CatalogJSON.string(versions.map { CatalogJSON.Version(guid: record.guid, $0) }))
                return
            }
            for v in versions {
                let source = v.sourceFormat + (v.sourceFile.map { " (\(shown($0)))" } ?? "")
                print("\(record.guid)@\(v.version)  \(v.cubeSize)³  \(CatalogJSON.timestamp(v.createdAt))  \(source)"
                    + (v.isCurrent ? "  current" : ""))
            }
        }
    }

    /// `looks rename`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a look (GUID, tags and versions unchanged).",
            discussion: "Example:\n  lookstudio looks rename \"Warm Film\" \"Warm Film (client)\"")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ hex digits) or name.", valueName: "look")) var look: String
        @Argument(help: ArgumentHelp("The new name (README, Names).", valueName: "new-name")) var newName: String

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let result = try catalog.renameLook(guid: record.guid, to: newName)
            if !result.recipesNamingIt.isEmpty {
                CatalogAccess.warn("note: the recipes of " + shown(result.recipesNamingIt.joined(separator: ", "))
                    + " name this look by its old name: their cubes stay; edit them before `looks rebuild`")
            }
            print("renamed \(record.guid): \(shown(record.name)) → \(shown(result.look.name))")
        }
    }

    /// `looks tag`.
    struct Tag: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add tags to a look.", discussion: "Example:\n  lookstudio looks tag \"Warm Film\" portrait film")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ hex digits) or name.", valueName: "look")) var look: String
        @Argument(help: ArgumentHelp("Tags to add.", valueName: "tag")) var tags: [String]

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let result = try catalog.tagLook(guid: record.guid, tags: tags)
            print("\(record.guid) (\(shown(record.name))): tags \(shown(result.look.tags.joined(separator: ", ")))"
                + (result.added.isEmpty ? " (it had them all)" : ""))
        }
    }

    /// `looks untag`.
    struct Untag: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove tags from a look (ignoring case).",
            discussion: "Example:\n  lookstudio looks untag \"Warm Film\" portrait")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ hex digits) or name.", valueName: "look")) var look: String
        @Argument(help: ArgumentHelp("Tags to remove.", valueName: "tag")) var tags: [String]

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let record = try catalog.resolveLook(look)
            let result = try catalog.untagLook(guid: record.guid, tags: tags)
            let left = result.look.tags.isEmpty ? "none" : shown(result.look.tags.joined(separator: ", "))
            print("\(record.guid) (\(shown(record.name))): tags \(left)"
                + (result.removed.isEmpty ? " (it had none of those)" : ""))
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
