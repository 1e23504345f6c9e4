import ArgumentParser
import Foundation
import LookCatalog

/// `lookstudio looks …`: list, show and remove catalog looks.
struct LooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "looks",
        abstract: "List, show and remove the looks in the catalog.",
        subcommands: [List.self, Show.self, Remove.self, RenderShipped.self])

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
                description:   \(record.description)
                default for scenes: \(scenes.isEmpty ? "none" : scenes.map(String.init).joined(separator: ", "))
                """)
            if let recipe = record.recipeYAML { print("recipe:\n\(recipe)") }
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
            abstract: "Regenerate the shipped looks (PNG + YAML) from their colour functions.",
            shouldDisplay: false)

        @Option(help: ArgumentHelp("Folder to write into.", valueName: "dir")) var out: String = "Looks"

        func run() throws {
            for path in try ShippedLooks.render(to: out) { print(path) }
        }
    }
}
