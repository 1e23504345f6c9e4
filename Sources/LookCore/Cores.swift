import Dispatch
import Foundation

/// The number of cores work is split across.
enum ProcessInfoCores {
    static let active = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
}

/// Splits work over cores in chunks: the one splitter of the per-pixel loops (`CubeApplier` over a buffer, the image
/// pipeline over rows in caller memory), so both divide an image alike.
public enum WorkChunks {
    /// Runs `body` over `0..<count` in chunks of at least `minChunk` items, several per thread so a slow core does not
    /// stall the rest, on up to `threads` cores (nil: all).
    public static func run(count: Int, minChunk: Int, threads: Int?, _ body: @Sendable (Range<Int>) -> Void) {
        let workers = Swift.max(1, threads ?? ProcessInfoCores.active)
        let chunks = workers == 1 ? 1 : Swift.max(1, Swift.min(workers * 4, count / Swift.max(1, minChunk)))
        if chunks == 1 {
            body(0..<count)
            return
        }
        let per = (count + chunks - 1) / chunks
        if workers >= ProcessInfoCores.active {
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                let lo = c * per
                if lo < count { body(lo..<Swift.min(count, lo + per)) }
            }
        } else {
            // Honour an explicit thread count: each worker takes every `workers`-th chunk.
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var c = w
                while c < chunks {
                    let lo = c * per
                    if lo < count { body(lo..<Swift.min(count, lo + per)) }
                    c += workers
                }
            }
        }
    }
}
