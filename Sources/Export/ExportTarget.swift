import ImageIO

/// One application's LUT format: what it is called, what it holds, and the function that writes it.
public struct ExportTarget: Sendable {
    /// The word `--for` takes (`resolve`, `lightroom`, …).
    public let id: String
    /// The application(s) and file format, for people.
    public let format: String
    /// Extension of the main file written.
    public let fileExtension: String
    /// Grid size written when none is asked for.
    public let defaultSize: Int
    /// Grid sizes the consumer accepts.
    public let sizes: ClosedRange<Int>
    /// How values are stored.
    public let valueRange: String
    /// What the format cannot carry (baked into the table, or dropped, with a warning).
    public let cannotCarry: String
    /// What the target writes; a ``Content/cdl`` target has no grid, so its sizes do not apply.
    public var content: Content = .table
    /// Writes `look` at a grid size to a path; returns the files written, warnings and notes.
    let write: @Sendable (_ look: ExportLook, _ size: Int, _ path: String) throws -> ExportResult

    /// What an export target writes.
    public enum Content: Sendable, Equatable {
        /// A table sampled from the look's cube.
        case table
        /// The look's ASC CDL numbers (``ExportLook/cdl``): only a look that is one CDL can go there.
        case cdl
    }

    /// Throws unless the consumer accepts `size` points per axis.
    public func checkSize(_ size: Int) throws(ExportError) {
        guard content == .table else {
            throw ExportError(target: id, "a CDL holds no table, so it takes no size (\(size) was given)")
        }
        guard sizes.contains(size) else {
            throw ExportError(target: id, "size \(size) is not accepted; \(format) takes "
                              + "\(sizes.lowerBound)…\(sizes.upperBound) points per axis")
        }
    }
}

/// What an export wrote, and what the user should know about it.
public struct ExportResult: Sendable, Equatable {
    /// Every file written, main file first.
    public var files: [String]
    /// What was baked, dropped or clamped.
    public var warnings: [String]
    /// How to use the result (e.g. the ffmpeg command line).
    public var notes: [String]

    /// A result listing `files`.
    public init(files: [String], warnings: [String] = [], notes: [String] = []) {
        self.files = files
        self.warnings = warnings
        self.notes = notes
    }
}

/// The registry of export targets: one file per format, each registered here once.
public enum Exporter {
    /// Every target, in the order `--list-targets` prints them.
    public static let targets: [ExportTarget] = CubeTargets.all + [
        CoreImageTarget.target, OCIOTarget.target, CLFTarget.target, ICCLinkTarget.target,
        LightroomTarget.target, PanasonicVLTTarget.target, FFmpegTarget.target, HaldTarget.target, CDLTarget.target,
    ]

    /// The target called `id` (case-insensitive).
    public static func target(_ id: String) throws(ExportError) -> ExportTarget {
        guard let found = targets.first(where: { $0.id == id.lowercased() }) else {
            throw ExportError(target: id, "unknown target; known: " + targets.map(\.id).joined(separator: ", "))
        }
        return found
    }

    /// Writes `look` for target `id` to `path` at `size` (default: the target's), atomically per file.
    public static func export(_ look: ExportLook, for id: String, to path: String, size: Int? = nil) throws
        -> ExportResult {
        let target = try target(id)
        // Every target's default size is one it accepts; a CDL target refuses any size given.
        if let size { try target.checkSize(size) }
        try OutputSafety.checkDestination(path)
        return try target.write(look, size ?? target.defaultSize, path)
    }

    /// One line per target: id, format, size, range, what it cannot carry.
    public static func listing() -> [String] {
        targets.map { t in
            let range = "(\(t.sizes.lowerBound)…\(t.sizes.upperBound))"
            let sizes = t.content == .cdl ? "no table" : t.sizes.count == 1 ? "\(t.defaultSize)³"
                : "\(t.defaultSize)³ \(range)"
            return "\(t.id.padding(toLength: 11, withPad: " ", startingAt: 0)) \(t.format); .\(t.fileExtension) "
                + "\(sizes); \(t.valueRange); cannot carry: \(t.cannotCarry)"
        }
    }
}
