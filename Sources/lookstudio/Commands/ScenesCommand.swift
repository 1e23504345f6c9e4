import ArgumentParser
import Foundation
import LookCore
import LookModel
import Workflows

/// `lookstudio scenes …`: the scene descriptions and their default looks.
struct ScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "List scene descriptions, set their default look and their automatic-correction preset.",
        subcommands: [List.self, Show.self, SetLook.self, SetCorrection.self])

    /// One line a scene: label, name, workflows and default look.
    static func printScene(_ details: SceneDetails) {
        let (scene, lookName) = (details.scene, details.defaultLookName)
        let look = scene.defaultLookGuid.map {
            "\(MessageText.quote(lookName ?? $0)) at \(scene.defaultLookStrength)"
        } ?? "no default look"
        let workflows = scene.workflows.joined(separator: ", ")
        print("\(scene.label)\t\(MessageText.quote(scene.name))\t[\(workflows)]\t\(look)")
    }

    /// `scenes list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List scenes by label.", discussion: "Example:\n  lookstudio scenes list --json")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print a JSON array (see docs/CATALOG.md).") var json = false

        func run() throws {
            let scenes = try global.workspace.scenes()
            if json {
                print(try CatalogJSON.string(scenes.map(CatalogJSON.Scene.init)))
                return
            }
            scenes.forEach(ScenesCommand.printScene)
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
            let details = try global.workspace.scene(label: label)
            let (scene, view) = (details.scene, CatalogJSON.Scene(details))
            if json {
                print(try CatalogJSON.string(view))
                return
            }
            let defaultLook = scene.defaultLookGuid.map {
                "\($0) (\(MessageText.quote(view.defaultLookName ?? "?")))"
            } ?? "none"
            print("""
                label:         \(scene.label)
                guid:          \(scene.guid)
                name:          \(MessageText.quote(scene.name))
                workflows:     \(scene.workflows.joined(separator: ", "))
                description:   \(MessageText.quote(scene.description))
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
            ScenesCommand.printScene(try global.workspace.setSceneLook(label: label, look: look, strength: strength))
        }
    }
}
