import Correction
import Dispatch
import Foundation
import Extraction
import ImageIO
import ImageMetadata
import LookCatalog
import LookCore
import LookModel
import Rendering
import Scenes

/// The automatic-correction choice of a run (`correct --auto`, `--exposure`, …): on, off or the scene's preset, and
/// each correction's percentage on top of the preset (nil: 100). Not a preset: every field may be left to the
/// scene, and percentages multiply the preset's rather than replace them.
public struct AutoChoice: Sendable, Hashable {
    /// nil: each scene's preset decides; true: on for every scene; false: off.
    public var enabled: Bool?
    /// Percentages of the engine's choice, 0…200, by stage (missing: 100).
    public var percentages: [CorrectionPreset.Strength: Double]

    /// The preset decides; `percentages` on top.
    public init(enabled: Bool? = nil, percentages: [CorrectionPreset.Strength: Double] = [:]) {
        self.enabled = enabled
        self.percentages = percentages
    }

    /// True when the stage is off for every scene, so no analysis is needed for it.
    public var isOff: Bool { enabled == false }

    /// The settings for a scene's preset with these percentages on top (nil: the stage is off for this scene).
    public func settings(preset: CorrectionPreset) -> CorrectionPreset? {
        guard enabled ?? preset.enabled else { return nil }
        var settings = preset
        settings.enabled = true
        return settings.scaled(percentages)
    }
}

/// One `correct` run over many files; the per-image work is independent, so it runs concurrently.
public struct CorrectJob: Sendable {
    /// The images, in input order.
    public var files: [String]
    /// Overall strengths; one output per strength.
    public var strengths: [Double]
    /// The output file, or folder when `toFolder`.
    public var output: String
    /// Outputs go into the folder `output`, named after their inputs.
    public var toFolder: Bool
    /// A fixed scene (nil: detect per image).
    public var scene: SceneLabel?
    /// Where each image's look comes from.
    public var looks: LookPlan
    /// The flags' overrides of the scene defaults (the pre-look cube among them).
    public var params: CorrectionOverrides
    /// The automatic-correction choice.
    public var auto: AutoChoice
    /// A surface the user says is neutral (nil: the model decides the white balance).
    public var neutral: NeutralChoice?
    /// `--shoot`: the photos of each folder are one shoot, corrected with one cast and one exposure.
    public var shoots = false
    /// With `shoots`: each folder's photos split into shoots by camera and wherever the capture time jumps by more
    /// than this many seconds (`ShootSplit`); nil: the folder is one shoot.
    public var shootGap: Double?
    /// Encoder, colour and pixel-limit options; each image's working space is its look's.
    public var options: ImagePipeline.Options
    /// The metadata each output carries from its input.
    public var metadata: MetadataOptions
    /// Shards, resume and manifest.
    public var batch: BatchRun
    /// `--in-place`: each output replaces its input (one strength only; `output` is unused).
    public var inPlace = false
    /// With `inPlace`, keep each original as `NAME.orig.EXT` (`InPlace`).
    public var keepBackups = true
    /// Receives warnings (one line each, without the "warning: " prefix).
    public var warn: @Sendable (String) -> Void
    /// The front end's words for a failed image's remedy, written after its error (none by default).
    public var remedyText: @Sendable (Remedy) -> String = { _ in "" }
    /// With `shoots`: bytes of the first pass's analyses kept for the corrections, which then skip decoding those
    /// photos again (a preview is at most 8.4 MB for a 3:2 photo, so 8 photos need about 70 MB; 0: every photo is
    /// read twice).
    public var firstPassBudget = 128 << 20

    /// A job over `files` with everything else at its default.
    public init(files: [String], strengths: [Double], output: String, toFolder: Bool, scene: SceneLabel?,
                looks: LookPlan, trims: LookTrims, preLook: ColorCube?, auto: AutoChoice, options: ImagePipeline.Options,
                metadata: MetadataOptions = MetadataOptions(), batch: BatchRun = .none, warn: @escaping @Sendable (String) -> Void) {
        self.files = files
        self.strengths = strengths
        self.output = output
        self.toFolder = toFolder
        self.scene = scene
        self.looks = looks
        params = trims.overrides(strength: 100, preLook: preLook)
        self.auto = auto
        self.options = options
        self.metadata = metadata
        self.batch = batch
        self.warn = warn
    }

    /// Corrects every file, `jobs` at a time; `progress` gets each image's line as it finishes (and whether it
    /// failed). Returns one result per file started, in input order: after SIGINT or SIGTERM (`Interruption` in
    /// `.stop` mode) no new image starts, and an image whose temporary output the signal removed is `interrupted`.
    public func run(jobs: Int, progress: @escaping @Sendable (String, Bool) -> Void) -> [CorrectResult] {
        let workers = max(1, min(jobs, files.count))
        // One image alone gets every core for its cube stage; several share them one core each.
        let threads = workers == 1 ? nil : 1
        let shelf = Locked(AnalysisShelf(budget: shoots && analyses ? firstPassBudget : 0))
        let shootOf = shoots ? estimateShoots(workers: workers, shelf: shelf) : [:]
        let results = Locked([CorrectResult?](repeating: nil, count: files.count))
        Self.eachUntilInterrupted(files.count, workers: workers) { index in
            let file = files[index]
            var result = CorrectResult(file: ImageFiles.displayPath(of: file))
            let started = DispatchTime.now()
            let outputs = strengths.map { outputPath(for: file, strength: $0) }
            if batch.alreadyDone(outputs: outputs) {
                result.outputs = outputs
                result.status = .skipped
            } else {
                do {
                    if let failure = shootOf[index]?.failure { throw failure }
                    try correct(file, threads: threads, shoot: shootOf[index]?.plan,
                                firstPass: shelf.withLock { $0.take(index) }, into: &result)
                    if let label = shootOf[index]?.label { result.auto?.shoot?.group = label }
                    result.aloneInShoot = shootOf[index]?.alone ?? false
                } catch {
                    result.error = Self.describe(error, file: file) + (Remedy(error).map(remedyText) ?? "")
                    result.status = .failed
                }
                // The handler removed the temporary output in flight, so the failure is the interrupt's.
                if result.status == .failed, let signal = Interruption.signal {
                    result.status = .interrupted
                    result.error = "interrupted by \(Self.signalName(signal))"
                }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            batch.record(&result, seconds: seconds)
            results.withLock { $0[index] = result }
            progress(result.line, result.status == .failed)
        }
        return results.current.compactMap { $0 }
    }

    /// SIGINT, SIGTERM or the signal's number.
    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// The share of `file`'s pixels outside the colours `shown`, from the analysis's sRGB preview when there is
    /// one, else from a reduced copy of the file. Advisory: a file that cannot be read gets the render's error.
    private static func unshownShare(_ shown: ShownColours, file: String, analysis: SceneAnalysis?,
                                     maxPixels: Int) -> Double? {
        guard let preview = analysis?.preview else {
            return (try? PairImage.colourSample(path: file, maxPixels: maxPixels)).map(shown.unshownShare(of:))
        }
        return shown.unshownShare(of: preview)
    }

    /// A photo's place in its shoot: the shoot's estimate and the photo's evidence, why the photo could not be
    /// read for it, or that it was alone.
    struct ShootPlace: Sendable {
        var plan: (estimate: ShootPlan, photo: ShootPhoto)?
        var failure: WorkflowError?
        /// The shoot's label when a split named it.
        var label: String?
        /// The only photo of its shoot: corrected as without `--shoot`.
        var alone = false
    }

    /// The shoots of the run (`shootsOfRun`), each photo's evidence read first, `workers` at a time, then each
    /// shoot's estimate; by file index. Only shoots of two photos or more are pooled: a shoot of one is corrected
    /// as without `--shoot`. A photo that cannot be read is left out of its shoot (its correction then fails with
    /// the reason).
    private func estimateShoots(workers: Int, shelf: Locked<AnalysisShelf>) -> [Int: ShootPlace] {
        let shoots = shootsOfRun(workers: workers)
        let groups = shoots.filter { $0.members.count > 1 }
        var places = [Int: ShootPlace]()
        for shoot in shoots where shoot.members.count == 1 { places[shoot.members[0]] = ShootPlace(alone: true) }
        let pooled = groups.flatMap(\.members)
        let evidence = Locked([Int: Result<ShootPhoto, WorkflowError>]())
        Self.eachUntilInterrupted(pooled.count, workers: workers) { k in
            let index = pooled[k]
            let read: Result<ShootPhoto, WorkflowError>
            do {
                let analysis = try SceneAnalysis(path: files[index], maxPixels: options.maxPixels,
                                                 detectFaces: false)
                read = .success(try AutoCorrection.shootPhoto(CorrectionAnalysis(analysis)))
                shelf.withLock { $0.offer(analysis, index: index) }
            } catch {
                read = .failure(.shootPhoto(Self.describe(error, file: files[index])))
            }
            evidence.withLock { $0[index] = read }
        }
        let read = evidence.current
        for group in groups {
            let photos = group.members.compactMap { i in (try? read[i]?.get()).map { (i, $0) } }
            guard let estimate = try? AutoCorrection.shootEstimate(photos.map(\.1)) else { continue }
            let label = shootGap == nil ? nil : group.label
            for (i, photo) in photos { places[i] = ShootPlace(plan: (estimate, photo), label: label) }
            for i in group.members where places[i] == nil {
                if case .failure(let error)? = read[i] { places[i] = ShootPlace(failure: error) }
            }
        }
        return places
    }

    /// The run's shoots: the photos of each folder, split by camera and capture time when `shootGap` is set (the
    /// capture times read `workers` at a time).
    private func shootsOfRun(workers: Int) -> [ShootSplit.Shoot] {
        let folders = Dictionary(grouping: files.indices) {
            (ImageFiles.displayPath(of: files[$0]) as NSString).deletingLastPathComponent
        }
        let name = { (folder: String) in folder.isEmpty ? "." : folder }
        guard let gap = shootGap else {
            return folders.map { ShootSplit.Shoot(members: $0.value, label: name($0.key)) }
        }
        let dated = folders.values.filter { $0.count > 1 }.flatMap { $0 }
        let captures = Locked([Int: CaptureInfo]())
        Self.eachUntilInterrupted(dated.count, workers: workers) { k in
            let capture = CaptureInfo.read(path: files[dated[k]])
            captures.withLock { $0[dated[k]] = capture }
        }
        let read = captures.current
        for index in dated.sorted() {
            if let problem = read[index]?.problem {
                warn("\(files[index]): no capture time (\(problem)); pooled with the folder's photos without one")
            }
        }
        return folders.flatMap { ShootSplit.split($0.value, folder: name($0.key), captures: read, gap: gap) }
    }

    /// Runs `body` for each of `0..<count` on up to `workers` threads, each taking the next index when it is done
    /// with one (images differ widely in cost); after SIGINT or SIGTERM no new index starts.
    private static func eachUntilInterrupted(_ count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
            while let index = next.withLock({ (n: inout Int) -> Int? in
                guard n < count, !Interruption.isRequested else { return nil }
                n += 1
                return n - 1
            }) {
                body(index)
            }
        }
    }

    /// Whether each photo is analysed: to detect its scene, for the automatic correction or for a neutral point.
    private var analyses: Bool { scene == nil || !auto.isOff || neutral != nil }

    /// Analyses once (or completes `firstPass`, the shoot's analysis of the file), then renders each strength,
    /// filling `result` as it goes.
    private func correct(_ file: String, threads: Int?, shoot: (estimate: ShootPlan, photo: ShootPhoto)?,
                         firstPass: SceneAnalysis?, into result: inout CorrectResult) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        // One analysis serves detection, the automatic correction and every strength.
        var analysis: SceneAnalysis?
        if analyses {
            analysis = try firstPass?.withFaces() ?? SceneAnalysis(path: file, maxPixels: options.maxPixels)
            if let failure = analysis?.faceDetectionFailure { warn("\(file): \(failure)") }
        }
        let reference = try analysis.flatMap { analysis in try neutral?.reference(on: analysis, file: file) }
        if case .point = neutral, let warning = reference?.implausibility { warn("\(file): \(warning)") }
        let plan = try CorrectPlan(analysis: analysis, scene: scene, looks: looks, params: params, auto: auto,
                                   neutral: reference, shoot: shoot)
        result.scene = plan.scene
        result.confidence = plan.confidence
        if scene == nil { result.faces = analysis?.faces.count }
        result.lookWithheld = plan.withheld
        result.presetHeldBack = plan.presetHeldBack
        if let shown = plan.look?.shownColours {
            result.lookUnshown = Self.unshownShare(shown, file: file, analysis: analysis, maxPixels: options.maxPixels)
        }
        result.auto = plan.overrides.auto
        var options = self.options
        options.threads = threads
        options.color = plan.color(options.color)
        let planned = DispatchTime.now().uptimeNanoseconds
        result.seconds.analysis = Double(planned - started) / 1e9
        defer { result.seconds.render = Double(DispatchTime.now().uptimeNanoseconds - planned) / 1e9 }
        for s in strengths {
            // Between strengths an interrupt discards the rest of this image rather than writing more of it.
            if let signal = Interruption.signal {
                throw WorkflowError.interrupted(file: file, signal: Self.signalName(signal))
            }
            if let look = plan.look {
                result.lookGuid = look.guid
                result.lookName = look.name
                result.lookStrength = plan.correction(strength: s).lutOutputStrength
            }
            let cube = try plan.cube(strength: s)
            let target = outputPath(for: file, strength: s)
            if let warning = ImagePipeline.depthWarning(input: file, output: target) { warn(warning) }
            var timings: ImagePipeline.Timings?
            let (notes, _) = try InPlace.replace(target, backup: inPlace && keepBackups) {
                try MetadataCarrier.write(from: file, to: target, options: metadata) { temporary in
                    timings = try ImagePipeline.apply(cube, input: file, output: temporary, options: options)
                }
            }
            for warning in (timings?.warnings ?? []) + notes where s == strengths.first { warn(warning) }
            result.outputs.append(target)
        }
    }

    /// Refuses, before any output exists, a run in which two inputs, or one input given twice, would write one
    /// output file. `batchFiles` is every file of the batch, every shard's included (default `files`), so two
    /// machines cannot write one output either.
    public func checkDistinctOutputs(batchFiles: [String]? = nil) throws(WorkflowError) {
        try PlannedOutputs.checkDistinct((batchFiles ?? files).flatMap { file in
            strengths.map { (input: file, output: outputPath(for: file, strength: $0)) }
        })
    }

    /// Refuses, before any output exists, a run that would write over one of its inputs: an output that is an
    /// input file (path, link or inode) or an output folder at or inside an input folder; and a single output
    /// file whose extension names no image format.
    public func checkOutputs(inputs: [String]) throws {
        // In place, every output is its input on purpose.
        if inPlace { return }
        if !toFolder, ImageFormat.fromExtension(output) == nil { throw WorkflowError.outputName(output) }
        let folders = inputs.filter(ImageFiles.isDirectory)
        if toFolder, !folders.isEmpty { try OutputSafety.check(inputFolders: folders, outputFolder: output) }
        for file in files {
            for strength in strengths {
                try OutputSafety.check(inputs: [file], output: outputPath(for: file, strength: strength))
            }
        }
    }

    /// Creates the output folder of a folder run (and its parents), naming it and the reason when that fails.
    /// Returns true when it made the folder (so a run that writes nothing can take it away again).
    @discardableResult
    public func createOutputFolder() throws(WorkflowError) -> Bool {
        guard toFolder, !inPlace else { return false }
        let existed = InputFile.kind(of: output) == .directory
        guard let error = Folders.make(output) else { return !existed }
        switch InputFile.kind(of: output) {
        case .directory, .unknown:
            throw .outputFolder(path: output, reason: String(cString: strerror(error)))
        case let kind:
            throw .outputFolder(path: output, reason: "it is \(kind.noun), not a folder")
        }
    }

    /// Removes the output folder when it is empty: a run that made it and wrote nothing leaves nothing behind.
    public func removeOutputFolderIfEmpty() {
        guard toFolder, !inPlace, (try? FileManager.default.contentsOfDirectory(atPath: output))?.isEmpty == true
        else { return }
        try? FileManager.default.removeItem(atPath: output)
    }

    /// Where the output of `file` at `strength` goes.
    public func outputPath(for file: String, strength: Double) -> String {
        if inPlace { return file }
        guard toFolder else { return output }
        let url = URL(fileURLWithPath: ImageFiles.displayPath(of: file))
        let base = url.deletingPathExtension().lastPathComponent
        let suffix = strengths.count > 1 ? "-s\(TextNumber.format(strength))" : ""
        // NSString keeps a relative OUT relative, so the paths printed and in --json are the ones the user gave.
        return (output as NSString).appendingPathComponent("\(base)\(suffix).\(url.pathExtension)")
    }

    /// Error text that names the file exactly once.
    static func describe(_ error: Error, file: String) -> String {
        let display = ImageFiles.displayPath(of: file)
        let text = "\(error)".replacingOccurrences(of: file, with: display)
        return text.contains(display) ? text : "\(display): \(text)"
    }
}
