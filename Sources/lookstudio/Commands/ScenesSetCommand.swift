import ArgumentParser
import Foundation
import LookCore
import LookModel
import Workflows

/// `scenes set`: a scene's automatic-correction preset.
extension ScenesCommand {
    /// `scenes set`.
    struct SetCorrection: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a scene's automatic-correction preset (strengths in percent, 0…200).",
            discussion: """
            Each strength is percent of what the engine measures and chooses (docs/CORRECTION.md): 0 switches that \
            correction off, 100 is the engine's choice, above 100 goes further (white balance: towards the whole \
            measured cast; levels: towards the whole measured black). Options not given keep their stored value; \
            the change is one transaction.

            Example:
              lookstudio scenes set 91 --white-balance 200 --vibrance 150
              lookstudio scenes set 9 --auto off
            """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Scene label.") var label: Int
        @Option(help: ArgumentHelp("Automatic correction for this scene.", valueName: "on|off")) var auto: OnOff?
        @OptionGroup var stages: StageOptions
        @Option(help: ArgumentHelp("A white backdrop sets white point and white balance.", valueName: "on|off"))
        var keepWhite: OnOff?
        @Option(help: ArgumentHelp("Leave skin hues out of vibrance.", valueName: "on|off")) var protectSkin: OnOff?
        @Flag(help: "Print the updated scene as JSON (as scenes show --json).") var json = false

        func validate() throws {
            // The catalog keeps whole percents.
            for (stage, value) in stages.percentages where value.rounded() != value {
                throw ValidationError("--\(stage.flag) \(TextNumber.format(value)): a scene's preset takes whole percents")
            }
        }

        func run() throws {
            let (auto, keepWhite, protectSkin, percentages) = (auto, keepWhite, protectSkin, stages.percentages)
            let details = try global.workspace.updateSceneCorrection(label: label) { c in
                if let auto { c.enabled = auto.isOn }
                for (stage, percent) in percentages { c[stage] = percent }
                if let keepWhite { c.keepWhite = keepWhite.isOn }
                if let protectSkin { c.protectSkin = protectSkin.isOn }
            }
            if json {
                print(try CatalogJSON.string(CatalogJSON.Scene(details)))
            } else {
                let scene = details.scene
                print("\(scene.label)\t\(MessageText.quote(scene.name))\t\(scene.correction.summary)")
            }
        }
    }
}
