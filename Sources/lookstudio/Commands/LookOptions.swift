import ArgumentParser
import Workflows

/// Which creative look `correct` applies, and how strongly: the look options of a correction run.
struct LookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Creative look from the catalog: GUID, unique GUID prefix (8+ characters) or name "
                               + "(default: the scene's default look).", valueName: "look"))
    var look: String?

    @Option(help: ArgumentHelp("Creative look from a LUT file (.cube, .3dl or cube PNG), instead of --look.",
                               valueName: "file"))
    var lut: String?

    @Option(help: "Look strength in percent, 0…200 (default: the scene's for its default look, else 100).")
    var lookStrength: Double?

    @Option(help: "Look contrast trim, −100…100: scales the look output's deviation from mid-grey by 1 + N/100.")
    var lookContrast: Double?

    @Option(help: "Look saturation trim, −100…100: scales the look output's chroma around its luma by 1 + N/100.")
    var lookSaturation: Double?

    @Flag(help: "No creative look, not even the scene's default.")
    var noLook = false

    @Flag(help: "Apply a detected scene's default look even below confidence 0.75 (the fallback scene included).")
    var sceneLooks = false

    func validate() throws {
        if look != nil && lut != nil { throw ValidationError("give only one of --look and --lut") }
        if noLook && (look != nil || lut != nil) {
            throw ValidationError("--no-look cannot be combined with --look or --lut")
        }
    }

    /// Where each image's look comes from.
    var choice: LookChoice { noLook ? .none : lut.map { .file($0) } ?? look.map { .catalog($0) } ?? .sceneDefaults }

    /// The look trims the flags give.
    var trims: LookTrims { LookTrims(strength: lookStrength, contrast: lookContrast, saturation: lookSaturation) }
}
