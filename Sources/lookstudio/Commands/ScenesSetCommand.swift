import ArgumentParser
import Foundation
import LookCatalog
import LookCore
import LookModel

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
        @Option(help: "Exposure strength, percent 0…200.") var exposure: Int?
        @Option(help: "Black and white point strength, percent 0…200.") var levels: Int?
        @Option(help: "Colour-cast removal strength, percent 0…200.") var whiteBalance: Int?
        @Option(help: "Contrast strength, percent 0…200.") var contrast: Int?
        @Option(help: "Vibrance strength, percent 0…200.") var vibrance: Int?
        @Option(help: ArgumentHelp("A white backdrop sets white point and white balance.", valueName: "on|off"))
        var keepWhite: OnOff?
        @Option(help: ArgumentHelp("Leave skin hues out of vibrance.", valueName: "on|off")) var protectSkin: OnOff?
        @Flag(help: "Print the updated scene as JSON (as scenes show --json).") var json = false

        func validate() throws {
            for (name, value) in [("exposure", exposure), ("levels", levels), ("white-balance", whiteBalance),
                                  ("contrast", contrast), ("vibrance", vibrance)] {
                if let value, !CorrectionPreset.isValidStrength(Double(value)) {
                    throw ValidationError("--\(name) must be 0…200")
                }
            }
        }

        func run() throws {
            let catalog = try global.openCatalog()
            let (auto, exposure, levels, whiteBalance) = (auto, exposure, levels, whiteBalance)
            let (contrast, vibrance, keepWhite, protectSkin) = (contrast, vibrance, keepWhite, protectSkin)
            let scene = try catalog.updateSceneCorrection(label: label) { c in
                if let auto { c.enabled = auto.isOn }
                if let exposure { c.exposure = Double(exposure) }
                if let levels { c.levels = Double(levels) }
                if let whiteBalance { c.whiteBalance = Double(whiteBalance) }
                if let contrast { c.contrast = Double(contrast) }
                if let vibrance { c.vibrance = Double(vibrance) }
                if let keepWhite { c.keepWhite = keepWhite.isOn }
                if let protectSkin { c.protectSkin = protectSkin.isOn }
            }
            if json {
                let view = CatalogJSON.Scene(scene, lookName: try ScenesCommand.lookName(catalog, scene.defaultLookGuid))
                print(try CatalogJSON.string(view))
            } else {
                print("\(scene.label)\t\(TerminalText.escape(scene.name))\t\(scene.correction.summary)")
            }
        }
    }
}
