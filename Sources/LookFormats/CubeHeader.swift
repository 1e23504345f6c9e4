import LookCore

/// The `.cube` header keywords, by their upper-case spelling.
enum CubeKeyword: CaseIterable {
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
struct RangeSetting {
    var keyword: CubeKeyword
    var min: SIMD3<Float>?
    var max: SIMD3<Float>?
    var line: Int
}

/// The header lines of a `.cube` file: keywords, the title, sizes, input ranges and Resolve's video-range flags, and
/// the LUT they make of the rows.
extension CubeParser {
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
    func arguments(_ keyword: CubeKeyword, _ line: TextLine, from i: Int, count: Int,
                   what: String) throws(LookFormatsError) -> [Float] {
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
            try readSize(keyword, line, from: argsStart)
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
            try readVideoRange(keyword, line, from: argsStart)
        }
    }

    /// `LUT_1D_SIZE n` or `LUT_3D_SIZE n`: the table's size, which must come before the rows and agree with an
    /// earlier line giving it.
    mutating func readSize(_ keyword: CubeKeyword, _ line: TextLine, from argsStart: Int) throws(LookFormatsError) {
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
    }

    /// Resolve's `LUT_IN_VIDEO_RANGE` / `LUT_OUT_VIDEO_RANGE`, recorded (values are kept as written).
    mutating func readVideoRange(_ keyword: CubeKeyword, _ line: TextLine,
                                 from argsStart: Int) throws(LookFormatsError) {
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

    func checkRange(_ lo: SIMD3<Float>, _ hi: SIMD3<Float>, table: String,
                    setter: RangeSetting?) throws(LookFormatsError) {
        let names = ["red", "green", "blue"]
        for c in 0..<3 where !(lo[c] < hi[c]) {
            throw error(setter?.line, "the \(table) table's input range \(lo[c])…\(hi[c]) is empty or reversed "
                + "in the \(names[c]) channel: the minimum must be below the maximum")
        }
    }
}
