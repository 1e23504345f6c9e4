import Correction
import Foundation
import ImageIO
@testable import LookBench
import LookCore
import LookModel
import Testing

/// The realistic bench's reading and scoring, on a cases folder written here in the layout cases.py writes.
struct RealisticEvaluationTests {
    @Test("a cases folder is read and scored: the exact inverse recovers 1, the faulted photo itself 0")
    func scoresCases() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realistic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = Scenes.encode(Scenes.stillLife())
        let dark = Scenes.encode(Scenes.stillLife().map { $0 * 0.5 })
        try PNGImage.write(good, to: dir + "/p.png")
        try PNGImage.write(dark, to: dir + "/p-under.png")
        try PNGImage.write(good, to: dir + "/p-under-oracle.png")
        let json = """
            {"split": "test", "families": ["under"], "photos": [{"photo": "p.png", "package": "pkg", "kind": "colour",
             "faults": [{"family": "under", "faulted": "p-under.png", "oracle": "p-under-oracle.png"}]}]}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/cases.json"))
        let report = try RealisticEvaluation.run(directory: dir, settings: CorrectionPreset(enabled: false))
        let row = try #require(report.rows.first)
        #expect(report.rows.count == 1 && report.untouched.count == 1)
        #expect(row.oracle == 1 && row.model == 0 && row.before > 3)
        #expect(report.untouched.first?.moved == 0)
        let table = report.table(everyPhoto: true)
        #expect(table.contains("under") && table.contains("all") && table.contains("pkg colour"))
        #expect(!table.contains("by scene"))
    }

    @Test("photos labelled with scene kinds get a line per kind (a photo in two kinds counts in both); faces are counted")
    func groupsByScene() {
        let rows = [("a.png", 0.5), ("b.png", -0.1)].map {
            RealisticEvaluation.Row(photo: $0.0, package: "pkg", family: "under", before: 10, model: $0.1, oracle: 0.8,
                                    autoLevel: nil)
        }
        let untouched = [RealisticEvaluation.Untouched(photo: "a.png", package: "pkg", kind: "colour", moved: 0.2,
                                                       scenes: ["sky", "snow"], faces: 2, facesInFaulted: 1),
                         RealisticEvaluation.Untouched(photo: "b.png", package: "pkg", kind: "colour", moved: 0.7)]
        let table = RealisticEvaluation.Report(split: "test", families: ["under"], rows: rows, untouched: untouched,
                                               autoLevel: "none").table(everyPhoto: false)
        let line = { (scene: String) in table.split(separator: "\n").first { $0.hasPrefix("  \(scene) ") }.map(String.init) }
        #expect(line("sky")?.contains("   1     1   0.500   0.500   0.800   0.200") == true)
        #expect(line("snow") == line("sky")?.replacingOccurrences(of: "sky ", with: "snow"))
        #expect(line("other")?.contains("   1     1  -0.100  -0.100   0.800   0.700") == true)
        #expect(table.contains("faces found (the exposure's second cue): in 1 of 2 good photos, 1 of 2 faulted images; "
                               + "those photos: model mean 0.500, untouched max 0.200"))
    }

    @Test("--rows writes a header, a line per faulted case and per untouched photo, with every figure and label")
    func tabSeparatedRows() {
        let rows = [RealisticEvaluation.Row(photo: "a.png", package: "pkg", family: "under+warm", before: 10.25,
                                            model: 0.5, oracle: 0.8, autoLevel: -0.125),
                    RealisticEvaluation.Row(photo: "b.png", package: "pkg", family: "haze", before: 4, model: 0,
                                            oracle: 0.7, autoLevel: nil)]
        let untouched = [RealisticEvaluation.Untouched(photo: "a.png", package: "pkg", kind: "grey", moved: 0.25,
                                                       scenes: ["sky", "snow"])]
        let text = RealisticEvaluation.Report(split: "test", families: ["under+warm", "haze"], rows: rows,
                                              untouched: untouched, autoLevel: "none").tabSeparated()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: "\t",
            omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.count == 5 && lines.last == [""], "\(text)")
        #expect(lines.dropLast().allSatisfy { $0.count == 9 })
        #expect(lines[1] == ["faulted", "a.png", "pkg", "under+warm", "10.2500", "0.5000", "0.8000", "-0.1250", ""])
        #expect(lines[2][7] == "" && lines[2][3] == "haze")
        #expect(lines[3] == ["untouched", "a.png", "pkg", "grey", "0.2500", "", "", "", "sky,snow"])
    }

    @Test("without cases the bench says how to get them")
    func missingCases() {
        #expect {
            try RealisticEvaluation.run(directory: "/nonexistent-cases")
        } throws: { "\($0)".contains("scripts/corpus.sh") }
    }
}
