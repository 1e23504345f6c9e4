import Foundation
import LookCore
import Pixels

/// Which family of `.cube` a file belongs to.
public enum CubeDialect: String, Sendable, Codable {
    /// Adobe / Iridas: one table (1D or 3D) with a per-channel `DOMAIN_MIN` / `DOMAIN_MAX`.
    case adobe
    /// DaVinci Resolve: an optional 1D shaper before the 3D table, `LUT_1D_INPUT_RANGE` / `LUT_3D_INPUT_RANGE`.
    case resolve
}

/// A `.cube` file as read: the LUT, its dialect and every deviation that was tolerated.
public struct CubeFileContents: Sendable, Equatable {
    /// Title, 1D shaper, 3D cube and the input ranges of both.
    public var lut: LUT
    /// Resolve when the file uses Resolve's keywords or carries both tables, Adobe otherwise.
    public var dialect: CubeDialect
    /// Every tolerated deviation, with its 1-based line, in line order.
    public var warnings: [FormatWarning]
    /// Resolve's `LUT_IN_VIDEO_RANGE` was present (recorded only; values are kept as written).
    public var inputVideoRange: Bool
    /// Resolve's `LUT_OUT_VIDEO_RANGE` was present (recorded only; values are kept as written).
    public var outputVideoRange: Bool

    /// Wraps parsed contents.
    public init(
        lut: LUT, dialect: CubeDialect, warnings: [FormatWarning] = [],
        inputVideoRange: Bool = false, outputVideoRange: Bool = false
    ) {
        self.lut = lut
        self.dialect = dialect
        self.warnings = warnings
        self.inputVideoRange = inputVideoRange
        self.outputVideoRange = outputVideoRange
    }
}

/// Reads and writes Adobe/Iridas and DaVinci Resolve `.cube` LUTs (text, red fastest, optional 1D shaper).
public enum CubeFile {
    /// Reads the `.cube` file at `path`; errors name the file by its last path component.
    public static func read(path: String) throws(LookFormatsError) -> CubeFileContents {
        let name = FileBytes.displayName(path)
        return try parse(try FileBytes.load(path: path, name: name), fileName: name)
    }

    /// Parses the bytes of a `.cube` file; `fileName` is used in errors.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(LookFormatsError) -> CubeFileContents {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LookFormatsError) -> CubeFileContents in
                var parser = CubeParser(bytes: buffer, file: fileName)
                return try parser.run()
            }
        }
        return try result.get()
    }

    /// The LUT as `.cube` text, in the dialect `preferredDialect(for:)` picks.
    public static func serialize(_ lut: LUT) -> String {
        serialize(lut, dialect: preferredDialect(for: lut))
    }

    /// The LUT as `.cube` text, preferring `dialect`; a LUT only the other dialect can express is written in it.
    ///
    /// Values are written with `Float.description`, the shortest text that reads back to the same Float.
    public static func serialize(_ lut: LUT, dialect: CubeDialect) -> String {
        var out = ""
        let rows = (lut.shaper?.size ?? 0) + (lut.cube?.entryCount ?? 0)
        out.reserveCapacity(64 * 4 + rows * 30)
        serialize(lut, dialect: dialect) { out += $0 }
        return out
    }

    /// The text of `serialize(_:dialect:)` handed to `emit` in pieces of at most about a megabyte, so a writer
    /// need not hold a 256³ cube's 500 MB of text at once.
    static func serialize(_ lut: LUT, dialect: CubeDialect, emit: (String) throws -> Void) rethrows {
        var out = ""
        if let title = lut.title {
            // The format has no escape for quotes or line breaks inside a title.
            let clean = title.map { $0 == "\"" ? "'" : ($0.isNewline ? " " : $0) }
            out += "TITLE \"\(String(clean))\"\n"
        }
        var shaper = lut.shaper
        if let s = shaper {
            out += "LUT_1D_SIZE \(s.size)\n"
            let uniform = isUniform(s.inputMin) && isUniform(s.inputMax)
            let unit = s.inputMin == .zero && s.inputMax == .one
            if lut.cube != nil && !uniform {
                // Resolve's ranges are one pair for all channels: move each channel onto the widest range.
                let resampled = uniformShaper(s)
                shaper = resampled
                out += "LUT_1D_INPUT_RANGE \(resampled.inputMin.x) \(resampled.inputMax.x)\n"
            } else if !unit {
                if uniform && (dialect == .resolve || lut.cube != nil) {
                    out += "LUT_1D_INPUT_RANGE \(s.inputMin.x) \(s.inputMax.x)\n"
                } else if lut.cube == nil {
                    out += "DOMAIN_MIN \(triple(s.inputMin))\nDOMAIN_MAX \(triple(s.inputMax))\n"
                }
            }
        }
        if let cube = lut.cube {
            out += "LUT_3D_SIZE \(cube.size)\n"
            let lo = lut.cubeInputMin, hi = lut.cubeInputMax
            if lo != .zero || hi != .one {
                let resolveStyle = dialect == .resolve || lut.shaper != nil
                if resolveStyle && isUniform(lo) && isUniform(hi) {
                    out += "LUT_3D_INPUT_RANGE \(lo.x) \(hi.x)\n"
                } else {
                    out += "DOMAIN_MIN \(triple(lo))\nDOMAIN_MAX \(triple(hi))\n"
                }
            }
        }
        for values in [shaper?.values, lut.cube?.values].compactMap({ $0 }) {
            var start = 0
            while start < values.count {
                let end = min(values.count, start + 3 * 32_768)
                appendRows(values[start..<end], to: &out)
                try emit(out)
                out = ""
                start = end
            }
        }
        if !out.isEmpty { try emit(out) }
    }

    /// Writes the LUT as a `.cube` file, atomically (a temporary file renamed into place), streaming its text.
    public static func write(_ lut: LUT, to path: String) throws {
        try AtomicFile.write(to: path) { temp in
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw AtomicFileError(path: path, errno: errno) }
            var closed = false
            defer { if !closed { close(fd) } }
            try serialize(lut, dialect: preferredDialect(for: lut)) { text in
                let bytes = Array(text.utf8)
                var offset = 0
                while offset < bytes.count {
                    let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw AtomicFileError(path: path, errno: n < 0 ? errno : EIO) }
                    offset += n
                }
            }
            closed = true
            if close(fd) != 0 { throw AtomicFileError(path: path, errno: errno) }
        }
    }

    /// The dialect `serialize(_:)` uses: Resolve for a shaper with a cube or a 1D table on one non-unit range,
    /// else Adobe.
    public static func preferredDialect(for lut: LUT) -> CubeDialect {
        if lut.shaper != nil && lut.cube != nil { return .resolve }
        if let s = lut.shaper, lut.cube == nil, isUniform(s.inputMin), isUniform(s.inputMax),
           s.inputMin != .zero || s.inputMax != .one {
            return .resolve
        }
        return .adobe
    }

    private static func isUniform(_ v: SIMD3<Float>) -> Bool { v.x == v.y && v.y == v.z }

    private static func triple(_ v: SIMD3<Float>) -> String { "\(v.x) \(v.y) \(v.z)" }

    private static func appendRows(_ values: ArraySlice<Float>, to out: inout String) {
        var i = values.startIndex
        while i + 2 < values.endIndex {
            out += values[i].description
            out += " "
            out += values[i + 1].description
            out += " "
            out += values[i + 2].description
            out += "\n"
            i += 3
        }
    }

    /// The shaper evaluated on one input range for all channels (the union of the per-channel ranges).
    private static func uniformShaper(_ s: Shaper) -> Shaper {
        let lo = s.inputMin.min(), hi = s.inputMax.max()
        var values = [Float](repeating: 0, count: 3 * s.size)
        for i in 0..<s.size {
            let x = lo + (hi - lo) * Float(i) / Float(s.size - 1)
            let v = s.apply(SIMD3(repeating: x))
            values[3 * i] = v.x
            values[3 * i + 1] = v.y
            values[3 * i + 2] = v.z
        }
        // Sizes, finiteness and the range were all checked when `s` was made, so this cannot fail.
        return (try? Shaper(size: s.size, values: values, inputMin: SIMD3(repeating: lo), inputMax: SIMD3(repeating: hi))) ?? s
    }
}

/// The `.cube` header keywords, by their upper-case spelling.
private enum CubeKeyword: CaseIterable {
    case title, lut1DSize, lut3DSize, domainMin, domainMax, lut1DInputRange, lut3DInputRange
    case lutInVideoRange, lutOutVideoRange

    var spelling: StaticString {
        switch self {
        case .title: "TITLE"
        case .lut1DSize: "LUT_1D_SIZE"
        case .lut3DSize: "LUT_3D_SIZE"
        case .domainMin: "DOMAIN_MIN"
        case .domainMax: "DOMAIN_MAX"
        case .lut1DInputRange: "LUT_1D_INPUT_RANGE"
        case .lut3DInputRange: "LUT_3D_INPUT_RANGE"
        case .lutInVideoRange: "LUT_IN_VIDEO_RANGE"
        case .lutOutVideoRange: "LUT_OUT_VIDEO_RANGE"
        }
    }

    var name: String { spelling.description }
}

/// One line that sets an input range: `DOMAIN_MIN`/`DOMAIN_MAX` or a Resolve `LUT_*_INPUT_RANGE`.
private struct RangeSetting {
    var keyword: CubeKeyword
    var min: SIMD3<Float>?
    var max: SIMD3<Float>?
    var line: Int
}

/// The single-pass `.cube` reader over a byte buffer.
private struct CubeParser {
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

    func error(_ line: Int?, _ message: String) -> LookFormatsError {
        LookFormatsError(file: file, line: line, message)
    }

    mutating func warn(_ line: Int?, _ message: String) {
        warnings.append(FormatWarning(line: line, message))
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
        if TextScanner.hasByteOrderMark(scan.bytes) { warn(1, "UTF-8 byte-order mark at the start ignored") }
        // Header: keyword lines until the first table row.
        var firstRow: TextLine?
        while let line = scan.nextLine() {
            let i = scan.skipSpaces(line.start, line.end)
            if i == line.end || scan.bytes[i] == UInt8(ascii: "#") { continue }
            lastContentLine = line.number
            if CubeParser.startsNumber(scan.bytes[i]) {
                firstRow = line
                break
            }
            guard let keyword = matchKeyword(line, at: i) else {
                throw error(line.number, "unknown keyword \"\(scan.text(i, scan.tokenEnd(i, line.end)))\"; "
                    + "expected TITLE, LUT_1D_SIZE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX, LUT_1D_INPUT_RANGE, "
                    + "LUT_3D_INPUT_RANGE or a table row")
            }
            try handle(keyword, line, at: i)
        }
        if firstRow == nil && size1D == nil && size3D == nil {
            let onlySpace = scan.bytes.allSatisfy { TextScanner.isSpace($0) || $0 == 0x0A || $0 == 0x0D }
            if onlySpace {
                throw error(nil, "the file is empty: a .cube file needs a LUT_3D_SIZE or LUT_1D_SIZE line and its rows")
            }
        }
        guard size1D != nil || size3D != nil else {
            if let firstRow {
                throw error(firstRow.number, "table row before any LUT_3D_SIZE or LUT_1D_SIZE line; "
                    + "the size must be declared before the rows")
            }
            throw error(nil, "no LUT_3D_SIZE or LUT_1D_SIZE line: the file declares no table")
        }
        let n1 = size1D?.size ?? 0
        let n3 = size3D?.size ?? 0
        let expected = n1 + n3 * n3 * n3
        // A row takes at least 5 bytes ("0 0 0"), so a short file claiming a huge size cannot make us allocate it.
        let room = Swift.min(expected, (scan.bytes.count - (firstRow?.start ?? scan.bytes.count)) / 5 + 1)
        let values = UnsafeMutableBufferPointer<Float>.allocate(capacity: 3 * room)
        defer { values.deallocate() }
        var rows = 0
        var outside = 0
        var lowest = Float.infinity, highest = -Float.infinity
        var firstOutsideLine = 0

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
            let end = line.end
            var p = scan.skipSpaces(line.start, end)
            if p == end { continue }
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
            guard rows < room else { throw error(line.number, "\(expectedRowsDescription), found more") }
            let base = 3 * rows
            var k = 0
            while k < 3 {
                p = scan.skipSpaces(p, end)
                if p == end || scan.bytes[p] == UInt8(ascii: "#") { break }
                let e = scan.tokenEnd(p, end)
                guard let v = scan.parseFloat(p, e), v.isFinite else { throw numberError(line, p, e) }
                values[base + k] = v
                if v < 0 || v > 1 {
                    outside += 1
                    lowest = Swift.min(lowest, v)
                    highest = Swift.max(highest, v)
                    if firstOutsideLine == 0 { firstOutsideLine = line.number }
                }
                k += 1
                p = e
            }
            if k == 3 {
                p = scan.skipSpaces(p, end)
                if p < end {
                    guard scan.bytes[p] == UInt8(ascii: "#") else {
                        k += scan.tokenCount(p, end)
                        throw error(line.number, "expected 3 numbers, found \(k) (\"\(scan.quoted(line))\")")
                    }
                    commentWarning(line.number, "comment after the numbers of a table row ignored")
                }
            } else {
                throw error(line.number, "expected 3 numbers, found \(k) (\"\(scan.quoted(line))\")")
            }
            rows += 1
        }
        guard rows == expected else {
            throw error(lastContentLine, "\(expectedRowsDescription), found \(rows)")
        }
        if extraCommentWarnings > 0 {
            warn(nil, "\(extraCommentWarnings) more comment lines between table rows ignored")
        }
        if outside > 0 {
            warn(firstOutsideLine, "\(outside) value\(outside == 1 ? "" : "s") outside 0…1, from \(lowest) to "
                + "\(highest) (the first on this line); kept as written")
        }
        let lut = try makeLUT(values: values, n1: n1, n3: n3)
        let resolve = (n1 > 0 && n3 > 0) || inputVideoRange || outputVideoRange
            || seen[.lut1DInputRange] != nil || seen[.lut3DInputRange] != nil
        let sorted = warnings.enumerated().sorted { a, b in
            (a.element.line ?? Int.max, a.offset) < (b.element.line ?? Int.max, b.offset)
        }.map(\.element)
        return CubeFileContents(
            lut: lut, dialect: resolve ? .resolve : .adobe, warnings: sorted,
            inputVideoRange: inputVideoRange, outputVideoRange: outputVideoRange)
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

    /// The keyword starting at `i`, if the line's first token is one; warns when it is not in upper case.
    mutating func matchKeyword(_ line: TextLine, at i: Int) -> CubeKeyword? {
        let e = scan.tokenEnd(i, line.end)
        for k in CubeKeyword.allCases {
            let m = scan.tokenMatches(i, e, k.spelling)
            guard m.matches else { continue }
            if !m.exact {
                warn(line.number, "keyword \"\(scan.text(i, e))\" is not upper case; read as \(k.name)")
            }
            return k
        }
        return nil
    }

    /// Numbers after the keyword on `line`, exactly `count` of them.
    func arguments(_ keyword: CubeKeyword, _ line: TextLine, from i: Int, count: Int, what: String) throws(LookFormatsError) -> [Float] {
        var out: [Float] = []
        var p = scan.skipSpaces(i, line.end)
        while p < line.end && scan.bytes[p] != UInt8(ascii: "#") {
            let e = scan.tokenEnd(p, line.end)
            guard let v = scan.parseFloat(p, e), v.isFinite else { throw numberError(line, p, e) }
            out.append(v)
            p = scan.skipSpaces(e, line.end)
        }
        guard out.count == count else {
            throw error(line.number, "\(keyword.name) needs \(what), found \(out.count) (\"\(scan.quoted(line))\")")
        }
        return out
    }

    mutating func handle(_ keyword: CubeKeyword, _ line: TextLine, at i: Int) throws(LookFormatsError) {
        let argsStart = scan.tokenEnd(i, line.end)
        if let previous = seen[keyword], keyword != .lut1DSize, keyword != .lut3DSize {
            warn(line.number, "\(keyword.name) repeated (first on line \(previous)); this later one is used")
        }
        if let start = dataStartLine, keyword != .lut1DSize, keyword != .lut3DSize {
            warn(line.number, "\(keyword.name) after the table rows began on line \(start); applied to the whole file")
        }
        if seen[keyword] == nil { seen[keyword] = line.number }
        switch keyword {
        case .title:
            readTitle(line, from: argsStart)
        case .lut1DSize, .lut3DSize:
            let is3D = keyword == .lut3DSize
            if let start = dataStartLine {
                throw error(line.number, "\(keyword.name) after the table rows began on line \(start); "
                    + "sizes must come before the rows")
            }
            let tokens = scan.tokens(argsStart, line.end)
            guard tokens.count == 1 else {
                throw error(line.number, "\(keyword.name) needs one whole number, found \(tokens.count) values "
                    + "(\"\(scan.quoted(line))\")")
            }
            let p = scan.skipSpaces(argsStart, line.end)
            guard let n = scan.parseCode(p, scan.tokenEnd(p, line.end)) else {
                throw error(line.number, "\(keyword.name) needs a whole number, found \"\(tokens[0])\"")
            }
            let range = is3D ? ColorCube.sizeRange : Shaper.sizeRange
            guard range.contains(n) else {
                throw error(line.number, "\(keyword.name) \(n) is out of range: \(range.lowerBound)…\(range.upperBound)")
            }
            let previous = is3D ? size3D : size1D
            if let previous {
                guard previous.size == n else {
                    throw error(line.number, "\(keyword.name) \(n) contradicts \(keyword.name) \(previous.size) "
                        + "on line \(previous.line)")
                }
                warn(line.number, "\(keyword.name) repeated (first on line \(previous.line))")
            } else if is3D {
                size3D = (n, line.number)
            } else {
                size1D = (n, line.number)
            }
            if firstSizeLine == nil { firstSizeLine = line.number }
        case .domainMin, .domainMax:
            let v = try arguments(keyword, line, from: argsStart, count: 3, what: "3 numbers (red, green, blue)")
            if let sizeLine = firstSizeLine, dataStartLine == nil {
                warn(line.number, "\(keyword.name) comes after the size line (line \(sizeLine)); applied as usual")
            }
            let triple = SIMD3(v[0], v[1], v[2])
            ranges.append(RangeSetting(
                keyword: keyword, min: keyword == .domainMin ? triple : nil,
                max: keyword == .domainMax ? triple : nil, line: line.number))
        case .lut1DInputRange, .lut3DInputRange:
            let v = try arguments(keyword, line, from: argsStart, count: 2, what: "2 numbers (minimum and maximum)")
            ranges.append(RangeSetting(
                keyword: keyword, min: SIMD3(repeating: v[0]), max: SIMD3(repeating: v[1]), line: line.number))
        case .lutInVideoRange, .lutOutVideoRange:
            let extra = scan.tokens(argsStart, line.end)
            guard extra.isEmpty else {
                throw error(line.number, "\(keyword.name) takes no values, found \"\(extra.joined(separator: " "))\"")
            }
            if keyword == .lutInVideoRange {
                inputVideoRange = true
                warn(line.number, "LUT_IN_VIDEO_RANGE recorded: Resolve expects video-range (64…940) input; "
                    + "values are kept as written")
            } else {
                outputVideoRange = true
                warn(line.number, "LUT_OUT_VIDEO_RANGE recorded: Resolve produces video-range (64…940) output; "
                    + "values are kept as written")
            }
        }
    }

    mutating func readTitle(_ line: TextLine, from i: Int) {
        let p = scan.skipSpaces(i, line.end)
        var e = line.end
        while e > p && TextScanner.isSpace(scan.bytes[e - 1]) { e -= 1 }
        guard p < e else {
            warn(line.number, "TITLE without text; no title kept")
            return
        }
        guard scan.bytes[p] == UInt8(ascii: "\"") else {
            title = scan.text(p, e)
            warn(line.number, "TITLE is not in quotes; read as \"\(title ?? "")\"")
            return
        }
        var q = p + 1
        while q < e && scan.bytes[q] != UInt8(ascii: "\"") { q += 1 }
        title = scan.text(p + 1, q)
        if q == e {
            warn(line.number, "TITLE has no closing quote; read to the end of the line")
            return
        }
        let rest = scan.skipSpaces(q + 1, e)
        if rest < e && scan.bytes[rest] != UInt8(ascii: "#") {
            warn(line.number, "text after the quoted TITLE ignored (\"\(scan.text(rest, e))\")")
        }
    }

    /// Assembles the LUT, deciding which table each range line applies to.
    mutating func makeLUT(values: UnsafeMutableBufferPointer<Float>, n1: Int, n3: Int) throws(LookFormatsError) -> LUT {
        var shaperMin = SIMD3<Float>.zero, shaperMax = SIMD3<Float>.one
        var cubeMin = SIMD3<Float>.zero, cubeMax = SIMD3<Float>.one
        var shaperSetter: RangeSetting?, cubeSetter: RangeSetting?
        var warnedDomainWithBoth = false
        for r in ranges {
            let toCube: Bool
            switch r.keyword {
            case .domainMin, .domainMax:
                toCube = n3 > 0
                if n1 > 0 && n3 > 0 && !warnedDomainWithBoth {
                    warnedDomainWithBoth = true
                    warn(r.line, "\(r.keyword.name) in a file with both a 1D and a 3D table: applied to the 3D table")
                }
            case .lut1DInputRange:
                toCube = n1 == 0
                if toCube {
                    warn(r.line, "LUT_1D_INPUT_RANGE in a file without a 1D table: applied to the 3D table's input "
                        + "range (\(r.min?.x ?? 0)…\(r.max?.x ?? 1)), the range such files were sampled over")
                }
            default:
                toCube = n3 > 0
                if !toCube {
                    warn(r.line, "LUT_3D_INPUT_RANGE in a file without a 3D table: applied to the 1D table's input "
                        + "range (\(r.min?.x ?? 0)…\(r.max?.x ?? 1))")
                }
            }
            let previous = toCube ? cubeSetter : shaperSetter
            if let previous, CubeParser.family(previous.keyword) != CubeParser.family(r.keyword) {
                warn(r.line, "\(r.keyword.name) replaces the input range set by \(previous.keyword.name) "
                    + "on line \(previous.line)")
            }
            if toCube {
                if let m = r.min { cubeMin = m }
                if let m = r.max { cubeMax = m }
                cubeSetter = r
            } else {
                if let m = r.min { shaperMin = m }
                if let m = r.max { shaperMax = m }
                shaperSetter = r
            }
        }
        try checkRange(shaperMin, shaperMax, table: "1D", setter: shaperSetter)
        try checkRange(cubeMin, cubeMax, table: "3D", setter: cubeSetter)
        do {
            let shaper = n1 > 0
                ? try Shaper(size: n1, values: Array(values[0..<(3 * n1)]), inputMin: shaperMin, inputMax: shaperMax)
                : nil
            let cube = n3 > 0
                ? try ColorCube(size: n3, values: Array(values[(3 * n1)...]))
                : nil
            return try LUT(title: title, shaper: shaper, cube: cube, cubeInputMin: cubeMin, cubeInputMax: cubeMax)
        } catch {
            throw self.error(nil, String(describing: error))
        }
    }

    static func family(_ k: CubeKeyword) -> Int {
        switch k {
        case .domainMin, .domainMax: 0
        case .lut1DInputRange: 1
        default: 2
        }
    }

    func checkRange(_ lo: SIMD3<Float>, _ hi: SIMD3<Float>, table: String, setter: RangeSetting?) throws(LookFormatsError) {
        let names = ["red", "green", "blue"]
        for c in 0..<3 where !(lo[c] < hi[c]) {
            throw error(setter?.line, "the \(table) table's input range \(lo[c])…\(hi[c]) is empty or reversed "
                + "in the \(names[c]) channel: the minimum must be below the maximum")
        }
    }
}
