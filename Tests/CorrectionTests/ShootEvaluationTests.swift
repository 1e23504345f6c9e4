import Correction
import Foundation
import ImageIO
@testable import LookBench
import LookCore
import LookModel
import Scenes
import Testing

/// The shoot bench's reading and scoring, on a shoots folder written here in the layout shoot-cases.py writes.
struct ShootEvaluationTests {
    /// Three different synthetic photos: the still life, it mirrored, and a smooth field of colours.
    static func photos() -> [PixelBuffer] {
        let still = Scenes.stillLife()
        let w = Scenes.width, h = Scenes.height
        let mirrored = (0..<(w * h)).map { still[($0 / w) * w + (w - 1 - $0 % w)] }
        let field = (0..<(w * h)).map { i -> SIMD3<Double> in
            let t = Double(i % w) / Double(w - 1), u = Double(i / w) / Double(h - 1)
            return SIMD3(0.05 + 0.6 * t * u, 0.08 + 0.4 * (1 - t), 0.03 + 0.5 * u * (1 - t))
        }
        return [still, mirrored, field].map { Scenes.encode($0) }
    }

    /// Writes a warm shoot of the photos (gains known, the originals as the oracle) and an untouched shoot.
    static func writeCases(into dir: String) throws {
        var faulted: [String] = [], untouched: [String] = []
        for (k, photo) in photos().enumerated() {
            try PNGImage.write(photo, to: dir + "/p\(k).png")
            try PNGImage.write(Scenes.encode(Scenes.cast(Scenes.decode(photo), SIMD3(1.3, 1, 0.77))),
                               to: dir + "/w-\(k).png")
            faulted.append(#"{"good": "p\#(k).png", "faulted": "w-\#(k).png", "oracle": "p\#(k).png"}"#)
            untouched.append(#"{"good": "p\#(k).png", "faulted": "p\#(k).png", "oracle": null}"#)
        }
        let json = """
            {"split": "test", "families": ["warm"], "shoot_size": 3, "shoots": [
             {"id": "s0", "kind": "photos", "unit": "u", "family": "untouched", "photos": [\(untouched.joined(separator: ","))]},
             {"id": "s1", "kind": "photos", "unit": "u", "family": "warm", "photos": [\(faulted.joined(separator: ","))]}]}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/shoots.json"))
    }

    @Test("a shoots folder is read and scored: the oracle recovers 1, and the rows are the library's `--shoot` and single corrections")
    func scoresShoots() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shoots-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.writeCases(into: dir)
        // At 200 % the pooled estimate is applied whole, so the shoot's correction is not the photos' own.
        let settings = try CorrectionEvaluation.settings(everyStrength: 200)
        let report = try ShootEvaluation.run(directory: dir, settings: settings)
        #expect(report.rows.count == 3 && report.untouched.count == 3 && report.shootSize == 3)
        #expect(report.rows.allSatisfy { $0.oracle == 1 && $0.before > 3 && $0.family == "warm" })

        let analyses = try (0..<3).map { k in
            let decoded = try ImageFormat.readImage(path: dir + "/w-\(k).png")
            return CorrectionAnalysis(try SceneAnalysis(image: decoded.pixels, color: decoded.color))
        }
        let evidence = try analyses.map { try AutoCorrection.shootPhoto($0) }
        let estimate = try AutoCorrection.shootEstimate(evidence)
        for (k, row) in report.rows.sorted(by: { $0.photo < $1.photo }).enumerated() {
            let good = try ImageFormat.read(path: dir + "/p\(k).png").pixels
            let faulted = try ImageFormat.read(path: dir + "/w-\(k).png").pixels
            let before = Scenes.meanDeltaE(good, faulted)
            let pooled = try AutoCorrection.plan(analyses[k], settings: settings, shoot: (estimate, evidence[k]))
            let alone = try AutoCorrection.plan(analyses[k], settings: settings)
            let recovery = { (plan: AutoCorrection) in
                1 - Scenes.meanDeltaE(good, try Scenes.apply(try plan.cube(), to: faulted)) / before
            }
            #expect(row.photo == "w-\(k).png" && row.before == before)
            #expect(abs(row.shoot - (try recovery(pooled))) < 1e-12, "\(row)")
            #expect(abs(row.single - (try recovery(alone))) < 1e-12, "\(row)")
        }
        #expect(report.rows.contains { $0.shoot != $0.single })
        let table = report.table()
        #expect(table.contains("warm") && table.contains("all") && table.contains("untouched shoots, 3 photos"))
        #expect(table.contains("acceptance (issue 53)"))
    }

    @Test("without shoot cases the bench says how to get them")
    func missingCases() {
        #expect {
            try ShootEvaluation.run(directory: "/nonexistent-shoots")
        } throws: { "\($0)".contains("scripts/corpus.sh") && "\($0)".contains("shoot-cases.py") }
    }
}
