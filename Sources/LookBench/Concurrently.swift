import Dispatch
import LookCore

/// `body` for each of `count` cases on every core, the results in case order; the first failure is thrown, named by
/// `label` (the evaluations' cases are independent files, so one failing stops the report rather than skewing it).
func concurrently<T>(_ count: Int, label: @Sendable (Int) -> String,
                     _ body: @Sendable (Int) throws -> T) throws -> [T] {
    let results = Locked([T?](repeating: nil, count: count))
    let failure = Locked<String?>(nil)
    DispatchQueue.concurrentPerform(iterations: count) { i in
        do {
            let r = try body(i)
            results.withLock { $0[i] = r }
        } catch {
            failure.withLock { $0 = "\(label(i)): \(error)" }
        }
    }
    if let message = failure.current { throw BenchError.failed(message) }
    return results.current.compactMap { $0 }
}
