import LookCore

/// The single-pass `.cube` reader over a byte buffer: the header's keyword lines up to the first table row, the rows
/// (with the keyword lines and comments real files put among them), then the LUT its sizes and ranges describe.
struct CubeParser: TextLUTParser {
    let file: String
    var scan: TextScanner
    var warnings: [FormatWarning] = []

    var title: String?
    var size1D: (size: Int, line: Int)?
    var size3D: (size: Int, line: Int)?
    var firstSizeLine: Int?
    var ranges: [RangeSetting] = []
    var seen: [CubeKeyword: Int] = [:]
    var inputVideoRange = false
    var outputVideoRange = false

    var dataStartLine: Int?
    var lastContentLine = 0
    /// Comment lines seen after the rows began; they become warnings only if another row follows.
    var pendingComments: [Int] = []
    var commentWarnings = 0
    var extraCommentWarnings = 0

    static let maxCommentWarnings = 10

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.file = file
        scan = TextScanner(bytes)
    }

    var expectedRowsDescription: String {
        switch (size1D, size3D) {
        case let (s1?, s3?):
            "expected \(s1.size) + \(s3.size * s3.size * s3.size) = \(s1.size + s3.size * s3.size * s3.size) rows "
                + "for LUT_1D_SIZE \(s1.size) and LUT_3D_SIZE \(s3.size)"
        case let (nil, s3?): "expected \(s3.size * s3.size * s3.size) rows for LUT_3D_SIZE \(s3.size)"
        case let (s1?, nil): "expected \(s1.size) rows for LUT_1D_SIZE \(s1.size)"
        case (nil, nil): "expected no rows"
        }
    }

    mutating func run() throws(LookFormatsError) -> CubeFileContents {
        noteByteOrderMark()
        let firstRow = try readHeader()
        let (n1, n3) = try declaredSizes(firstRow: firstRow)
        let expected = n1 + n3 * n3 * n3
        // A row takes at least 5 bytes ("0 0 0"), so a short file claiming a huge size cannot make us allocate it.
        let room = Swift.min(expected, (scan.bytes.count - (firstRow?.start ?? scan.bytes.count)) / 5 + 1)
        let values = UnsafeMutableBufferPointer<Float>.allocate(capacity: 3 * room)
        defer { values.deallocate() }
        let outside = try readRows(from: firstRow, into: values, expected: expected)
        if extraCommentWarnings > 0 {
            warn(nil, "\(extraCommentWarnings) more comment lines between table rows ignored")
        }
        if outside.count > 0 {
            warn(outside.firstLine, "\(outside.count) value\(outside.count == 1 ? "" : "s") outside 0…1, from "
                + "\(outside.lowest) to \(outside.highest) (the first on this line); kept as written")
        }
        let lut = try makeLUT(values: values, n1: n1, n3: n3)
        let resolve = (n1 > 0 && n3 > 0) || inputVideoRange || outputVideoRange
            || seen[.lut1DInputRange] != nil || seen[.lut3DInputRange] != nil
        return CubeFileContents(
            lut: lut, dialect: resolve ? .resolve : .adobe, warnings: warningsInLineOrder,
            inputVideoRange: inputVideoRange, outputVideoRange: outputVideoRange)
    }

    /// Reads the keyword lines before the table; returns its first row, nil when the file has none.
    mutating func readHeader() throws(LookFormatsError) -> TextLine? {
        while let line = scan.nextLine() {
            let i = scan.skipSpaces(line.start, line.end)
            if i == line.end || scan.bytes[i] == UInt8(ascii: "#") { continue }
            lastContentLine = line.number
            if CubeParser.startsNumber(scan.bytes[i]) { return line }
            guard let keyword = matchKeyword(line, at: i) else {
                throw error(line.number, "unknown keyword \"\(scan.text(i, scan.tokenEnd(i, line.end)))\"; "
                    + "expected TITLE, LUT_1D_SIZE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX, LUT_1D_INPUT_RANGE, "
                    + "LUT_3D_INPUT_RANGE or a table row")
            }
            try handle(keyword, line, at: i)
        }
        return nil
    }

    /// The sizes the header declared, 0 for a table the file does not have; a file that declares none is refused.
    func declaredSizes(firstRow: TextLine?) throws(LookFormatsError) -> (n1: Int, n3: Int) {
        if firstRow == nil && size1D == nil && size3D == nil && isBlank {
            throw error(nil, "the file is empty: a .cube file needs a LUT_3D_SIZE or LUT_1D_SIZE line and its rows")
        }
        guard size1D != nil || size3D != nil else {
            if let firstRow {
                throw error(firstRow.number, "table row before any LUT_3D_SIZE or LUT_1D_SIZE line; "
                    + "the size must be declared before the rows")
            }
            throw error(nil, "no LUT_3D_SIZE or LUT_1D_SIZE line: the file declares no table")
        }
        return (size1D?.size ?? 0, size3D?.size ?? 0)
    }

    /// Reads the table rows, from `firstRow` on, into `values` (room for `values.count / 3` rows); keyword lines
    /// among them are applied and comments between them noted. Returns what lay outside 0…1.
    mutating func readRows(from firstRow: TextLine?, into values: UnsafeMutableBufferPointer<Float>,
                           expected: Int) throws(LookFormatsError) -> OutsideUnitRange {
        var rows = 0
        var outside = OutsideUnitRange()
        var pending = firstRow
        while true {
            let line: TextLine
            if let p = pending {
                line = p
                pending = nil
            } else if let next = scan.nextLine() {
                line = next
            } else {
                break
            }
            let p = scan.skipSpaces(line.start, line.end)
            if p == line.end { continue }
            let first = scan.bytes[p]
            if first == UInt8(ascii: "#") {
                if dataStartLine != nil { pendingComments.append(line.number) }
                continue
            }
            lastContentLine = line.number
            if !CubeParser.startsNumber(first), let keyword = matchKeyword(line, at: p) {
                try handle(keyword, line, at: p)
                continue
            }
            if dataStartLine == nil { dataStartLine = line.number }
            flushPendingComments()
            guard rows < expected else {
                throw error(line.number, "\(expectedRowsDescription), found more (this is row \(rows + 1))")
            }
            // Unreachable (every row takes 5 bytes or more), but it keeps the writes inside the buffer.
            guard rows < values.count / 3 else { throw error(line.number, "\(expectedRowsDescription), found more") }
            try readRow(line, from: p, into: values, at: 3 * rows, outside: &outside)
            rows += 1
        }
        guard rows == expected else {
            throw error(lastContentLine, "\(expectedRowsDescription), found \(rows)")
        }
        return outside
    }

    /// Reads the three numbers of the table row `line`, starting at `start`, into `values` from `base`.
    mutating func readRow(_ line: TextLine, from start: Int, into values: UnsafeMutableBufferPointer<Float>,
                          at base: Int, outside: inout OutsideUnitRange) throws(LookFormatsError) {
        let end = line.end
        var p = start
        var k = 0
        while k < 3 {
            p = scan.skipSpaces(p, end)
            if p == end || scan.bytes[p] == UInt8(ascii: "#") { break }
            let e = scan.tokenEnd(p, end)
            guard let v = scan.parseFloat(p, e), v.isFinite else { throw numberError(line, p, e) }
            values[base + k] = v
            if v < 0 || v > 1 { outside.note(v, line: line.number) }
            k += 1
            p = e
        }
        guard k == 3 else {
            throw error(line.number, "expected 3 numbers, found \(k) (\"\(scan.quoted(line))\")")
        }
        p = scan.skipSpaces(p, end)
        guard p < end else { return }
        guard scan.bytes[p] == UInt8(ascii: "#") else {
            throw error(line.number, "expected 3 numbers, found \(k + scan.tokenCount(p, end)) "
                + "(\"\(scan.quoted(line))\")")
        }
        commentWarning(line.number, "comment after the numbers of a table row ignored")
    }

    @inline(__always)
    static func startsNumber(_ c: UInt8) -> Bool {
        (c &- 0x30) < 10 || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    mutating func flushPendingComments() {
        guard !pendingComments.isEmpty else { return }
        for line in pendingComments { commentWarning(line, "comment between table rows ignored") }
        pendingComments.removeAll(keepingCapacity: true)
    }

    /// Records a comment warning, keeping at most a handful so a commented file does not flood the report.
    mutating func commentWarning(_ line: Int, _ message: String) {
        if commentWarnings < CubeParser.maxCommentWarnings {
            commentWarnings += 1
            warn(line, message)
        } else {
            extraCommentWarnings += 1
        }
    }

    func numberError(_ line: TextLine, _ start: Int, _ end: Int) -> LookFormatsError {
        let token = scan.text(start, end)
        let lower = token.lowercased()
        let stripped = lower.hasPrefix("-") || lower.hasPrefix("+") ? String(lower.dropFirst()) : lower
        if ["nan", "inf", "infinity"].contains(stripped) {
            return error(line.number, "expected a number, found \"\(token)\": NaN and infinity are not allowed")
        }
        if scan.parseFloat(start, end) != nil {
            return error(line.number, "the number \"\(token)\" is too large for a 32-bit float")
        }
        return error(line.number, "expected a number, found \"\(token)\" in \"\(scan.quoted(line))\"")
    }
}

/// The table's values outside 0…1, kept as written and reported in one warning: how many, their extent, and the
/// line of the first.
struct OutsideUnitRange {
    var count = 0
    var lowest = Float.infinity
    var highest = -Float.infinity
    var firstLine = 0

    /// Counts `v`, found on `line`.
    mutating func note(_ v: Float, line: Int) {
        count += 1
        lowest = Swift.min(lowest, v)
        highest = Swift.max(highest, v)
        if firstLine == 0 { firstLine = line }
    }
}
