import ArgumentParser
import Foundation
import ImageIO
import LookCore
import LookModel
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

    @OptionGroup(title: "Creative look") var looks: LookOptions

    @Option(help: ArgumentHelp("auto (detect per image) or a scene label (1, 8, 9, 60, 91, 100, …).",
                               valueName: "auto|label"))
    var scene: String = "auto"

    @Option(help: ArgumentHelp("Pre-look adjustments: a recipe (YAML, docs/RECIPES.md), composed once into a cube.",
                               valueName: "file"))
    var recipe: String?

    @Option(help: ArgumentHelp("Overall strength(s) in percent, 0…100, comma-separated; one output per value.",
                               valueName: "n[,n…]"))
    var strength: String = "100"

    @OptionGroup var color: ColorOptions

    @OptionGroup var outputOptions: OutputOptions

    @Option(help: "Images corrected at the same time (default: number of cores).")
    var jobs: Int?

    @OptionGroup var pixelLimit: PixelLimitOptions

    @OptionGroup(title: "Automatic correction") var autoCorrection: AutoCorrectionOptions

    @OptionGroup(title: "Neutral references") var neutral: NeutralOptions

    @Flag(help: ArgumentHelp("Correct each folder's photos as one shoot: one cast and one exposure estimated from "
                             + "all of them and applied to each (files given one by one are grouped by folder)."))
    var shoot = false

    @Option(help: ArgumentHelp("Split each folder into shoots by camera and wherever the capture time (EXIF) jumps "
                               + "by more than this many minutes, then correct each as with --shoot (which it "
                               + "implies). Photos without a capture time stay one shoot.", valueName: "minutes"))
    var shootGap: Double?

    @Flag(help: "Print per image the scene, each correction's measured inputs and chosen amount, and the look.")
    var explain = false

    @Flag(help: "Print one JSON array (documented above) on stdout; progress stays on stderr.")
    var json = false

    @Flag(help: ArgumentHelp("Print to stderr the seconds each image spent in its analysis (reading the preview, "
                             + "scene, faces, plan) and in rendering, then the run's wall time and peak memory."))
    var timings = false

    @OptionGroup(title: "Batches over many processes or machines") var batch: BatchOptions

    func validate() throws {
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
        if let shootGap, !(shootGap.isFinite && shootGap > 0) {
            throw ValidationError("--shoot-gap \(TextNumber.format(shootGap)) is out of range: give the minutes "
                                  + "between shoots, more than 0 (e.g. 30)")
        }
        if (shoot || shootGap != nil) && batch.shard != nil {
            throw ValidationError("--shoot pools every photo of a shoot, so it cannot go with --shard (which gives "
                                  + "each process part of the photos); give each process whole folders instead")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        // The look flags' ranges are CorrectionParams' to know; a value out of them is an argument error (64).
        do {
            try looks.trims.validate()
        } catch {
            throw ValidationError(ErrorText.commandLine(error))
        }
    }

    func strengths() throws -> [Double] {
        // Empty items are kept so that `50,,60` is refused rather than read as 50,60.
        let values = strength.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--strength \(strength): expected numbers separated by commas, e.g. 40,70,100")
        }
        let list = values.compactMap { $0 }
        for v in list where !(0...100).contains(v) {
            throw ValidationError(TextNumber.outOfRange("--strength", v, 0...100))
        }
        for (i, v) in list.enumerated() where list[..<i].contains(v) {
            throw ValidationError("--strength \(strength): \(TextNumber.format(v)) is given twice; each strength "
                                  + "writes its own output, so give each value once")
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

    /// Names the images an extracted look reaches mostly beyond the colours of the pairs it was fitted on, as
    /// `apply --look` does for one image (docs/EXTRACT.md, "What it reports").
    private func noteExtrapolated(_ results: [CorrectResult]) {
        let far = results.filter { $0.isExtrapolated && $0.error == nil }
        guard !far.isEmpty else { return }
        let shown = far.prefix(10).map {
            String(format: "%@ (%@) %.0f %%", MessageText.quote($0.file), MessageText.quote($0.lookName ?? ""),
                   ($0.lookUnshown ?? 0) * 100)
        }
        let more = far.count > 10 ? ", … and \(far.count - 10) more (--json: look_unshown)" : ""
        printError("note: \(far.count) of \(results.count) images have a third or more of their pixels in colours the "
                   + "pairs their extracted look was fitted on did not show; there the look is extrapolated and may "
                   + "stray from the edit: " + shown.joined(separator: ", ") + more)
    }

    /// Names the photos `--shoot` corrected alone (the only one of their folder or, with `--shoot-gap`, of their run),
    /// so that a gap too short for the card shows.
    private func noteAlone(_ results: [CorrectResult]) {
        let alone = results.filter { $0.status == .done && $0.aloneInShoot }
        guard !alone.isEmpty else { return }
        let more = alone.count > 10 ? ", … and \(alone.count - 10) more" : ""
        printError("note: \(alone.count) of \(results.count) images were alone in their shoot"
                   + (shootGap == nil ? "" : " (no other photo of their camera within --shoot-gap)")
                   + " and were corrected as without --shoot: "
                   + alone.prefix(10).map { MessageText.quote($0.file) }.joined(separator: ", ") + more)
    }

    func run() throws {
        let started = DispatchTime.now().uptimeNanoseconds
        let allFiles = try ImageFiles.collect(inputs, note: { printError("note: \($0)") })
        guard !allFiles.isEmpty else { throw WorkflowError.noImages(inputs) }
        let strengths = try strengths()
        let scene = try sceneChoice()
        let workspace = try global.workspace
        // Everything that can fail for the whole run (recipe, look, catalog) is resolved before any output exists.
        let preLook = try recipe.map { try workspace.compose(recipeFile: $0) }
        var plan = try workspace.lookPlan(looks.choice, scene: scene, needPresets: !autoCorrection.isOff)
        plan.sceneLooksAlways = looks.sceneLooks
        let output = self.output ?? ""
        // As the help says: one image at one strength goes to the file OUT unless OUT is a folder (or ends in /).
        let toFolder = !inPlace.inPlace && (allFiles.count > 1 || batch.shard != nil || strengths.count > 1
            || ImageFiles.isDirectory(output) || output.hasSuffix("/")
            || inputs.contains(where: ImageFiles.isDirectory))
        var options = ImagePipeline.Options()
        options.maxPixels = pixelLimit.maxPixels
        options.color = try color.settings()
        options.encoder = outputOptions.encoder
        let neutralChoice = try neutral.choice(files: allFiles, maxPixels: pixelLimit.maxPixels)
        if case .card(let card) = neutralChoice, let warning = card.implausibility { printError("warning: \(warning)") }
        var job = CorrectJob(files: try batch.parsedShard().select(allFiles, inputs: inputs), strengths: strengths,
                             output: output, toFolder: toFolder, scene: scene, looks: plan,
                             trims: looks.trims, preLook: preLook, auto: autoCorrection.choice,
                             options: options, metadata: outputOptions.metadata,
                             warn: { printError("warning: \($0)") })
        job.inPlace = inPlace.inPlace
        job.neutral = neutralChoice
        job.shoots = shoot || shootGap != nil
        job.shootGap = shootGap.map { $0 * 60 }
        job.keepBackups = !inPlace.noBackup
        job.remedyText = { $0.commandLine }
        do {
            try job.checkDistinctOutputs(batchFiles: allFiles)
        } catch {
            // Two inputs for one output is a mistake in the arguments, so it is answered as one (exit 64).
            throw ValidationError("\(error)")
        }
        try job.checkOutputs(inputs: inputs)
        // Opened (the manifest created) only once the run is known to be possible.
        job.batch = try batch.start()
        let madeFolder = try job.createOutputFolder()
        defer { if madeFolder { job.removeOutputFolderIfEmpty() } }
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
        noteExtrapolated(results)
        noteAlone(results)
        let signal = Interruption.signal
        let summary = CorrectSummary(results: results, total: job.files.count,
                                     signal: signal.map(CorrectJob.signalName))
        printError(summary.line)
        if timings {
            for result in results where result.status == .done || result.status == .failed {
                printError(String(format: "timings: %@: analysis %.3f s, render %.3f s",
                                  MessageText.quote(result.file), result.seconds.analysis, result.seconds.render))
            }
            printError(String(format: "timings: wall %.3f s, peak memory %.0f MB",
                              Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
                              Double(peakMemoryKilobytes()) / 1024))
        }
        if let status = Interruption.exitStatus { throw ExitCode(status) }
        if summary.failed > 0 { throw ExitCode.failure }
    }
}
