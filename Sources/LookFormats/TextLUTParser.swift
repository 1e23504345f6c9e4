/// A single-pass reader of one text LUT format (`.cube`, `.3dl`) over a file's bytes: what the readers share, from
/// loading the file to the warnings in line order.
protocol TextLUTParser {
    /// What the reader returns: the LUT and what the file said about it.
    associatedtype Contents

    /// The file as errors and warnings name it.
    var file: String { get }
    /// The file's bytes, line by line.
    var scan: TextScanner { get }
    /// The deviations tolerated so far.
    var warnings: [FormatWarning] { get set }

    /// A reader of `bytes`, which stay valid while it runs.
    init(bytes: UnsafeBufferPointer<UInt8>, file: String)

    /// Reads the whole file.
    mutating func run() throws(LookFormatsError) -> Contents
}

extension TextLUTParser {
    /// Reads the file at `path`; errors name the file by its last path component.
    static func read(path: String) throws(LookFormatsError) -> Contents {
        let name = FileBytes.displayName(path)
        return try parse(try FileBytes.load(path: path, name: name), fileName: name)
    }

    /// Parses a file's bytes; `fileName` is used in errors.
    static func parse(_ bytes: [UInt8], fileName: String) throws(LookFormatsError) -> Contents {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LookFormatsError) -> Contents in
                var parser = Self(bytes: buffer, file: fileName)
                return try parser.run()
            }
        }
        return try result.get()
    }

    /// An error about this file, at `line` when there is one.
    func error(_ line: Int?, _ message: String) -> LookFormatsError {
        LookFormatsError(file: file, line: line, message)
    }

    /// Records a tolerated deviation.
    mutating func warn(_ line: Int?, _ message: String) {
        warnings.append(FormatWarning(line: line, message))
    }

    /// Warns of a UTF-8 byte-order mark, which the scanner skips.
    mutating func noteByteOrderMark() {
        if TextScanner.hasByteOrderMark(scan.bytes) { warn(1, "UTF-8 byte-order mark at the start ignored") }
    }

    /// Whether the file holds nothing but spaces and line breaks.
    var isBlank: Bool { scan.bytes.allSatisfy { TextScanner.isSpace($0) || $0 == 0x0A || $0 == 0x0D } }

    /// The warnings in line order, those about the whole file last, in the order they were found where lines tie.
    var warningsInLineOrder: [FormatWarning] {
        warnings.enumerated().sorted { a, b in
            (a.element.line ?? Int.max, a.offset) < (b.element.line ?? Int.max, b.offset)
        }.map(\.element)
    }
}
