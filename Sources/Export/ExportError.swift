/// A problem exporting a look for another application, naming the target and what to change.
public struct ExportError: Error, Equatable, CustomStringConvertible {
    /// The target id (`resolve`, `lightroom`, …) or the file concerned.
    public let target: String
    /// What is wrong and what would work instead.
    public let message: String

    /// An error about `target`.
    public init(target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    public var description: String { "export for \(target): \(message)" }
}
