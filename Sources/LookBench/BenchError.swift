/// Why a benchmark could not run.
public enum BenchError: Error, CustomStringConvertible, Equatable {
    /// A step failed; the text says which and why.
    case failed(String)

    /// The message for the user.
    public var description: String {
        switch self {
        case .failed(let text): return text
        }
    }
}
