import Correction
import Foundation
import ImageIO
import LookCore
import LookModel

/// The shoot evaluation of the automatic correction (issue 53): shoots of the corpus' test split under one
/// camera-like fault each, written by scripts/train/shoot-cases.py with the simulator training uses. Each shoot is
/// corrected as `correct FOLDER --shoot` corrects it — every photo's evidence, one pooled estimate, each photo planned
/// with it, through the same library calls — and every photo also alone, as `correct` without `--shoot`; scored by
/// CIEDE2000 against the good photo next to the exact-inverse oracle and ImageMagick's `-auto-level`.
public enum ShootEvaluation {
    /// One faulted photo of a shoot: ΔE00 before, and the recovery (1 − after/before) of each corrector.
    public struct Row: Sendable, Equatable {
        /// The shoot, its kind (`photos` or `crops`) and source unit, its fault family, and the faulted file.
        public var id: String, kind: String, unit: String, family: String, photo: String
        /// Mean ΔE00 of the faulted photo from the good one.
        public var before: Double
        /// Recovery of the shoot's correction, of the photo's own, of the exact inverse, and of `-auto-level` (nil:
        /// not run).
        public var shoot: Double, single: Double, oracle: Double, autoLevel: Double?
    }

    /// How far the corrections move a photo of an untouched shoot (mean ΔE00).
    public struct Moved: Sendable, Equatable {
        /// The shoot, its kind and unit, and the photo.
        public var id: String, kind: String, unit: String, photo: String
        /// Mean ΔE00 between the photo and its correction with the shoot, and alone.
        public var shoot: Double, single: Double
    }

    /// Everything measured.
    public struct Report: Sendable {
        /// The split the shoots came from, its fault families in order, and photos per shoot.
        public var split: String, families: [String], shootSize: Int
        /// Every faulted photo of every faulted shoot.
        public var rows: [Row]
        /// Every photo of every untouched shoot.
        public var untouched: [Moved]
        /// The ImageMagick program used, or why there was none.
        public var autoLevel: String
    }

    /// Reads the shoot cases in `directory` and corrects each shoot (at most `limit` shoots of each kind and
    /// family; 0: all) with `settings`.
    public static func run(directory: String = ShootCases.defaultDirectory,
                           settings: CorrectionPreset = CorrectionPreset(), limit: Int = 0) throws -> Report {
        let file = try ShootCases.read(directory: directory)
        let shoots = limit > 0 ? Dictionary(grouping: file.shoots) { "\($0.kind) \($0.family)" }.values
            .flatMap { $0.prefix(limit) }.sorted { $0.id < $1.id } : file.shoots
        let magick = ImageMagick.find()
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookstudio-bench-shoots-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let autoLevelDir = try magick.map { m in
            try m.autoLevel(shoots.filter { $0.family != "untouched" }
                .flatMap { $0.photos.map { directory + "/" + $0.faulted } }, into: work)
        }
        let done = try concurrently(shoots.count, label: { "shoot \(shoots[$0].id)" }) { i in
            try evaluate(shoots[i], directory: directory, autoLevelDir: autoLevelDir, settings: settings)
        }
        return Report(split: file.split, families: file.families, shootSize: file.shootSize,
                      rows: done.flatMap(\.rows), untouched: done.flatMap(\.moved),
                      autoLevel: magick?.name ?? "ImageMagick not installed (apt-get install imagemagick)")
    }

    /// Each of a shoot's photos corrected with the shoot's estimate, as `CorrectBatch` corrects a folder with
    /// `--shoot`: a shoot of one photo is not pooled.
    static func corrected(_ photos: [(pixels: PixelBuffer, correction: CorrectionAnalysis)],
                          settings: CorrectionPreset) throws -> [PixelBuffer] {
        let evidence = try photos.map { try AutoCorrection.shootPhoto($0.correction) }
        let estimate = photos.count > 1 ? try AutoCorrection.shootEstimate(evidence) : nil
        return try photos.indices.map { k in
            try CorrectionEvaluation.correct(photos[k].pixels, analysis: photos[k].correction, settings: settings,
                                             shoot: estimate.map { ($0, evidence[k]) })
        }
    }

    private static func evaluate(_ shoot: ShootCases.Shoot, directory: String, autoLevelDir: String?,
                                 settings: CorrectionPreset) throws -> (rows: [Row], moved: [Moved]) {
        let faulted = try shoot.photos.map { try RealisticEvaluation.analysed(path: directory + "/" + $0.faulted) }
        let pooled = try corrected(faulted.map { ($0.pixels, $0.correction) }, settings: settings)
        var rows: [Row] = [], moved: [Moved] = []
        for (k, photo) in shoot.photos.enumerated() {
            let good = try ImageFormat.read(path: directory + "/" + photo.good).pixels.rgb()
            let de = { (b: PixelBuffer) in CorrectionEvaluation.meanDeltaE(good, b) }
            let single = try CorrectionEvaluation.correct(faulted[k].pixels, analysis: faulted[k].correction,
                                                          settings: settings)
            guard shoot.family != "untouched" else {
                moved.append(Moved(id: shoot.id, kind: shoot.kind, unit: shoot.unit, photo: photo.faulted,
                                   shoot: de(pooled[k]), single: de(single)))
                continue
            }
            guard let oracleFile = photo.oracle else {
                throw BenchError.failed("\(photo.faulted) is faulted (\(shoot.family)) but has no oracle file")
            }
            let before = de(faulted[k].pixels)
            let recovery = { (b: PixelBuffer) in before > 0 ? 1 - de(b) / before : 0 }
            let oracle = try ImageFormat.read(path: directory + "/" + oracleFile).pixels.rgb()
            let level = try autoLevelDir.map { dir in
                let name = (photo.faulted as NSString).deletingPathExtension + ".png"
                return recovery(try ImageFormat.read(path: dir + "/" + name).pixels.rgb())
            }
            rows.append(Row(id: shoot.id, kind: shoot.kind, unit: shoot.unit, family: shoot.family,
                            photo: photo.faulted, before: before, shoot: recovery(pooled[k]),
                            single: recovery(single), oracle: recovery(oracle), autoLevel: level))
        }
        return (rows, moved)
    }
}
