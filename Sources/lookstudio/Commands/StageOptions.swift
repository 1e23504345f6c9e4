import ArgumentParser
import LookCore
import LookModel
import Workflows

/// Each automatic correction's strength, in percent of what the engine chooses (docs/CORRECTION.md): the one
/// place the command line names the stages, shared by `correct` (on top of the scene's preset) and `scenes set`
/// (the preset itself).
struct StageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Exposure strength, percent of the engine's choice, 0…200.", valueName: "percent"))
    var exposure: Double?

    @Option(help: ArgumentHelp("Black and white point strength, percent of the engine's choice, 0…200 (200: the "
                               + "whole measured black, a dehaze).", valueName: "percent"))
    var levels: Double?

    @Option(help: ArgumentHelp("Colour-cast removal strength, percent of the engine's choice, 0…200.",
                               valueName: "percent"))
    var whiteBalance: Double?

    @Option(help: ArgumentHelp("Contrast strength, percent of the engine's choice, 0…200.", valueName: "percent"))
    var contrast: Double?

    @Option(help: ArgumentHelp("Vibrance strength, percent of the engine's choice, 0…200.", valueName: "percent"))
    var vibrance: Double?

    /// The strengths given, by stage.
    var percentages: [CorrectionPreset.Strength: Double] {
        let given: [CorrectionPreset.Strength: Double?] = [
            .exposure: exposure, .levels: levels, .whiteBalance: whiteBalance, .contrast: contrast,
            .vibrance: vibrance,
        ]
        return given.compactMapValues { $0 }
    }

    func validate() throws {
        for (stage, value) in percentages where !CorrectionPreset.isValidStrength(value) {
            throw ValidationError(TextNumber.outOfRange("--" + stage.flag, value, CorrectionPreset.strengthRange)
                                  + " (percent of the engine's choice)")
        }
    }
}

/// `correct`'s automatic-correction options: the stage on or off, and each correction's strength on top of the
/// scene's preset.
struct AutoCorrectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Automatic correction before the look (default: on, unless the scene's preset "
                               + "switches it off; docs/CORRECTION.md).", valueName: "on|off"))
    var auto: OnOff?

    @OptionGroup var stages: StageOptions

    /// True when `--auto off` switches the stage off for every scene, so no analysis is needed for it.
    var isOff: Bool { auto == .off }

    /// The choice as the correct workflow takes it.
    var choice: AutoChoice { AutoChoice(enabled: auto.map { $0 == .on }, percentages: stages.percentages) }
}
