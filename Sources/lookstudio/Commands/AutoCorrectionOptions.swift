import ArgumentParser
import LookModel
import Workflows

/// `correct`'s automatic-correction options: the stage on or off, and each correction's strength as a percentage of
/// what the engine chose under the scene's preset (docs/CORRECTION.md).
struct AutoCorrectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Automatic correction before the look (default: on, unless the scene's preset "
                               + "switches it off; docs/CORRECTION.md).", valueName: "on|off"))
    var auto: OnOff?

    @Option(help: ArgumentHelp("Exposure strength, percent of what the engine chose (× the scene's preset), 0…200.",
                               valueName: "percent"))
    var exposure: Double?

    @Option(help: ArgumentHelp("Black and white point strength, percent of the engine's choice, 0…200 (200: the "
                               + "whole measured black, a dehaze).", valueName: "percent"))
    var levels: Double?

    @Option(help: ArgumentHelp("Colour-cast removal strength, percent of the engine's choice, 0…200.",
                               valueName: "percent"))
    var whiteBalance: Double?

    @Option(help: ArgumentHelp("Contrast strength, percent of the engine's choice, 0…200.",
                               valueName: "percent"))
    var contrast: Double?

    @Option(help: ArgumentHelp("Vibrance strength, percent of the engine's choice, 0…200.",
                               valueName: "percent"))
    var vibrance: Double?

    func validate() throws {
        for (name, value) in [("exposure", exposure), ("levels", levels), ("white-balance", whiteBalance),
                              ("contrast", contrast), ("vibrance", vibrance)] {
            if let value, !CorrectionPreset.isValidStrength(value) {
                throw ValidationError("--\(name) \(value) is out of range: use 0…200 (percent of the engine's choice)")
            }
        }
    }

    /// True when `--auto off` switches the stage off for every scene, so no analysis is needed for it.
    var isOff: Bool { auto == .off }

    /// The choice as the correct workflow takes it.
    var choice: AutoChoice {
        AutoChoice(enabled: auto.map { $0 == .on }, exposure: exposure, levels: levels, whiteBalance: whiteBalance,
                   contrast: contrast, vibrance: vibrance)
    }
}
