import Foundation
import LookCore
import Pixels

/// A `.3dl` file as read: the cube, the bit depths it was coded in and every deviation that was tolerated.
public struct ThreeDLContents: Sendable, Equatable {
    /// A plain cube on 0…1 (red fastest internally; the file is blue fastest).
    public var lut: LUT
    /// Bit depth of the input mesh line (10 for `0 … 1023`), nil when the file has no mesh line.
    public var inputBits: Int?
    /// Bit depth of the output codes: from `Mesh m k`, else inferred from the largest code (10, 12 or 16).
    public var outputBits: Int
    /// The first data line is the input mesh (N values), as Flame and Nuke write it; Lustre files may omit it.
    public var hasMeshLine: Bool
    /// The file has a `Mesh m k` header line.
    public var hasMeshHeader: Bool
    /// Every tolerated deviation, with its 1-based line, in line order.
    public var warnings: [FormatWarning]
}

/// Reads and writes Lustre / Flame / Nuke `.3dl` 3D LUTs: integer codes, N³ rows with blue varying fastest.
public enum ThreeDLFile {
    /// Output bit depths `serialize` accepts; others are clamped into this range.
    public static let outputBitsRange = 8...16

    /// Reads the `.3dl` file at `path`; errors name the file by its last path component.
    public static func read(path: String) throws(LookFormatsError) -> ThreeDLContents {
        try ThreeDLParser.read(path: path)
    }

    /// Parses the bytes of a `.3dl` file; `fileName` is used in errors.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(LookFormatsError) -> ThreeDLContents {
        try ThreeDLParser.parse(bytes, fileName: fileName)
    }

    /// The cube as `.3dl` text: a `3DMESH` / `Mesh m k` header when N = 2^m + 1, a 10-bit input mesh line
    /// (`0 64 … 960 1023` for 17 points), then N³ rows, blue fastest, of values clamped to 0…1 and rounded to `outputBits` codes.
    public static func serialize(_ cube: ColorCube, outputBits: Int = 12) -> String {
        let bits = Swift.min(Swift.max(outputBits, outputBitsRange.lowerBound), outputBitsRange.upperBound)
        let scale = Float((1 << bits) - 1)
        let n = cube.size
        var out = ""
        out.reserveCapacity(64 + 6 * n + cube.entryCount * (3 * (bits > 12 ? 6 : 5)))
        var m = 0
        while (1 << m) + 1 < n { m += 1 }
        if (1 << m) + 1 == n {
            // Lustre reads the grid size and output depth from this header; others skip it.
            out += "3DMESH\nMesh \(m) \(bits)\n"
        }
        // Flame's convention: steps of 1024 / (N − 1), the last point held at 1023 (0 64 … 960 1023 for 17).
        out += (0..<n).map { String(Swift.min(Int((Double($0) * 1024 / Double(n - 1)).rounded()), 1023)) }
            .joined(separator: " ")
        out += "\n"
        cube.values.withUnsafeBufferPointer { v in
            for r in 0..<n {
                for g in 0..<n {
                    for b in 0..<n {
                        let i = 3 * (r + n * (g + n * b))
                        out += String(code(v[i], scale))
                        out += " "
                        out += String(code(v[i + 1], scale))
                        out += " "
                        out += String(code(v[i + 2], scale))
                        out += "\n"
                    }
                }
            }
        }
        return out
    }

    @inline(__always)
    private static func code(_ v: Float, _ scale: Float) -> Int {
        Int((Swift.min(Swift.max(v, 0), 1) * scale).rounded())
    }

    /// Writes the cube as a `.3dl` file, atomically (a temporary file renamed into place).
    public static func write(_ cube: ColorCube, to path: String, outputBits: Int = 12) throws {
        try AtomicFile.write(Data(serialize(cube, outputBits: outputBits).utf8), to: path)
    }
}

/// The single-pass `.3dl` reader over a byte buffer.
private struct ThreeDLParser: TextLUTParser {
    let file: String
    var scan: TextScanner
    var warnings: [FormatWarning] = []

    var meshHeader: (m: Int, bits: Int, line: Int)?
    var meshLine: (codes: [Int], line: Int)?
    /// Output codes, three per row, in file order (blue fastest).
    var codes: [Int32] = []
    var firstRowLine = 0
    var lastContentLine = 0
    var largest = 0
    var largestLine = 0

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.file = file
        scan = TextScanner(bytes)
    }

    mutating func run() throws(LookFormatsError) -> ThreeDLContents {
        noteByteOrderMark()
        codes.reserveCapacity(Swift.min(scan.bytes.count / 2, 3 * 65 * 65 * 65))
        while let line = scan.nextLine() {
            let end = line.end
            let p = scan.skipSpaces(line.start, end)
            if p == end { continue }
            let first = scan.bytes[p]
            if first == UInt8(ascii: "#") { continue }
            lastContentLine = line.number
            // `3DMESH` starts with a digit but is a word.
            if (first &- 0x30) < 10 && !scan.tokenMatches(p, scan.tokenEnd(p, end), "3DMESH").matches {
                try readNumbers(line, from: p)
            } else {
                try readWords(line, from: p)
            }
        }
        return try finish()
    }

    /// A numeric line: the input mesh (the first one, unless it has 3 values) or a row of 3 output codes.
    mutating func readNumbers(_ line: TextLine, from start: Int) throws(LookFormatsError) {
        let end = line.end
        var p = start
        var k = 0
        var row = (0, 0, 0)
        var all: [Int] = []
        let maybeMesh = meshLine == nil && codes.isEmpty
        while p < end && scan.bytes[p] != UInt8(ascii: "#") {
            let e = scan.tokenEnd(p, end)
            guard let v = scan.parseCode(p, e) else {
                throw error(line.number, "expected a whole number (an output code), found \"\(scan.text(p, e))\" "
                    + "in \"\(scan.quoted(line))\"")
            }
            switch k {
            case 0: row.0 = v
            case 1: row.1 = v
            case 2: row.2 = v
            default: break
            }
            if maybeMesh { all.append(v) }
            k += 1
            p = scan.skipSpaces(e, end)
        }
        if maybeMesh && k != 3 {
            meshLine = (all, line.number)
            return
        }
        guard k == 3 else {
            throw error(line.number, "expected 3 numbers, found \(k) (\"\(scan.quoted(line))\")")
        }
        if codes.isEmpty { firstRowLine = line.number }
        let m = Swift.max(row.0, row.1, row.2)
        if m > largest {
            largest = m
            largestLine = line.number
        }
        guard m <= Int(Int32.max) else {
            throw error(line.number, "output code \(m) is too large for a .3dl (16 bits at most)")
        }
        codes.append(Int32(row.0))
        codes.append(Int32(row.1))
        codes.append(Int32(row.2))
    }

    /// A line starting with a word: `3DMESH`, `Mesh m k`, or a trailer such as `LUT8` / `gamma 1.0`.
    mutating func readWords(_ line: TextLine, from p: Int) throws(LookFormatsError) {
        let e = scan.tokenEnd(p, line.end)
        if scan.tokenMatches(p, e, "3DMESH").matches { return }
        if scan.tokenMatches(p, e, "MESH").matches {
            let args = scan.tokens(e, line.end)
            guard args.count == 2, let m = Int(args[0]), let bits = Int(args[1]) else {
                throw error(line.number, "Mesh needs two whole numbers (m for 2^m + 1 points, and the output "
                    + "bit depth), found \"\(scan.quoted(line))\"")
            }
            guard (0...7).contains(m) else {
                throw error(line.number, "Mesh \(m) gives \(m < 0 ? "no" : String((1 << Swift.min(m, 20)) + 1)) "
                    + "points per axis; supported sizes are \(ColorCube.sizeRange.lowerBound)…"
                    + "\(ColorCube.sizeRange.upperBound) (Mesh 0…7)")
            }
            guard (1...16).contains(bits) else {
                throw error(line.number, "Mesh output depth \(bits) bits is out of range: 1…16")
            }
            if let previous = meshHeader {
                warn(line.number, "Mesh repeated (first on line \(previous.line)); this later one is used")
            }
            meshHeader = (m, bits, line.number)
            return
        }
        let known: [StaticString] = ["LUT8", "LUT10", "LUT12", "LUT16", "GAMMA"]
        if known.contains(where: { scan.tokenMatches(p, e, $0).matches }) { return }
        warn(line.number, "unrecognised line ignored (\"\(scan.quoted(line))\")")
    }

    mutating func finish() throws(LookFormatsError) -> ThreeDLContents {
        let n = try meshSize()
        let expected = n * n * n
        guard codes.count / 3 == expected else {
            throw error(lastContentLine,
                        "expected \(expected) rows for a \(n)-point mesh (\(n)³), found \(codes.count / 3)")
        }
        let inputBits = meshLine.map { checkMesh($0.codes, line: $0.line) }
        let outputBits = try outputDepth()
        let cube: ColorCube
        do {
            cube = try ColorCube(size: n, values: values(size: n, outputBits: outputBits))
        } catch {
            throw self.error(nil, String(describing: error))
        }
        return ThreeDLContents(
            lut: LUT(cube: cube), inputBits: inputBits, outputBits: outputBits, hasMeshLine: meshLine != nil,
            hasMeshHeader: meshHeader != nil, warnings: warningsInLineOrder)
    }

    /// The points per axis: the mesh line's count, else the `Mesh` header's 2^m + 1, else the cube root of the
    /// rows. A 3-point mesh line, which reads like a row, is taken from the rows here.
    mutating func meshSize() throws(LookFormatsError) -> Int {
        let rows = codes.count / 3
        if rows == 0 && meshLine == nil {
            throw error(nil, isBlank
                ? "the file is empty: a .3dl file needs N³ rows of output codes"
                : "no rows of output codes: a .3dl file needs N³ rows of 3 whole numbers")
        }
        // A 3-point mesh line has 3 values, like a row; it shows as one row too many, rising from 0.
        if meshLine == nil && rows == 28 && codes[0] == 0 && codes[0] < codes[1] && codes[1] < codes[2]
            && (meshHeader == nil || meshHeader?.m == 1) {
            meshLine = ([Int(codes[0]), Int(codes[1]), Int(codes[2])], firstRowLine)
            codes.removeFirst(3)
        }
        let n: Int
        if let mesh = meshLine {
            n = mesh.codes.count
            if let header = meshHeader, (1 << header.m) + 1 != n {
                warn(mesh.line, "the input mesh line has \(n) values but Mesh \(header.m) on line \(header.line) "
                    + "means \((1 << header.m) + 1); the mesh line is used")
            }
        } else if let header = meshHeader {
            n = (1 << header.m) + 1
        } else {
            let guess = Int(cbrt(Double(rows)).rounded())
            guard guess * guess * guess == rows else {
                throw error(lastContentLine, "found \(rows) rows, which is not N³ for any N; a .3dl without a "
                    + "mesh line or Mesh header must hold a whole cube")
            }
            n = guess
        }
        guard ColorCube.sizeRange.contains(n) else {
            throw error(meshLine?.line ?? meshHeader?.line, "a \(n)-point mesh is out of range: "
                + "\(ColorCube.sizeRange.lowerBound)…\(ColorCube.sizeRange.upperBound) points per axis")
        }
        return n
    }

    /// The output codes' bit depth: the `Mesh` header's, else the smallest of 10, 12 and 16 bits that holds the
    /// largest code.
    mutating func outputDepth() throws(LookFormatsError) -> Int {
        if let header = meshHeader {
            if largest > (1 << header.bits) - 1 {
                warn(largestLine, "output code \(largest) exceeds the \(header.bits)-bit range of Mesh "
                    + "\(header.m) \(header.bits) (0…\((1 << header.bits) - 1)); read as a value above 1")
            }
            return header.bits
        }
        if largest <= 1023 { return 10 }
        if largest <= 4095 { return 12 }
        if largest <= 65535 { return 16 }
        throw error(largestLine, "output code \(largest) is larger than 16 bits allow (65535)")
    }

    /// The codes as a cube's values, red fastest, of a `size`³ cube coded in `outputBits`.
    func values(size n: Int, outputBits: Int) -> [Float] {
        // Division, not a multiply by 1/max: each value is then the correctly rounded code / max.
        let scale = Float((1 << outputBits) - 1)
        var values = [Float](repeating: 0, count: 3 * n * n * n)
        values.withUnsafeMutableBufferPointer { out in
            codes.withUnsafeBufferPointer { src in
                // The file runs blue fastest: row j = b + N·g + N²·r.
                var j = 0
                for r in 0..<n {
                    for g in 0..<n {
                        for b in 0..<n {
                            let i = 3 * (r + n * (g + n * b))
                            out[i] = Float(src[j]) / scale
                            out[i + 1] = Float(src[j + 1]) / scale
                            out[i + 2] = Float(src[j + 2]) / scale
                            j += 3
                        }
                    }
                }
            }
        }
        return values
    }

    /// The input mesh's bit depth (its last value is 2^bits − 1), warning when it is not an even ramp from 0.
    mutating func checkMesh(_ mesh: [Int], line: Int) -> Int {
        let last = mesh[mesh.count - 1]
        var bits = 1
        while (1 << bits) - 1 < last && bits < 32 { bits += 1 }
        if (1 << bits) - 1 != last {
            warn(line, "the input mesh ends at \(last), not at 2^b − 1; read as \(bits)-bit input")
        }
        let step = Double(last) / Double(mesh.count - 1)
        let even = mesh.enumerated().allSatisfy { i, v in abs(Double(v) - Double(i) * step) <= 1 }
        if !even {
            warn(line, "the input mesh is not an even ramp from 0 to \(last); the cube is read as evenly spaced")
        }
        return bits
    }
}
