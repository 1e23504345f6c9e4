/// One line of a text LUT: byte offsets into the file (terminator excluded) and its 1-based number.
struct TextLine {
    var start: Int
    var end: Int
    var number: Int
}

/// Byte-level helpers shared by the text LUT readers (`.cube`, `.3dl`).
///
/// Files of 100 000+ rows are read straight from the byte buffer: no `String` per line, no splitting, no regex.
/// Lines end at LF, CRLF or a lone CR; spaces, tabs, vertical tabs and form feeds separate tokens.
struct TextScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    private(set) var lineNumber = 0

    /// A scanner over `bytes`, skipping a UTF-8 byte-order mark if one starts the file.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = TextScanner.hasByteOrderMark(bytes) ? 3 : 0
    }

    static func hasByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// The next line, or nil at the end of the file (a file without a final newline still yields its last line).
    mutating func nextLine() -> TextLine? {
        let count = bytes.count
        guard position < count else { return nil }
        let start = position
        var i = start
        while i < count {
            let c = bytes[i]
            if c == 0x0A || c == 0x0D { break }
            i += 1
        }
        let end = i
        if i < count {
            i += bytes[i] == 0x0D && i + 1 < count && bytes[i + 1] == 0x0A ? 2 : 1
        }
        position = i
        lineNumber += 1
        return TextLine(start: start, end: end, number: lineNumber)
    }

    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0B || c == 0x0C
    }

    /// Index of the first non-space byte at or after `i` (or `end`).
    @inline(__always)
    func skipSpaces(_ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end && TextScanner.isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// Index just past the token starting at `i` (a token runs to the next space or the end of the line).
    @inline(__always)
    func tokenEnd(_ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end && !TextScanner.isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// The bytes `start..<end` as text, for messages.
    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The line's text without surrounding spaces, shortened for quoting in a message.
    func quoted(_ line: TextLine, limit: Int = 60) -> String {
        var s = skipSpaces(line.start, line.end)
        var e = line.end
        while e > s && TextScanner.isSpace(bytes[e - 1]) { e -= 1 }
        if s > e { s = e }
        let full = text(s, e)
        return full.count > limit ? String(full.prefix(limit)) + "…" : full
    }

    /// Tokens of `start..<end` up to a `#` comment, as strings; for short header lines and messages only.
    func tokens(_ start: Int, _ end: Int) -> [String] {
        var out: [String] = []
        var i = skipSpaces(start, end)
        while i < end && bytes[i] != UInt8(ascii: "#") {
            let e = tokenEnd(i, end)
            out.append(text(i, e))
            i = skipSpaces(e, end)
        }
        return out
    }

    /// Number of tokens in `start..<end` before a `#` comment.
    func tokenCount(_ start: Int, _ end: Int) -> Int {
        var n = 0
        var i = skipSpaces(start, end)
        while i < end && bytes[i] != UInt8(ascii: "#") {
            n += 1
            i = skipSpaces(tokenEnd(i, end), end)
        }
        return n
    }

    /// Parses `start..<end` as a decimal number (`-1`, `.75`, `1.`, `8.68552e-05`); nil if it is not one.
    ///
    /// Most LUT numbers have at most 7 significant digits and a small exponent: those are converted with one
    /// correctly rounded Float operation (Clinger's fast path). Up to 19 digits go through Double, which is exact
    /// unless the Double lands on a Float rounding midpoint; those and anything longer fall back to the standard
    /// library's locale-independent parser, so every result is the correctly rounded Float.
    @inline(__always)
    func parseFloat(_ start: Int, _ end: Int) -> Float? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var decimal = DecimalDigits()
        scanDigits(&i, end, into: &decimal, fraction: false)
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            scanDigits(&i, end, into: &decimal, fraction: true)
        }
        guard decimal.sawDigit else { return nil }
        if i < end && (bytes[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            guard let exponent = scanExponent(&i, end) else { return nil }
            decimal.exponent += exponent
        }
        guard i == end else { return nil }
        return decimal.fastFloat(negative: negative) ?? Float(text(start, end))
    }

    /// Adds the digits from `i` on to `decimal`, leaving `i` after them.
    @inline(__always)
    func scanDigits(_ i: inout Int, _ end: Int, into decimal: inout DecimalDigits, fraction: Bool) {
        while i < end {
            let d = bytes[i] &- 0x30
            guard d < 10 else { break }
            decimal.append(d, fraction: fraction)
            i += 1
        }
    }

    /// The exponent from `i` on (after its `e`): a sign and at least one digit; nil without a digit. Huge ones
    /// stop growing at 100,000, far past any Float.
    @inline(__always)
    func scanExponent(_ i: inout Int, _ end: Int) -> Int? {
        var negative = false
        if i < end && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var e = 0
        var sawDigit = false
        while i < end {
            let d = bytes[i] &- 0x30
            guard d < 10 else { break }
            sawDigit = true
            if e < 100_000 { e = e * 10 + Int(d) }
            i += 1
        }
        guard sawDigit else { return nil }
        return negative ? -e : e
    }

    /// Parses `start..<end` as a non-negative whole number that fits in 32 bits; nil if it is not one.
    @inline(__always)
    func parseCode(_ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 10 else { return nil }
        var v = 0
        var i = start
        while i < end {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
            i += 1
        }
        return v <= Int(UInt32.max) ? v : nil
    }

    /// Case-insensitive comparison of the token `start..<end` with an upper-case ASCII `word`.
    func tokenMatches(_ start: Int, _ end: Int, _ word: StaticString) -> (matches: Bool, exact: Bool) {
        let count = word.utf8CodeUnitCount
        guard end - start == count else { return (false, false) }
        let w = word.utf8Start
        var exact = true
        for k in 0..<count {
            let c = bytes[start + k]
            let upper = c >= 0x61 && c <= 0x7A ? c - 0x20 : c
            guard upper == w[k] else { return (false, false) }
            if c != w[k] { exact = false }
        }
        return (true, exact)
    }
}

/// A decimal number's digits as read: up to 19 significant ones as an integer mantissa, the power of ten that scales
/// it, and whether any digit past the 19th was not zero.
struct DecimalDigits {
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var sawDigit = false
    var truncated = false

    /// Adds digit `d`, of the integer part or of the fraction.
    @inline(__always)
    mutating func append(_ d: UInt8, fraction: Bool) {
        sawDigit = true
        if digits < 19 {
            mantissa = mantissa &* 10 &+ UInt64(d)
            if mantissa != 0 { digits += 1 }
            if fraction { exponent -= 1 }
        } else {
            if !fraction { exponent += 1 }
            truncated = truncated || d != 0
        }
    }

    /// The correctly rounded Float, where a fast path gives it; nil where only a full parse can.
    @inline(__always)
    func fastFloat(negative: Bool) -> Float? {
        if mantissa == 0 && !truncated { return negative ? -0.0 : 0 }
        guard !truncated else { return nil }
        if mantissa <= 1 << 24 && exponent >= -10 && exponent <= 10 {
            let f = Float(mantissa)
            let v = exponent >= 0 ? f * DecimalDigits.floatPowers[exponent] : f / DecimalDigits.floatPowers[-exponent]
            return negative ? -v : v
        }
        if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            let m = Double(mantissa)
            let d = exponent >= 0 ? m * DecimalDigits.doublePowers[exponent] : m / DecimalDigits.doublePowers[-exponent]
            // Only a Double exactly halfway between two Floats can round the wrong way a second time.
            if d.bitPattern & 0x1FFF_FFFF != 0x1000_0000 {
                let v = Float(d)
                return negative ? -v : v
            }
        }
        return nil
    }

    // Every power here is exactly representable, which the fast paths rely on.
    private static let floatPowers: [Float] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]
    private static let doublePowers: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]
}
