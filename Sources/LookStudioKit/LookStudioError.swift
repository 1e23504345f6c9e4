import Workflows

/// Why an engine call failed: its kind (what to do about it) and a message a person can act on.
public struct LookStudioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, for callers that branch on it (the C API's status values).
    public enum Kind: Sendable, Equatable {
        /// The call was wrong: a size, a stride, a value out of range, an unusable ICC profile.
        case invalidArgument
        /// No look (scene, version, file) by that reference.
        case notFound
        /// The catalog is busy or the disk full: the call may be retried.
        case unavailable
        /// The catalog cannot be used until it is repaired (not a catalog, damaged, from a newer LookStudio).
        case catalogBroken
        /// Anything else.
        case failed
    }

    /// The kind.
    public let kind: Kind
    /// What went wrong and what to change.
    public let message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Any error from the engine, classified as the command line and the studio classify it (`FailureKind`).
    init(_ error: any Error) {
        if let known = error as? LookStudioError {
            self = known
            return
        }
        switch FailureKind(error) {
        case .notFound: kind = .notFound
        case .unavailable: kind = .unavailable
        case .broken: kind = .catalogBroken
        case .badRequest: kind = .invalidArgument
        case .conflict: kind = .failed
        }
        message = "\(error)"
    }

    public var description: String { message }
}

/// Runs `body`, turning any error into a `LookStudioError`.
func classified<T>(_ body: () throws -> T) throws(LookStudioError) -> T {
    do {
        return try body()
    } catch {
        throw LookStudioError(error)
    }
}
