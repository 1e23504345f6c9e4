import ArgumentParser
import Correction
import Foundation
import ImageIO
import LookCore
import LookModel
import Recipes
import Rendering
import Workflows

/// `lookstudio correct`: scene detection, scene defaults, recipe, creative look and strength, composed into one
/// cube per image and applied in one streamed pass; many images in parallel.
struct CorrectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Correct photos: detect the scene, compose recipe and look into one cube, apply in one pass.",
        discussion: """
        IN may be files or folders (their .png, .jpg, .jpeg, .tif, .tiff, .webp, .heic, .heif and .avif files). OUT is a file when one image and one \
        strength are given and OUT is not a folder; otherwise a folder (created), with outputs named after their \
        inputs, plus -sN for each strength when several are given (photo-s40.png). Each image is analysed once \
        (docs/SCENES.md) and rendered at every strength from that one analysis.

        Stages, all composed into ONE cube per image: automatic correction → pre-look recipe → creative look \
        (always last) → look \
        contrast/saturation trims → look strength (blend with the pre-look result) → overall strength (against \
        identity). A failure on one image is reported and the rest go on; the exit status is 1 if any failed. \
        PNG and TIFF stream in bands (bounded memory); JPEG, WebP, HEIF and AVIF are decoded whole.

        Colour: each image is read in its own colour space (ICC profile, PNG sRGB/gAMA/cHRM, HEIF nclx; \
        untagged = sRGB), converted into the look's working space, graded and converted into the output space \
        — all composed into the one cube (docs/COLOR.md). The output keeps the input's space and profile unless \
        --output-profile names another.

        The creative look is --look (a catalog look) or --lut (a file). Without either, each image gets its \
        scene's default look and strength from the catalog (lookstudio scenes list); a scene without one gets no \
        look. An explicit look is applied at --look-strength, else 100: the scene's strength belongs to its own \
        look. --no-look applies none.

        Automatic correction (docs/CORRECTION.md) is on by default: per image, from the same analysis, exposure, \
        black and white points, colour cast (white balance), contrast and vibrance, each gated by how far the \
        image's statistics lie outside good photos' and by confidence, with the scene's preset strengths \
        (lookstudio scenes show LABEL; change them with scenes set). --exposure, --levels, --white-balance, \
        --contrast and --vibrance N scale the preset by N percent (0 switches one off); --auto off switches the \
        stage off. With --lut the catalog is not opened and the presets come from the shipped \
        Catalog/scenes.yaml.

        JSON (--json): an array, one object per image in input order: {"confidence": 1.0, "error": null, \
        "faces": 0, "file": "…", "look_guid": "…", "look_name": "…", "look_strength": 100, "outputs": ["…"], \
        "scene": 100, "scene_name": "Black & White", "auto": {…}}; auto is null when the stage is off, else the plan: \
        "settings" (the strengths used, percent) and per correction its measured inputs and chosen amount: \
        "white_balance" {grey_world, shades_of_grey, grey_edge, bright_achromatic, skin, estimate (each \
        {"red": log R/G, "blue": log B/G} or null), agreement, support, neutral_support, confidence, corrected}, \
        "levels" {measured_black, measured_white, dark_greyness, bright_greyness, black, white} (linear), \
        "exposure" {key, face_key, clipped_share, stops}, "contrast" {spread_stops, amount}, "vibrance" \
        {mean_saturation, amount, protect_skin}. confidence and faces are null for --scene LABEL, the look keys \
        are null without a \
        look (look_guid also for --lut); error is set for an image that failed, and outputs lists what it \
        wrote before failing.

        Examples:
          lookstudio correct photo.jpg -o out/ --look "Warm Film" --strength 40,70,100
          lookstudio correct shoot/ -o graded/          # each scene's default look
          lookstudio correct shoot/ -o graded/ --scene 8 --lut clean.cube \\
            --look-saturation -20
          lookstudio correct photo.jpg -o out.jpg --no-look --explain
          lookstudio correct photo.jpg -o out.jpg --white-balance 50 --vibrance 0
          lookstudio correct photo.png -o out.png --recipe warm.yaml \\
            --look 2DA54C60 --look-strength 60
        """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Images or folders to correct.", valueName: "in"))
    var inputs: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or folder for several outputs.", valueName: "out"))
    var output: String

    @Option(help: ArgumentHelp("auto (detect per image) or a scene label (1, 8, 9, 60, 91, 100, …).",
                               valueName: "auto|label"))
    var scene: String = "auto"

    @Option(help: ArgumentHelp("Creative look from the catalog: GUID, unique GUID prefix (8+ characters) or name "
                               + "(default: the scene's default look).", valueName: "look"))
    var look: String?

    @Option(help: ArgumentHelp("Creative look from a LUT file (.cube, .3dl or cube PNG), instead of --look.",
                               valueName: "file"))
    var lut: String?

    @Option(help: ArgumentHelp("Pre-look adjustments: a recipe (YAML, docs/RECIPES.md), composed once into a cube.",
                               valueName: "file"))
    var recipe: String?

    @Option(help: "Look strength in percent, 0…200 (default: the scene's for its default look, else 100).")
    var lookStrength: Double?

    @Option(help: "Look contrast trim, −100…100: scales the look output's deviation from mid-grey by 1 + N/100.")
    var lookContrast: Double?

    @Option(help: "Look saturation trim, −100…100: scales the look output's chroma around its luma by 1 + N/100.")
    var lookSaturation: Double?

    @Option(help: ArgumentHelp("Overall strength(s) in percent, 0…100, comma-separated; one output per value.",
                               valueName: "n[,n…]"))
    var strength: String = "100"

    @OptionGroup var color: ColorOptions

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "Images corrected at the same time (default: number of cores).")
    var jobs: Int?

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = PNGReader.defaultMaxPixels

    @OptionGroup(title: "Automatic correction") var autoCorrection: AutoCorrectionOptions

    @Flag(help: "No creative look, not even the scene's default.")
    var noLook = false

    @Flag(help: "Print per image the scene, each correction's measured inputs and chosen amount, and the look.")
    var explain = false

    @Flag(help: "Print one JSON array (documented above) on stdout; progress stays on stderr.")
    var json = false

    @OptionGroup(title: "Batches over many processes or machines") var batch: BatchOptions

    func validate() throws {
        if look != nil && lut != nil { throw ValidationError("give only one of --look and --lut") }
        if noLook && (look != nil || lut != nil) { throw ValidationError("--no-look cannot be combined with --look or --lut") }
        _ = try strengths()
        _ = try sceneChoice()
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try CorrectionParams(scene: nil, defaults: SceneDefaults(), overrides: overrides(strength: 100)).validate()
    }

    func strengths() throws -> [Double] {
        let values = strength.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--strength \(strength): expected numbers separated by commas, e.g. 40,70,100")
        }
        let list = values.compactMap { $0 }
        for v in list where !(0...100).contains(v) {
            throw ValidationError("--strength \(v) is out of range: use 0…100")
        }
        return list
    }

    /// nil for auto.
    func sceneChoice() throws -> SceneLabel? {
        if scene == "auto" { return nil }
        guard let n = Int(scene), let label = SceneLabel(rawValue: n) else {
            let known = SceneLabel.allCases.map { "\($0.rawValue) (\($0.name))" }.joined(separator: ", ")
            throw ValidationError("--scene \(scene) is not auto or a scene label: \(known)")
        }
        return label
    }

    func overrides(strength: Double, preLook: ColorCube? = nil) -> CorrectionOverrides {
        CorrectionOverrides(strength: strength, preLook: preLook, lutOutputStrength: lookStrength,
                            lookContrast: lookContrast, lookSaturation: lookSaturation)
    }

    func run() throws {
        let allFiles = try ImageFiles.collect(inputs, note: { printError("note: \($0)") })
        guard !allFiles.isEmpty else { throw WorkflowError.noImages(inputs) }
        let batchRun = try batch.start()
        let strengths = try strengths()
        let scene = try sceneChoice()
        let workspace = try global.workspace
        // Everything that can fail for the whole run (recipe, look, catalog) is resolved before any output exists.
        let preLook = try recipe.map { try workspace.compose(try Recipe.load(path: $0)) }
        let choice: LookChoice = noLook ? .none : lut.map { .file($0) } ?? look.map { .catalog($0) } ?? .sceneDefaults
        let looks = try workspace.lookPlan(choice, scene: scene, needPresets: !autoCorrection.isOff)
        let toFolder = allFiles.count > 1 || batch.shard != nil || strengths.count > 1
            || ImageFiles.isDirectory(output) || inputs.contains(where: ImageFiles.isDirectory)
            || ImageFormat.fromExtension(output) == nil
        var options = ImagePipeline.Options()
        options.maxPixels = maxPixels
        options.color = try color.settings()
        options.encoder = outputOptions.encoder
        let job = CorrectJob(files: batchRun.shard.select(allFiles, inputs: inputs), strengths: strengths,
                             output: output, toFolder: toFolder, scene: scene, looks: looks,
                             params: overrides(strength: 100, preLook: preLook), auto: autoCorrection.choice,
                             options: options, metadata: outputOptions.metadata, batch: batchRun,
                             warn: { printError("warning: \($0)") })
        try job.checkOutputs(inputs: inputs)
        if toFolder { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) }
        let progress = TerminalProgress(total: job.files.count)
        let results = job.run(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                              progress: { progress.finished($0, failure: $1) })
        _ = progress.close()
        if explain {
            let text = results.map(\.explanation).joined(separator: "\n")
            if json { printError(text) } else { print(text) }
        }
        if json { print(try jsonString(results)) }
        let failed = results.filter { $0.error != nil }.count
        if failed > 0 {
            printError("\(results.count - failed) of \(results.count) images corrected, \(failed) failed")
            throw ExitCode.failure
        }
        printError("\(results.count) image\(results.count == 1 ? "" : "s") corrected")
    }
}
