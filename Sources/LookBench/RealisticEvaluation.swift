import Correction
import Foundation
import ImageIO
import LookCore
import LookModel
import Scenes

/// The realistic evaluation of the automatic correction (issue 21, docs/CORRECTION.md): good photos of the corpus'
/// test split under faults made as a camera makes them. The cases are written by scripts/train/cases.py from
/// scripts/train/simulate.py, the one simulator training also uses; this reads them, corrects every faulted JPEG
/// as `correct` does, and scores CIEDE2000 against the good photo, next to the exact-inverse oracle and
/// ImageMagick's `-auto-level` on the same files.
public enum RealisticEvaluation {
    /// Where scripts/corpus.sh writes the test split's cases.
    public static let defaultCases = ".corpus/cases/test"

    /// How to get the cases when they are missing.
    public static let howToGet = """
        run scripts/corpus.sh from the project folder (it installs the photo packages with apt-get, extracts the \
        corpus into .corpus/ and writes the test cases into .corpus/cases/test), or, with the corpus already \
        there: cd scripts/train && python3 cases.py corpus-manifest.csv ../../.corpus ../../.corpus/cases/test
        """

    struct CaseFile: Decodable {
        struct Fault: Decodable { var family: String, faulted: String, oracle: String }
        struct Photo: Decodable {
            var photo: String, package: String, kind: String, faults: [Fault]
            /// Scene kinds labelled by eye (scripts/train/scene-kinds.csv); absent in cases written before them.
            var scenes: [String]?
        }
        var split: String
        var families: [String]
        var photos: [Photo]
    }

    /// One faulted photo: CIEDE2000 before, and the recovery (1 − after/before) of each corrector.
    public struct Row: Sendable, Equatable {
        /// The good photo's file and source package.
        public var photo: String, package: String
        /// The fault family (`under`, `warm`, `under+haze`, …).
        public var family: String
        /// Mean ΔE00 of the faulted photo from the good one.
        public var before: Double
        /// Recovery of the automatic correction, of the exact inverse, of ImageMagick `-auto-level` (nil: not run).
        public var model: Double, oracle: Double, autoLevel: Double?
    }

    /// How far the correction moves a good photo that needed none (mean ΔE00).
    public struct Untouched: Sendable, Equatable {
        /// The photo, its package and kind (colour or grey).
        public var photo: String, package: String, kind: String
        /// Mean ΔE00 between the photo and its correction.
        public var moved: Double
        /// Scene kinds the photo was labelled with (`sky`, `night`, `snow`, …); empty when unlabelled.
        public var scenes: [String] = []
        /// Faces the detector found in the good photo, and in how many of its faulted versions it found any.
        public var faces = 0, facesInFaulted = 0
    }

    /// Everything measured.
    public struct Report: Sendable {
        /// The split the cases came from and its fault families, in order.
        public var split: String, families: [String]
        /// Every faulted case.
        public var rows: [Row]
        /// Every good photo, untouched.
        public var untouched: [Untouched]
        /// The ImageMagick program used, or why there was none.
        public var autoLevel: String
    }

    /// Reads the cases in `directory`, corrects each (at most `limit` photos; 0: all) with `settings`.
    public static func run(directory: String = defaultCases, settings: CorrectionPreset = CorrectionPreset(),
                           limit: Int = 0) throws -> Report {
        let listing = directory + "/cases.json"
        guard let data = FileManager.default.contents(atPath: listing) else {
            throw BenchError.failed("no realistic cases at \(listing): \(howToGet)")
        }
        let file: CaseFile
        do {
            file = try JSONDecoder().decode(CaseFile.self, from: data)
        } catch {
            throw BenchError.failed("\(listing) is not a cases file written by scripts/train/cases.py: \(error)")
        }
        let photos = limit > 0 ? Array(file.photos.prefix(limit)) : file.photos
        let magick = ImageMagick.find()
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookstudio-bench-correct-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let autoLevelDir = try magick.map { m in
            try m.autoLevel(photos.flatMap { $0.faults.map { directory + "/" + $0.faulted } }, into: work)
        }
        let done = try concurrently(photos.count, label: { photos[$0].photo }) { i in
            try evaluate(photos[i], directory: directory, autoLevelDir: autoLevelDir, settings: settings)
        }
        return Report(split: file.split, families: file.families, rows: done.flatMap(\.rows),
                      untouched: done.map(\.untouched),
                      autoLevel: magick?.name ?? "ImageMagick not installed (apt-get install imagemagick)")
    }

    private static func evaluate(_ photo: CaseFile.Photo, directory: String, autoLevelDir: String?,
                                 settings: CorrectionPreset) throws -> (rows: [Row], untouched: Untouched) {
        let analysed = { (name: String) in try Self.analysed(path: directory + "/" + name) }
        let good = try analysed(photo.photo)
        let de = { (b: PixelBuffer) in CorrectionEvaluation.meanDeltaE(good.pixels, b) }
        var untouched = Untouched(photo: photo.photo, package: photo.package, kind: photo.kind,
                                  moved: de(try CorrectionEvaluation.correct(good.pixels, analysis: good.correction,
                                                                             settings: settings)),
                                  scenes: photo.scenes ?? [], faces: good.faces)
        var rows: [Row] = []
        for fault in photo.faults {
            let faulted = try analysed(fault.faulted)
            if faulted.faces > 0 { untouched.facesInFaulted += 1 }
            let before = de(faulted.pixels)
            let recovery = { (b: PixelBuffer) in before > 0 ? 1 - de(b) / before : 0 }
            let fixed = try CorrectionEvaluation.correct(faulted.pixels, analysis: faulted.correction,
                                                         settings: settings)
            let oracle = try ImageFormat.read(path: directory + "/" + fault.oracle).pixels.rgb()
            var level: Double?
            if let autoLevelDir {
                let name = (fault.faulted as NSString).deletingPathExtension + ".png"
                level = recovery(try ImageFormat.read(path: autoLevelDir + "/" + name).pixels.rgb())
            }
            rows.append(Row(photo: photo.photo, package: photo.package, family: fault.family, before: before,
                            model: recovery(fixed), oracle: recovery(oracle), autoLevel: level))
        }
        return (rows, untouched)
    }

    /// A case's file, decoded and analysed as `correct` analyses it — its preview and the faces found there, the
    /// exposure's second cue — so a photo with people is scored with the cue the product uses. The cases are smaller
    /// than the analysis copy, so analysing the decoded image gives the preview a read of the file would: one decode.
    static func analysed(path: String) throws -> (pixels: PixelBuffer, correction: CorrectionAnalysis, faces: Int) {
        let decoded = try ImageFormat.readImage(path: path)
        let analysis = try SceneAnalysis(image: decoded.pixels, color: decoded.color, file: path)
        if let failure = analysis.faceDetectionFailure {
            throw BenchError.failed("\(path): faces could not be looked for (\(failure))")
        }
        return (try decoded.pixels.rgb(), CorrectionAnalysis(analysis), analysis.faces.count)
    }

    /// Mean, 10th percentile and minimum of `values`.
    public static func summary(_ values: [Double]) -> (mean: Double, p10: Double, worst: Double) {
        guard !values.isEmpty else { return (0, 0, 0) }
        let sorted = values.sorted()
        let position = 0.1 * Double(sorted.count - 1), lower = Int(position)
        let p10 = sorted[lower] + (sorted[min(lower + 1, sorted.count - 1)] - sorted[lower])
            * (position - Double(lower))
        return (values.reduce(0, +) / Double(values.count), p10, sorted[0])
    }
}

extension RealisticEvaluation.Report {
    /// Every case as tab-separated values with a header line: `faulted` lines (photo, package, family, ΔE00
    /// before, the three recoveries; auto-level empty when not run), then `untouched` lines (photo, package, kind,
    /// ΔE00 moved, scenes separated by commas).
    public func tabSeparated() -> String {
        var lines = ["row\tphoto\tpackage\tfamily_or_kind\tbefore_or_moved\tmodel\toracle\tauto_level\tscenes"]
        for r in rows {
            lines.append(["faulted", r.photo, r.package, r.family, String(format: "%.4f", r.before),
                          String(format: "%.4f", r.model), String(format: "%.4f", r.oracle),
                          r.autoLevel.map { String(format: "%.4f", $0) } ?? "", ""].joined(separator: "\t"))
        }
        for u in untouched {
            lines.append(["untouched", u.photo, u.package, u.kind, String(format: "%.4f", u.moved), "", "", "",
                          u.scenes.joined(separator: ",")].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table `lookstudio bench correct` prints: per family and overall, mean recovery, p10 and worst of the
    /// correction, the oracle and `-auto-level`; then the untouched photos' movement, largest first.
    public func table(everyPhoto: Bool) -> String {
        var lines = ["realistic faults (\(split) split, simulate.py): \(untouched.count) photos, \(rows.count) cases; "
                     + "recovery = 1 − ΔE00 after / ΔE00 before; auto-level: \(autoLevel)"]
        lines.append("family        before |  model mean    p10   worst | oracle mean    p10 | auto-level mean"
                     + "    p10   worst")
        for family in families + ["all"] {
            let sel = rows.filter { family == "all" || $0.family == family }
            guard !sel.isEmpty else { continue }
            let m = RealisticEvaluation.summary(sel.map(\.model))
            let o = RealisticEvaluation.summary(sel.map(\.oracle))
            let levels = sel.compactMap(\.autoLevel)
            let a = RealisticEvaluation.summary(levels)
            let before = sel.reduce(0) { $0 + $1.before } / Double(sel.count)
            let level = levels.isEmpty ? "              —" : String(format: "%15.3f %6.3f %7.3f", a.mean, a.p10,
                                                                        a.worst)
            lines.append(family.padding(toLength: 12, withPad: " ", startingAt: 0)
                         + String(format: " %7.2f | %11.3f %6.3f %7.3f | %11.3f %6.3f | ", before, m.mean, m.p10,
                                  m.worst, o.mean, o.p10) + level)
        }
        lines.append("by source package and kind: cases, model mean and worst, oracle mean; untouched max ΔE00")
        let kinds = Dictionary(untouched.map { ($0.photo, $0.kind) }, uniquingKeysWith: { a, _ in a })
        let groups = Set(untouched.map { "\($0.package) \($0.kind)" }).sorted()
        for group in groups {
            let sel = rows.filter { "\($0.package) \(kinds[$0.photo] ?? "")" == group }
            let m = RealisticEvaluation.summary(sel.map(\.model)), o = RealisticEvaluation.summary(sel.map(\.oracle))
            let moved = untouched.filter { "\($0.package) \($0.kind)" == group }.map(\.moved).max() ?? 0
            lines.append("  " + group.padding(toLength: 34, withPad: " ", startingAt: 0)
                         + String(format: " %4d %7.3f %7.3f %7.3f %7.3f", sel.count, m.mean, m.worst, o.mean, moved))
        }
        lines += sceneLines()
        let withFaces = untouched.filter { $0.faces > 0 }
        let facePhotos = Set(withFaces.map(\.photo))
        lines.append("faces found (the exposure's second cue): in \(withFaces.count) of \(untouched.count) good photos, "
                     + "\(untouched.reduce(0) { $0 + $1.facesInFaulted }) of \(rows.count) faulted images"
                     + (withFaces.isEmpty ? "" : String(format: "; those photos: model mean %.3f, untouched max %.3f",
                        RealisticEvaluation.summary(rows.filter { facePhotos.contains($0.photo) }.map(\.model)).mean,
                        withFaces.map(\.moved).max() ?? 0)))
        let all = RealisticEvaluation.summary(rows.map(\.model)).mean
        let oracle = RealisticEvaluation.summary(rows.map(\.oracle)).mean
        lines.append(String(format: "model / oracle mean recovery: %.3f / %.3f = %.0f %%; cases below −0.25: %d",
                            all, oracle, oracle != 0 ? 100 * all / oracle : 0, rows.count { $0.model < -0.25 }))
        let moved = untouched.sorted { $0.moved > $1.moved }
        if let top = moved.first {
            lines.append(String(format: "untouched good photos moved (mean ΔE00 each): max %.3f (%@, %@), mean %.3f, "
                                + "> 1.0: %d of %d", top.moved, top.photo, top.package,
                                moved.reduce(0) { $0 + $1.moved } / Double(moved.count),
                                moved.count { $0.moved > 1 }, moved.count))
        }
        for u in everyPhoto ? moved : Array(moved.prefix(10)) {
            lines.append("  " + [u.photo.padding(toLength: 24, withPad: " ", startingAt: 0),
                                 u.package.padding(toLength: 28, withPad: " ", startingAt: 0),
                                 u.kind.padding(toLength: 6, withPad: " ", startingAt: 0)].joined(separator: " ")
                         + String(format: " %6.3f", u.moved))
        }
        return lines.joined(separator: "\n")
    }

    /// Per scene kind, so the acceptance's "bright skies, snow, sunsets, night, B&W included" can be read off;
    /// a photo with several kinds counts in each, one with none under "other".
    private func sceneLines() -> [String] {
        guard untouched.contains(where: { !$0.scenes.isEmpty }) else { return [] }
        let scenes = Dictionary(untouched.map { ($0.photo, $0.scenes.isEmpty ? ["other"] : $0.scenes) },
                                uniquingKeysWith: { a, _ in a })
        var lines = ["by scene (labelled by eye): photos, cases, model mean and worst, oracle mean; untouched max ΔE00"]
        for scene in Set(scenes.values.joined()).sorted() {
            let photos = untouched.filter { scenes[$0.photo, default: []].contains(scene) }
            let sel = rows.filter { scenes[$0.photo, default: []].contains(scene) }
            let m = RealisticEvaluation.summary(sel.map(\.model)), o = RealisticEvaluation.summary(sel.map(\.oracle))
            lines.append("  " + scene.padding(toLength: 12, withPad: " ", startingAt: 0)
                         + String(format: " %4d %5d %7.3f %7.3f %7.3f %7.3f", photos.count, sel.count, m.mean,
                                  m.worst, o.mean, photos.map(\.moved).max() ?? 0))
        }
        return lines
    }
}

/// ImageMagick, when installed: IM7's `magick` or IM6's `convert` (checked to be ImageMagick, not a stand-in).
struct ImageMagick {
    var executable: String, prefix: [String], name: String

    static func find() -> ImageMagick? {
        for (program, prefix) in [("magick", ["mogrify"]), ("mogrify", [])] {
            for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
                let path = "\(dir)/\(program)"
                guard FileManager.default.isExecutableFile(atPath: path),
                      let version = try? run(path, prefix + ["-version"]), version.contains("ImageMagick")
                else { continue }
                let first = version.split(separator: "\n").first.map(String.init) ?? program
                return ImageMagick(executable: path, prefix: prefix, name: first)
            }
        }
        return nil
    }

    /// `mogrify -auto-level` of every input into PNGs in `directory` (one process for all).
    func autoLevel(_ inputs: [String], into directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var start = 0
        while start < inputs.count {
            let chunk = Array(inputs[start..<min(inputs.count, start + 200)])
            _ = try Self.run(executable, prefix + ["-path", directory, "-format", "png", "-depth", "8", "-auto-level"] + chunk)
            start += chunk.count
        }
        return directory
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError.failed("\(executable) \(arguments.prefix(6).joined(separator: " ")) … exited with "
                                    + "\(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension PixelBuffer {
    /// The same image with three channels (a grey or RGBA file read as RGB), 8-bit.
    func rgb() throws -> PixelBuffer {
        guard case .eight(let s) = samples, channels != 3 else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for p in 0..<(width * height) {
            for c in 0..<3 { out[p * 3 + c] = s[p * channels + (channels >= 3 ? c : 0)] }
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(out))
    }
}
