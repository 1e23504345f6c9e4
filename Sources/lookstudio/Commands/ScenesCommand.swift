import ArgumentParser
import Foundation
import LookCatalog
import LookCore

/// `lookstudio scenes …`: the scene descriptions and their default looks.
struct ScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "List scene descriptions, set their default look and their automatic-correction preset.",
        subcommands: [List.self, Show.self, SetLook.self, SetCorrection.self])

    static func lookName(_ catalog: Catalog, _ guid: String?) throws -> String? {
        guard let guid else { return nil }
        return try catalog.look(guid: guid)?.name
    }

    static func printScene(_ scene: SceneRecord, lookName: String?) {
        let look = scene.defaultLookGuid.map {
            "\(TerminalText.escape(lookName ?? $0)) at \(scene.defaultLookStrength)"
        } ?? "no default look"
        let workflows = scene.workflows.joined(separator: ", ")
        print("\(scene.label)\t\(TerminalText.escape(scene.name))\t[\(workflows)]\t\(look)")
    }

    /// `scenes list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List scenes by label.", discussion: "Example:\n  lookstudio scenes list --json")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print a JSON array (see docs/CATALOG.md).") var json = false

        func run() throws {
            let catalog = try global.openCatalog()
            let scenes = try catalog.scenes()
            let views = try scenes.map { CatalogJSON.Scene($0, lookName: try ScenesCommand.lookName(catalog, $0.defaultLookGuid)) }
            if json {
                print(try CatalogJSON.string(views))
                return
            }
            for (scene, view) in zip(scenes, views) { ScenesCommand.printScene(scene, lookName: view.defaultLookName) }
        }
    }

    /// `scenes show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one scene.", discussion: "Example:\n  lookstudio scenes show 100 --json")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Scene label.") var label: Int
        @Flag(help: "Print a JSON object (see docs/CATALOG.md).") var json = false

        func run() throws {
            let catalog = try global.openCatalog()
            let scene = try catalog.scene(label: label)
            let view = CatalogJSON.Scene(scene, lookName: try ScenesCommand.lookName(catalog, scene.defaultLookGuid))
            if json {
                print(try CatalogJSON.string(view))
                return
            }
            let defaultLook = scene.defaultLookGuid.map {
                "\($0) (\(TerminalText.escape(view.defaultLookName ?? "?")))"
            } ?? "none"
            print("""
                label:         \(scene.label)
                guid:          \(scene.guid)
                name:          \(TerminalText.escape(scene.name))
                workflows:     \(scene.workflows.joined(separator: ", "))
                description:   \(TerminalText.escape(scene.description))
                default look:  \(defaultLook)
                strength:      \(scene.defaultLookStrength)
                correction:    \(scene.correction.summary)
                """)
        }
    }

    /// `scenes set-look`.
    struct SetLook: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-look",
            abstract: "Set a scene's default look and strength (0…200).",
            discussion: "Example:\n  lookstudio scenes set-look 91 \"Warm Film\" --strength 60")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Scene label.") var label: Int
        @Argument(help: ArgumentHelp("GUID, GUID prefix (8+ characters) or name.", valueName: "look")) var look: String
        @Option(help: "Look strength, 0…200 (100 is the look as authored).") var strength: Int = 100

        func validate() throws {
            if !(0...200).contains(strength) { throw ValidationError("--strength must be 0…200") }
        }

        func run() throws {
            let catalog = try global.openCatalog()
            let record = try catalog.resolveLook(look)
            // A scene follows a look, not one of its versions: refuse a version rather than quietly use the current.
            guard record.isCurrentVersion else {
                let name = TerminalText.escape(record.name)
                throw ValidationError("\(look) names version \(record.version) of \"\(name)\"; "
                    + "a scene uses a look's current version: give the look without @\(record.version) (to bring "
                    + "that cube back, export \(record.guid)@\(record.version) and store it with `looks update`)")
            }
            let scene = try catalog.setSceneLook(label: label, lookGuid: record.guid, strength: strength)
            ScenesCommand.printScene(scene, lookName: record.name)
        }
    }
}
