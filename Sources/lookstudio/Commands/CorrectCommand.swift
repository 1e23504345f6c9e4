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
    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Images or folders to correct.", valueName: "in"))
    var inputs: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or folder for several outputs (not with "
                                                    + "--in-place).", valueName: "out"))
    var output: String?

    @OptionGroup var inPlace: InPlaceOptions

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

    @Flag(help: "Apply a detected scene's default look even below confidence 0.75 (the fallback scene included).")
    var sceneLooks = false

    @Flag(help: "Print per image the scene, each correction's measured inputs and chosen amount, and the look.")
    var explain = false

    @Flag(help: "Print one JSON array (documented above) on stdout; progress stays on stderr.")
    var json = false

    @OptionGroup(title: "Batches over many processes or machines") var batch: BatchOptions

    func validate() throws {
        if look != nil && lut != nil { throw ValidationError("give only one of --look and --lut") }
        if noLook && (look != nil || lut != nil) { throw ValidationError("--no-look cannot be combined with --look or --lut") }
        let strengths = try strengths()
        if inPlace.inPlace {
            if output != nil { throw ValidationError("give no -o with --in-place: each result replaces its input") }
            if strengths.count > 1 { throw ValidationError("--in-place writes one strength; give one --strength") }
            if batch.skipExisting {
                throw ValidationError("--skip-existing cannot go with --in-place: every input's output exists")
            }
        } else if output == nil {
            throw ValidationError("give -o OUT (a file or folder), or --in-place to replace the inputs")
        }
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
        let allFiles = try ImageFiles.collect(inputs)
        guard !allFiles.isEmpty else { throw WorkflowError.noImages(inputs) }
        let batchRun = try batch.start()
        let strengths = try strengths()
        let scene = try sceneChoice()
        let workspace = try global.workspace
        // Everything that can fail for the whole run (recipe, look, catalog) is resolved before any output exists.
        let preLook = try recipe.map { try workspace.compose(try Recipe.load(path: $0)) }
        let choice: LookChoice = noLook ? .none : lut.map { .file($0) } ?? look.map { .catalog($0) } ?? .sceneDefaults
        var looks = try workspace.lookPlan(choice, scene: scene, needPresets: !autoCorrection.isOff)
        looks.sceneLooksAlways = sceneLooks
        let output = self.output ?? ""
        let toFolder = !inPlace.inPlace && (allFiles.count > 1 || batch.shard != nil || strengths.count > 1
            || ImageFiles.isDirectory(output) || inputs.contains(where: ImageFiles.isDirectory)
            || ImageFormat.fromExtension(output) == nil)
        var options = ImagePipeline.Options()
        options.maxPixels = maxPixels
        options.color = try color.settings()
        options.encoder = outputOptions.encoder
        var job = CorrectJob(files: batchRun.shard.select(allFiles, inputs: inputs), strengths: strengths,
                             output: output, toFolder: toFolder, scene: scene, looks: looks,
                             params: overrides(strength: 100, preLook: preLook), auto: autoCorrection.choice,
                             options: options, metadata: outputOptions.metadata, batch: batchRun,
                             warn: { printError("warning: \($0)") })
        job.inPlace = inPlace.inPlace
        job.keepBackups = !inPlace.noBackup
        try job.checkOutputs(inputs: inputs)
        if toFolder { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) }
        let progress = TerminalProgress(total: job.files.count)
        // SIGINT/SIGTERM now stop starting images (the handler still removes every temporary in flight); a second
        // signal ends the process at once.
        try Interruption.install(.stop)
        let results = job.run(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                              progress: { progress.finished($0, failure: $1) })
        _ = progress.close()
        if explain {
            let text = results.map(\.explanation).joined(separator: "\n")
            if json { printError(text) } else { print(text) }
        }
        if json { print(try jsonString(results)) }
        let signal = Interruption.signal
        let summary = CorrectSummary(results: results, total: job.files.count,
                                     signal: signal.map(CorrectJob.signalName))
        printError(summary.line)
        if let status = Interruption.exitStatus { throw ExitCode(status) }
        if summary.failed > 0 { throw ExitCode.failure }
    }
}
