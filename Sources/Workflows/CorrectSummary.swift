import Foundation

/// The counts of a `correct` run, exact per outcome, and the one line that reports them.
public struct CorrectSummary: Sendable, Equatable {
    /// Images in the run (this shard's).
    public var total: Int
    /// Corrected now, skipped because their outputs existed, failed, and stopped in flight by an interrupt.
    public var done = 0, skipped = 0, failed = 0, interrupted = 0
    /// Images never started because an interrupt came first.
    public var notStarted: Int { total - done - skipped - failed - interrupted }
    /// The interrupting signal's name (SIGINT, SIGTERM), nil for a run that went to its end.
    public var signal: String?

    /// Counts `results` (one per image started) out of `total` images.
    public init(results: [CorrectResult], total: Int, signal: String? = nil) {
        self.total = total
        self.signal = signal
        for result in results {
            switch result.status {
            case .done: done += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            case .interrupted: interrupted += 1
            }
        }
    }

    /// "20 images corrected"; "15 of 20 images corrected, 5 skipped (their outputs exist)"; after an interrupt
    /// "interrupted by SIGINT: 3 of 40 images corrected, 0 skipped, 0 failed, 37 interrupted (2 in flight
    /// discarded, 35 not started)".
    public var line: String {
        let plural = total == 1 ? "" : "s"
        if let signal {
            let stopped = interrupted + notStarted
            return "interrupted by \(signal): \(done) of \(total) image\(plural) corrected, \(skipped) skipped, "
                + "\(failed) failed, \(stopped) interrupted (\(interrupted) in flight discarded, \(notStarted) "
                + "not started)"
        }
        if skipped == 0 && failed == 0 { return "\(done) image\(plural) corrected" }
        var text = "\(done) of \(total) image\(plural) corrected"
        if skipped > 0 { text += ", \(skipped) skipped (their outputs exist)" }
        if failed > 0 { text += ", \(failed) failed" }
        return text
    }
}
