import Foundation
import LookStudioTestSupport
import Pixels
import Rendering
import Scenes
import Testing
@testable import Workflows

/// The shoot's first-pass analyses kept for the corrections: within the budget, the lowest file indices first.
@Suite struct AnalysisShelfTests {
    /// An analysis whose preview holds `side`² RGB pixels (`side`² · 3 bytes).
    static func analysis(side: Int) throws -> SceneAnalysis {
        let pixels = [UInt8](repeating: 128, count: side * side * 3)
        return try SceneAnalysis(image: try PixelBuffer(width: side, height: side, channels: 3, samples: .eight(pixels)),
                                 detectFaces: false)
    }

    @Test("it keeps what fits, makes room for a lower index, refuses a higher one, and gives each up once")
    func budgetAndOrder() throws {
        let a = try Self.analysis(side: 10)
        var shelf = AnalysisShelf(budget: 2 * 300)
        shelf.offer(a, index: 5)
        shelf.offer(a, index: 7)
        shelf.offer(a, index: 9)
        shelf.offer(a, index: 1)
        #expect(shelf.take(1) != nil)
        #expect(shelf.take(5) != nil)
        #expect(shelf.take(7) == nil && shelf.take(9) == nil)
        #expect(shelf.take(5) == nil)
        shelf.offer(a, index: 3)
        #expect(shelf.take(3) != nil)
    }

    @Test("a budget of 0 keeps nothing, and an analysis larger than the budget is not kept")
    func nothingKept() throws {
        var none = AnalysisShelf(budget: 0)
        none.offer(try Self.analysis(side: 4), index: 0)
        #expect(none.take(0) == nil)
        var small = AnalysisShelf(budget: 100)
        small.offer(try Self.analysis(side: 10), index: 0)
        #expect(small.take(0) == nil)
    }
}

/// `correct --shoot` with the first pass's analyses kept gives what reading every photo again gives.
@Suite struct ShootFirstPassTests {
    @Test("kept or read again, the shoot's photos get the same correction and the same output bytes")
    func keptAnalysesChangeNothing() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The portrait brings a face, which the kept analysis must find as a fresh one does.
        let files = ["astronaut", "chelsea", "coffee"].map { CLI.packageRoot + "/samples/\($0).png" }
        var results: [[CorrectResult]] = []
        for budget in [0, 128 << 20] {
            var job = CorrectJob(files: files, strengths: [100], output: dir + "/\(budget)", toFolder: true,
                                 scene: nil, looks: LookPlan(explicit: nil), trims: LookTrims(), preLook: nil,
                                 auto: AutoChoice(), options: ImagePipeline.Options(), warn: { _ in })
            job.shoots = true
            job.firstPassBudget = budget
            try FileManager.default.createDirectory(atPath: dir + "/\(budget)", withIntermediateDirectories: true)
            results.append(job.run(jobs: 2) { _, _ in })
        }
        let (read, kept) = (results[0], results[1])
        #expect(read.count == 3 && kept.count == 3)
        #expect(read.map(\.faces) == kept.map(\.faces) && read[0].faces == 1)
        #expect(read.map(\.auto) == kept.map(\.auto) && read.allSatisfy { $0.auto?.shoot != nil })
        for (a, b) in zip(read, kept) {
            #expect(a.status == .done && b.status == .done, "\(a.error ?? "") \(b.error ?? "")")
            #expect(try Data(contentsOf: URL(fileURLWithPath: a.outputs[0]))
                    == Data(contentsOf: URL(fileURLWithPath: b.outputs[0])))
        }
    }
}
