import ArgumentParser
import ColorManagement
import Dispatch
import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookEngine
import LookFormats

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

    @Option(help: "JPEG output quality, 1…100.")
    var quality: Int = JPEGImage.defaultQuality

    @OptionGroup var color: ColorOptions

    @Option(help: "TIFF output compression: none, lzw, deflate or packbits (default: a TIFF input's own, else lzw).")
    var tiffCompression: TIFFCompression?

    @Flag(help: "Write WebP outputs lossless (exact) instead of lossy.")
    var webpLossless = false

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
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be in 1…100") }
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
        let allFiles = try CorrectJob.collect(inputs)
        guard !allFiles.isEmpty else {
            throw ValidationError("no images (.png, .jpg, .tif, .webp, .heic, .avif) in \(inputs.joined(separator: ", "))")
        }
        let batchRun = try batch.start()
        let files = batchRun.shard.select(allFiles, inputs: inputs)
        let strengths = try strengths()
        let scene = try sceneChoice()
        // Everything that can fail for the whole run (recipe, look, catalog) is resolved before any output exists.
        let preLook = try recipe.map { try RecipeSupport.compose(try Recipe.load(path: $0), global: global) }
        let looks = try lookPlan(scene: scene)
        let toFolder = allFiles.count > 1 || batch.shard != nil || strengths.count > 1 || CorrectJob.isDirectory(output)
            || inputs.contains(where: CorrectJob.isDirectory) || ImageFormat.fromExtension(output) == nil
        if toFolder { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) }
        let job = try CorrectJob(files: files, strengths: strengths, output: output, toFolder: toFolder,
                             scene: scene, looks: looks, params: overrides(strength: 100, preLook: preLook),
                             command: self, batch: batchRun)
        let results = job.run(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
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

    /// The look of every image: the one named by --look or --lut, else each scene's default from the catalog
    /// (only the scene given by --scene, or every scene that has one for auto). The catalog is opened only when
    /// needed, so a --lut run never touches it, and read-only, so a batch's processes share it without locks.
    func lookPlan(scene: SceneLabel?) throws -> LookPlan {
        if let lut {
            let loaded = try LUTFormat.read(path: lut)
            report(loaded.warnings, file: lut)
            let name = URL(fileURLWithPath: lut).lastPathComponent
            return LookPlan(explicit: ChosenLook(guid: nil, name: name, cube: try loaded.lut.bakedCube(),
                                                 strength: nil, workingSpace: ColorProfile(.sRGB)),
                            presets: try seedPresets())
        }
        let catalog = try CatalogAccess.openForReading(global)
        let records = try catalog.scenes()
        var presets: [Int: SceneCorrection] = [:]
        for record in records { presets[record.label] = record.correction }
        if noLook { return LookPlan(explicit: nil, presets: presets) }
        if let look {
            let record = try catalog.resolveLook(look)
            return LookPlan(explicit: ChosenLook(guid: record.guid, name: record.name,
                                                 cube: try catalog.cube(guid: record.guid), strength: nil,
                                                 workingSpace: try LookSpaces.profile(of: record)),
                            presets: presets)
        }
        var defaults: [SceneLabel: ChosenLook] = [:]
        if let scene, !records.contains(where: { $0.label == scene.rawValue }) {
            printError("warning: scene \(scene.rawValue) is not in the catalog \(catalog.path): no default look")
        }
        for record in records {
            guard let label = SceneLabel(rawValue: record.label), scene == nil || scene == label,
                  let guid = record.defaultLookGuid else { continue }
            let lookRecord = try catalog.resolveLook(guid)
            defaults[label] = ChosenLook(guid: lookRecord.guid, name: lookRecord.name,
                                         cube: try catalog.cube(guid: lookRecord.guid),
                                         strength: Double(record.defaultLookStrength),
                                         workingSpace: try LookSpaces.profile(of: lookRecord))
        }
        return LookPlan(explicit: nil, sceneDefaults: defaults, presets: presets)
    }

    /// Scene presets from the shipped Catalog/scenes.yaml (for --lut runs, which never open the catalog).
    func seedPresets() throws -> [Int: SceneCorrection] {
        guard !autoCorrection.isOff,
              let dir = CatalogLocation.findSeed(explicit: nil, environment: ProcessInfo.processInfo.environment)
        else { return [:] }
        var presets: [Int: SceneCorrection] = [:]
        for scene in try Seed.load(from: dir).scenes { presets[scene.label] = scene.correction ?? SceneCorrection() }
        return presets
    }
}

/// A look resolved for a run; `guid` is nil for a LUT file, `strength` is set for a scene's default.
struct ChosenLook: Sendable {
    let guid: String?
    let name: String
    let cube: ColorCube
    let strength: Double?
    /// The space the look was authored in.
    let workingSpace: ColorProfile
}

/// Where each image's creative look comes from: one explicit look, or its scene's default.
struct LookPlan: Sendable {
    var explicit: ChosenLook?
    var sceneDefaults: [SceneLabel: ChosenLook] = [:]
    /// Each scene's automatic-correction preset, by label (a missing scene gets every correction at 100).
    var presets: [Int: SceneCorrection] = [:]

    /// The look for an image of scene `label`, and the scene defaults `CorrectionParams` merges with the flags.
    func look(for label: SceneLabel?) -> (look: ChosenLook?, defaults: SceneDefaults) {
        if let explicit { return (explicit, SceneDefaults()) }
        guard let label, let chosen = sceneDefaults[label] else { return (nil, SceneDefaults()) }
        return (chosen, SceneDefaults(lutOutputGuid: chosen.guid, lutOutputStrength: chosen.strength))
    }
}

/// What happened to one image: the `correct --json` element.
struct CorrectResult: Encodable, Sendable {
    var file: String
    var scene: SceneLabel?
    var confidence: Double?
    /// Faces found (null with --scene LABEL, which skips the analysis).
    var faces: Int?
    var lookGuid: String?
    var lookName: String?
    var lookStrength: Double?
    var outputs: [String] = []
    var error: String?
    var auto: AutoCorrection?

    enum CodingKeys: String, CodingKey {
        case file, scene, sceneName = "scene_name", confidence, faces, lookGuid = "look_guid", lookName = "look_name"
        case lookStrength = "look_strength", outputs, error, auto
    }

    // Every key is always present (null when empty), as the JSON contract says.
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(scene?.rawValue, forKey: .scene)
        try c.encode(scene?.name, forKey: .sceneName)
        try c.encode(confidence.map { ($0 * 1000).rounded() / 1000 }, forKey: .confidence)
        try c.encode(faces, forKey: .faces)
        try c.encode(lookGuid, forKey: .lookGuid)
        try c.encode(lookName, forKey: .lookName)
        try c.encode(lookStrength, forKey: .lookStrength)
        try c.encode(outputs, forKey: .outputs)
        try c.encode(error, forKey: .error)
        try c.encode(auto, forKey: .auto)
    }

    /// The `--explain` text for this image.
    var explanation: String {
        var lines = [file + ":"]
        var sceneText = scene.map { "scene \($0.rawValue) \($0.name)" } ?? "no scene"
        if let confidence { sceneText += String(format: " (confidence %.2f)", confidence) }
        lines.append("  " + sceneText)
        lines += (auto?.explanation ?? ["auto correction: off"]).map { "  " + $0 }
        lines.append("  look: " + (lookName.map { "\($0) at \(CorrectJob.number(lookStrength ?? 100))" } ?? "none"))
        if let error { lines.append("  error: \(error)") }
        return lines.joined(separator: "\n")
    }

    /// The progress line for this image.
    var line: String {
        if let error { return "error: \(error)" }
        var sceneText = scene.map { "scene \($0.rawValue) \($0.name)" } ?? "no scene"
        if let confidence { sceneText += String(format: " (%.2f)", confidence) }
        let lookText = lookName.map { "; look \($0) at \(CorrectJob.number(lookStrength ?? 100))" } ?? "; no look"
        return "\(file) → \(outputs.joined(separator: ", ")) [\(sceneText)\(lookText)]"
    }
}

/// One `correct` run over many files; the per-image work is independent, so it runs concurrently.
struct CorrectJob: Sendable {
    let files: [String]
    let strengths: [Double]
    let output: String
    let toFolder: Bool
    let scene: SceneLabel?
    let looks: LookPlan
    let params: CorrectionOverrides
    let quality: Int
    let maxPixels: Int
    let batch: BatchRun
    /// Output space and intent; the working space is each image's look's.
    let color: ColorSettings
    let tiffCompression: TIFFCompression?
    let webpLossless: Bool
    let command: CorrectCommand

    init(files: [String], strengths: [Double], output: String, toFolder: Bool, scene: SceneLabel?,
         looks: LookPlan, params: CorrectionOverrides, command: CorrectCommand, batch: BatchRun = .none) throws {
        self.files = files
        self.strengths = strengths
        self.output = output
        self.toFolder = toFolder
        self.scene = scene
        self.looks = looks
        self.params = params
        self.quality = command.quality
        self.maxPixels = command.maxPixels
        self.batch = batch
        self.color = try command.color.settings()
        self.tiffCompression = command.tiffCompression
        self.webpLossless = command.webpLossless
        self.command = command
    }

    /// Corrects every file, `jobs` at a time; returns one result per file, in input order.
    func run(jobs: Int) -> [CorrectResult] {
        let progress = Progress(total: files.count)
        let workers = max(1, min(jobs, files.count))
        // One image alone gets every core for its cube stage; several share them one core each.
        let threads = workers == 1 ? nil : 1
        let next = Counter()
        let results = ResultSlots(count: files.count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = next.take(below: files.count) {
                let file = files[index]
                var result = CorrectResult(file: file)
                let started = DispatchTime.now()
                let outputs = strengths.map { outputPath(for: file, strength: $0) }
                let skipped = batch.alreadyDone(outputs: outputs)
                if skipped {
                    result.outputs = outputs
                } else {
                    do {
                        try correct(file, threads: threads, into: &result)
                    } catch {
                        result.error = Self.describe(error, file: file)
                    }
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                batch.record(&result, skipped: skipped, seconds: seconds)
                results.set(index, result)
                progress.finished(skipped ? "\(file): skipped, its outputs exist" : result.line,
                                  failure: result.error != nil)
            }
        }
        _ = progress.close()
        return results.all()
    }

    /// Analyses once, then renders each strength, filling `result` as it goes.
    private func correct(_ file: String, threads: Int?, into result: inout CorrectResult) throws {
        result.scene = scene
        // One analysis serves detection, the automatic correction and every strength.
        var analysis: SceneAnalysis?
        if scene == nil || !command.autoCorrection.isOff {
            analysis = try SceneAnalysis(path: file, maxPixels: maxPixels)
            if let failure = analysis?.faceDetectionFailure { printError("warning: \(file): \(failure)") }
        }
        if scene == nil, let analysis {
            let detection = SceneDetector.detect(analysis)
            result.scene = detection.label
            result.confidence = detection.confidence
            result.faces = analysis.faces.count
        }
        let (look, defaults) = looks.look(for: result.scene)
        var overrides = params
        overrides.lutOutputGuid = looks.explicit?.guid
        let preset = result.scene.flatMap { looks.presets[$0.rawValue] } ?? SceneCorrection()
        if let analysis, let settings = command.autoCorrection.settings(preset: preset) {
            overrides.auto = AutoCorrection.plan(CorrectionAnalysis(analysis), settings: settings)
            result.auto = overrides.auto
        }
        var options = ImagePipeline.Options()
        options.maxPixels = maxPixels
        options.encoder = EncoderOptions(quality: quality, tiffCompression: tiffCompression, webpLossless: webpLossless)
        options.threads = threads
        options.color = color
        options.color.workingSpace = look?.workingSpace ?? ColorProfile(.sRGB)
        for s in strengths {
            overrides.strength = s
            let correction = CorrectionParams(scene: result.scene, defaults: defaults, overrides: overrides)
            if let look {
                result.lookGuid = look.guid
                result.lookName = look.name
                result.lookStrength = correction.lutOutputStrength
            }
            let cube = try Corrector.cube(for: correction, look: look?.cube)
            let target = outputPath(for: file, strength: s)
            if let warning = ImagePipeline.depthWarning(input: file, output: target) {
                printError("warning: \(warning)")
            }
            let timings = try Corrector.correct(cube: cube, input: file, output: target, options: options)
            for warning in timings.warnings where s == strengths.first { printError("warning: \(warning)") }
            result.outputs.append(target)
        }
    }

    func outputPath(for file: String, strength: Double) -> String {
        guard toFolder else { return output }
        let url = URL(fileURLWithPath: file)
        let base = url.deletingPathExtension().lastPathComponent
        let suffix = strengths.count > 1 ? "-s\(Self.number(strength))" : ""
        // NSString keeps a relative OUT relative, so the paths printed and in --json are the ones the user gave.
        return (output as NSString).appendingPathComponent("\(base)\(suffix).\(url.pathExtension)")
    }

    static func number(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }

    /// Error text that names the file exactly once.
    static func describe(_ error: Error, file: String) -> String {
        let text = "\(error)"
        return text.contains(file) ? text : "\(file): \(text)"
    }

    static func isDirectory(_ path: String) -> Bool {
        var dir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && dir.boolValue
    }

    /// Files as given, folders expanded to their images (sorted, not recursive, hidden files skipped).
    static func collect(_ inputs: [String]) throws -> [String] {
        var files: [String] = []
        for input in inputs {
            if isDirectory(input) {
                let names = try FileManager.default.contentsOfDirectory(atPath: input).sorted()
                for name in names where !name.hasPrefix(".") && ImageFormat.fromExtension(name) != nil {
                    files.append(URL(fileURLWithPath: input).appendingPathComponent(name).path)
                }
            } else {
                files.append(input)
            }
        }
        return files
    }
}

/// One result slot per file, filled by workers in any order; guarded by `lock`.
final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [CorrectResult?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: CorrectResult) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = result
    }

    /// The filled slots, in input order.
    func all() -> [CorrectResult] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}

/// Hands out indices to workers; guarded by `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The next index, or nil when all `limit` are taken.
    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}
