import LookCore

/// Results and the first error from concurrent workers, by index; `Locked`, since every worker reports here.
final class WorkerResults<Value: Sendable>: Sendable {
    private struct State {
        var results: [Int: Value] = [:]
        var error: (any Error)?
        var count = 0
    }

    private let state = Locked(State())

    func set(_ index: Int, _ value: Value) { state.withLock { $0.results[index] = value } }
    func fail(_ e: any Error) { state.withLock { if $0.error == nil { $0.error = e } } }
    func increment() -> Int { state.withLock { $0.count += 1; return $0.count } }

    /// Every result, or the first error any worker hit.
    func values() throws -> [Int: Value] {
        try state.withLock { state in
            if let error = state.error { throw error }
            return state.results
        }
    }
}
