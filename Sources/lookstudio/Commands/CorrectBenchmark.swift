import ArgumentParser
import Foundation
import LookBench
import LookCore
import LookModel
import Pixels

/// `lookstudio bench correct`: how much of a known fault the automatic correction removes (docs/CORRECTION.md).
struct BenchCorrectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Score the automatic correction on camera-like faults of the corpus' test split (CIEDE2000).",
        discussion: """
        Without photos: the realistic evaluation (docs/CORRECTION.md). It reads the cases scripts/train/cases.py \
        wrote (scripts/corpus.sh writes them into .corpus/cases/test): each good photo of the test split under one \
        random fault of every family, made as a camera makes them (scripts/train/simulate.py), corrects every \
        faulted JPEG as correct does (faces included) and prints per family and overall the mean recovery, p10 \
        and worst case, next to the exact-inverse oracle and ImageMagick -auto-level on the same files; then per \
        source package and per scene kind (scripts/train/scene-kinds.csv), the faces found, and how far each \
        untouched good photo moved.

        With --shoots: the shoot evaluation (issue 53). It reads the shoots scripts/train/shoot-cases.py wrote \
        (scripts/corpus.sh writes them into .corpus/cases/shoots): shoots of 8 photos of one source unit of the test \
        split, and of 8 crops of one photo, each under one fault of every family or untouched. Each shoot is \
        corrected as correct FOLDER --shoot corrects it, and every photo also alone; it prints per family and \
        overall the mean recovery, p10 and worst of both, next to the exact-inverse oracle and -auto-level, how far \
        the untouched shoots' photos moved (mean ΔE00 each), and the issue's acceptance figures. --auto 200 applies \
        the shoot's whole estimate (a diagnostic of the estimate itself).

        With photos: the former lossless evaluation. Each photo is read at 768 px on its long side. For every fault (±0.5 and ±1 EV, warm, cool and green \
        casts at two strengths, two hazes; --other-faults: other magnitudes and mixtures) it prints the mean CIEDE2000 of the faulted photo from the original \
        (before), of the corrected one (after) and recovery = 1 − after/before; then how far the correction moves \
        each untouched photo. Summary: mean recovery, the worst case's relative worsening, the mean move.

        Examples: lookstudio bench correct
                  lookstudio bench correct --shoots --json > shoots.json
                  lookstudio bench correct samples/*.png photos/*.jpg
        """
    )

    @Argument(help: ArgumentHelp("Good photos (PNG or JPEG) for the lossless evaluation; none: the realistic one.",
                                 valueName: "image"))
    var images: [String] = []

    @Option(help: ArgumentHelp("Folder of realistic cases (cases.json and its images; default "
                               + "\(RealisticEvaluation.defaultCases)), or with --shoots of shoot cases (shoots.json; "
                               + "default \(ShootCases.defaultDirectory)).", valueName: "dir"))
    var cases: String?

    @Flag(help: "Evaluate the correction of whole shoots (correct --shoot) instead of single photos.")
    var shoots = false

    @Flag(help: "With --shoots: print the summaries and every photo's figures as one JSON object instead of the table.")
    var json = false

    @Option(help: ArgumentHelp("Evaluate only the first N photos of the realistic cases, or with --shoots the first "
                               + "N shoots of each kind and family (0: all)."))
    var limit = 0

    @Option(help: "Scale every automatic correction by this percentage (200: the model's whole estimate).")
    var auto = 100.0

    @Flag(help: "List every untouched photo's movement, not only the ten largest.")
    var everyPhoto = false

    @Flag(help: "Print only the per-fault means and the summary, not every photo × fault.")
    var brief = false

    @Flag(help: "Also print the plan (JSON) chosen for each untouched photo.")
    var plans = false

    @Flag(help: "Use other fault magnitudes and mixtures (±0.25/±1.5 EV, magenta, yellow, haze 8 %/45 %, …).")
    var otherFaults = false

    @Option(help: ArgumentHelp("Also write every realistic case's figures to this file as tab-separated values (a "
                               + "line per faulted image and per untouched photo), for analysis elsewhere.",
                               valueName: "file"))
    var rows: String?

    @Option(help: "Long side, in pixels, the photos are evaluated at.")
    var longSide: Int = CorrectionEvaluation.evaluationLongSide

    func validate() throws {
        guard longSide >= 1 else {
            throw ValidationError("--long-side \(longSide) is out of range: give 1 or more pixels")
        }
        guard limit >= 0 else { throw ValidationError("--limit \(limit) is out of range: give 0 (all) or more photos") }
        guard auto >= 0, auto.isFinite else {
            throw ValidationError("--auto \(TextNumber.format(auto)) is out of range: give 0 or more percent")
        }
        guard !shoots || (images.isEmpty && rows == nil) else {
            throw ValidationError("--shoots reads shoot cases: give no photos and no --rows with it")
        }
        guard shoots || !json else { throw ValidationError("--json goes with --shoots") }
        if let rows {
            // Checked now rather than after minutes of evaluation.
            guard images.isEmpty else {
                throw ValidationError("--rows goes with the realistic evaluation: give no photos with it")
            }
            let folder = (rows as NSString).deletingLastPathComponent
            guard FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
                throw ValidationError("--rows \(rows): cannot write into \(folder.isEmpty ? "." : folder) (missing or "
                                      + "not writable); give a file in a writable folder")
            }
        }
    }

    func run() throws {
        if shoots {
            let report = try ShootEvaluation.run(directory: cases ?? ShootCases.defaultDirectory,
                                                 settings: try CorrectionEvaluation.settings(everyStrength: auto),
                                                 limit: limit)
            print(json ? try jsonString(ShootBenchJSON(report), keys: .convertToSnakeCase) : report.table())
            return
        }
        guard !images.isEmpty else {
            let settings = try CorrectionEvaluation.settings(everyStrength: auto)
            let report = try RealisticEvaluation.run(directory: cases ?? RealisticEvaluation.defaultCases,
                                                     settings: settings, limit: limit)
            print(report.table(everyPhoto: everyPhoto))
            if let rows {
                try AtomicFile.write(to: rows) { try Data(report.tabSeparated().utf8).write(to: URL(fileURLWithPath: $0)) }
            }
            return
        }
        let loaded = try images.map { (name: URL(fileURLWithPath: $0).lastPathComponent,
                                       pixels: try CorrectionEvaluation.load(path: $0, longSide: longSide)) }
        if plans {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for (name, pixels) in loaded {
                print("\(name): \(String(decoding: try encoder.encode(CorrectionEvaluation.plan(for: pixels)), as: UTF8.self))")
            }
        }
        let faults = otherFaults ? CorrectionEvaluation.otherFaults : CorrectionEvaluation.standardFaults
        let summary = try CorrectionEvaluation.run(images: loaded, faults: faults)
        if !brief {
            print("image                      fault        before  after  recovery")
            for c in summary.cases {
                print(pad(c.image, 26) + pad(c.fault, 12) + String(format: "%6.2f %6.2f %8.2f",
                             c.before, c.after, c.recovery))
            }
        }
        print("fault        mean before  mean after  mean recovery  worst recovery")
        for fault in faults {
            let cases = summary.cases.filter { $0.fault == fault.name }
            let n = Double(cases.count)
            print(pad(fault.name, 12) + String(format: "%11.2f %11.2f %14.2f %15.2f",
                         cases.reduce(0) { $0 + $1.before } / n, cases.reduce(0) { $0 + $1.after } / n,
                         cases.reduce(0) { $0 + $1.recovery } / n, cases.map(\.recovery).min() ?? 0))
        }
        print("untouched photos, ΔE00 moved:")
        for u in summary.untouched { print("  " + pad(u.image, 26) + String(format: "%6.2f", u.moved)) }
        print(String(format: "mean recovery %.3f; worst case ends %.3f of its distance further; untouched move %.2f ΔE00",
                     summary.meanRecovery, summary.worstWorsening, summary.meanUntouchedMove))
    }

    private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0) }
}
