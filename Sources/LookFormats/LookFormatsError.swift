/// A problem reading or writing a LUT file, with the file, the line where one applies, and what was expected.
public struct LookFormatsError: Error, Equatable, CustomStringConvertible {
    /// File name as given by the user (or a label such as "<memory>").
    public let file: String
    /// 1-based line number for text formats, nil otherwise.
    public let line: Int?
    /// What is wrong and, where possible, what was expected.
    public let message: String
    /// The layouts a cube image could be in when its pixels do not tell them apart (empty otherwise): what a
    /// front end offers as the values of its layout option.
    public let layouts: [CubeLayout]
    /// True when the file holds a grade rather than a table (an ASC CDL): what a front end offers is to store it as
    /// a look, which composes it, and use that.
    public let storesAsLook: Bool

    /// Creates an error about `file` (and `line`, for text), with the layouts an ambiguous cube image could be in.
    public init(file: String, line: Int? = nil, _ message: String, layouts: [CubeLayout] = [],
                storesAsLook: Bool = false) {
        self.file = file
        self.line = line
        self.message = message
        self.layouts = layouts
        self.storesAsLook = storesAsLook
    }

    public var description: String {
        if let line { return "\(file) line \(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// A deviation from the format's rules that was tolerated, kept so `inspect` and importers can report it.
public struct FormatWarning: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// 1-based line for text formats, nil when the warning is about the whole file.
    public let line: Int?
    /// What was tolerated and how it was read.
    public let message: String

    /// Creates a warning (at `line`, for text).
    public init(line: Int? = nil, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
