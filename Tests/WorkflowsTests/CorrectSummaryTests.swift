import Testing
import Workflows

/// The `correct` summary counts every outcome apart, so a rerun never claims work it skipped.
@Suite struct CorrectSummaryTests {
    static func results(_ statuses: [ManifestRecord.Status]) -> [CorrectResult] {
        statuses.enumerated().map { index, status in
            var result = CorrectResult(file: "f\(index).png")
            result.status = status
            return result
        }
    }

    @Test("plain, skipped, failed and interrupted runs each say exactly what happened")
    func lines() {
        #expect(CorrectSummary(results: Self.results([.done]), total: 1).line == "1 image corrected")
        let resumed = CorrectSummary(results: Self.results(Array(repeating: .done, count: 15)
                                                            + Array(repeating: .skipped, count: 5)), total: 20)
        #expect(resumed.line == "15 of 20 images corrected, 5 skipped (their outputs exist)")
        let failed = CorrectSummary(results: Self.results(Array(repeating: .done, count: 19) + [.failed]), total: 20)
        #expect(failed.line == "19 of 20 images corrected, 1 failed")
        let stopped = CorrectSummary(results: Self.results([.done, .skipped, .interrupted, .interrupted]), total: 10,
                                     signal: "SIGTERM")
        #expect(stopped.notStarted == 6)
        #expect(stopped.line == "interrupted by SIGTERM: 1 of 10 images corrected, 1 skipped, 0 failed, 8 interrupted "
                + "(2 in flight discarded, 6 not started)")
    }

    @Test("an interrupted manifest line round-trips")
    func manifestStatus() throws {
        let record = ManifestRecord(file: "a.png", outputs: [], status: .interrupted, scene: 60,
                                    error: "interrupted by SIGINT", timings: .init(total: 0.5), shard: "0/1")
        let text = String(decoding: record.jsonLine(), as: UTF8.self)
        #expect(text.contains("\"status\":\"interrupted\""))
        #expect(try ManifestRecord.parse(text) == [record])
    }
}
