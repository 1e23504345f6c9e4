import ArgumentParser
import Dispatch
import Foundation
import ImageIO
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
        IN may be files or folders (their .png, .jpg and .jpeg files). OUT is a file when one image and one \
        strength are given and OUT is not a folder; otherwise a folder (created), with outputs named after their \
        inputs, plus -sN for each strength when several are given (photo-s40.png). Each image is analysed once \
        (docs/SCENES.md) and rendered at every strength from that one analysis.

        Stages, all composed into ONE cube per image: pre-look recipe → creative look (always last) → look \
        contrast/saturation trims → look strength (blend with the pre-look result) → overall strength (against \
        identity). A failure on one image is reported and the rest go on; the exit status is 1 if any failed. \
        PNG to PNG streams in bands (bounded memory); JPEG is decoded whole.

        Examples:
          lookstudio correct photo.jpg -o out/ --lut film.cube --strength 40,70,100
          lookstudio correct shoot/ -o graded/ --scene 8 --lut clean.cube --look-saturation -20
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

    @Option(help: ArgumentHelp("Creative look from a LUT file (.cube, .3dl or cube PNG).", valueName: "file"))
    var lut: String?

    @Option(help: "Look strength in percent, 0…100 (default: the scene's, else 100).")
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

    @Option(help: "Images corrected at the same time (default: number of cores).")
    var jobs: Int?

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = PNGReader.defaultMaxPixels

    func validate() throws {
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

    func overrides(strength: Double) -> CorrectionOverrides {
        CorrectionOverrides(strength: strength, lutOutputStrength: lookStrength, lookContrast: lookContrast,
                            lookSaturation: lookSaturation)
    }

    func run() throws {
        let files = try CorrectJob.collect(inputs)
        guard !files.isEmpty else { throw ValidationError("no .png, .jpg or .jpeg images in \(inputs.joined(separator: ", "))") }
        let strengths = try strengths()
        let toFolder = files.count > 1 || strengths.count > 1 || CorrectJob.isDirectory(output)
            || inputs.contains(where: CorrectJob.isDirectory) || ImageFormat.fromExtension(output) == nil
        if toFolder { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) }
        var look: ColorCube?
        if let lut {
            let loaded = try LUTFormat.read(path: lut)
            report(loaded.warnings, file: lut)
            look = try loaded.lut.bakedCube()
        }
        let job = CorrectJob(files: files, strengths: strengths, output: output, toFolder: toFolder,
                             scene: try sceneChoice(), look: look, command: self)
        let (done, failed) = job.run(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        if failed > 0 {
            printError("\(done - failed) of \(done) images corrected, \(failed) failed")
            throw ExitCode.failure
        }
        printError("\(done) image\(done == 1 ? "" : "s") corrected")
    }
}

/// One `correct` run over many files; the per-image work is independent, so it runs concurrently.
struct CorrectJob: Sendable {
    let files: [String]
    let strengths: [Double]
    let output: String
    let toFolder: Bool
    let scene: SceneLabel?
    let look: ColorCube?
    let params: CorrectionOverrides
    let quality: Int
    let maxPixels: Int

    init(files: [String], strengths: [Double], output: String, toFolder: Bool, scene: SceneLabel?,
         look: ColorCube?, command: CorrectCommand) {
        self.files = files
        self.strengths = strengths
        self.output = output
        self.toFolder = toFolder
        self.scene = scene
        self.look = look
        self.params = command.overrides(strength: 100)
        self.quality = command.quality
        self.maxPixels = command.maxPixels
    }

    /// Corrects every file, `jobs` at a time; returns how many were attempted and how many failed.
    func run(jobs: Int) -> (done: Int, failed: Int) {
        let progress = Progress(total: files.count)
        let workers = max(1, min(jobs, files.count))
        // One image alone gets every core for its cube stage; several share them one core each.
        let threads = workers == 1 ? nil : 1
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = next.take(below: files.count) {
                let file = files[index]
                do {
                    let line = try correct(file, threads: threads)
                    progress.finished(line, failure: false)
                } catch {
                    progress.finished("error: \(Self.describe(error, file: file))", failure: true)
                }
            }
        }
        return progress.close()
    }

    /// Analyses once, then renders each strength; returns the line to report.
    private func correct(_ file: String, threads: Int?) throws -> String {
        var label = scene
        var note = ""
        if scene == nil {
            let detection = SceneDetector.detect(try SceneAnalysis(path: file, maxPixels: maxPixels))
            label = detection.label
            note = String(format: " (%.2f)", detection.confidence)
        }
        var options = ImagePipeline.Options()
        options.maxPixels = maxPixels
        options.jpegQuality = quality
        options.threads = threads
        var written: [String] = []
        for s in strengths {
            var overrides = params
            overrides.strength = s
            let correction = CorrectionParams(scene: label, defaults: SceneDefaults(), overrides: overrides)
            let cube = try Corrector.cube(for: correction, look: look)
            let target = outputPath(for: file, strength: s)
            if let warning = ImagePipeline.depthWarning(input: file, output: target) {
                printError("warning: \(warning)")
            }
            try Corrector.correct(cube: cube, input: file, output: target, options: options)
            written.append(target)
        }
        let sceneText = label.map { "scene \($0.rawValue) \($0.name)" } ?? "no scene"
        return "\(file) → \(written.joined(separator: ", ")) [\(sceneText)\(note)]"
    }

    func outputPath(for file: String, strength: Double) -> String {
        guard toFolder else { return output }
        let url = URL(fileURLWithPath: file)
        let base = url.deletingPathExtension().lastPathComponent
        let suffix = strengths.count > 1 ? "-s\(Self.number(strength))" : ""
        return URL(fileURLWithPath: output).appendingPathComponent("\(base)\(suffix).\(url.pathExtension)").path
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
