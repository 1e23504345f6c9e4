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
}

/// Reads and writes Adobe/Iridas and DaVinci Resolve `.cube` LUTs (text, red fastest, optional 1D shaper).
public enum CubeFile {
    /// Reads the `.cube` file at `path`; errors name the file by its last path component.
    public static func read(path: String) throws(LookFormatsError) -> CubeFileContents {
        try CubeParser.read(path: path)
    }

    /// Parses the bytes of a `.cube` file; `fileName` is used in errors.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(LookFormatsError) -> CubeFileContents {
        try CubeParser.parse(bytes, fileName: fileName)
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
        var out = titleLine(lut.title)
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
            try values.withUnsafeBufferPointer { v in try emitRows(v, count: v.count, after: &out, emit: emit) }
        }
        if !out.isEmpty { try emit(out) }
    }

    /// The `TITLE` line, if there is a title.
    private static func titleLine(_ title: String?) -> String {
        guard let title else { return "" }
        // The format has no escape for quotes or line breaks inside a title.
        let clean = title.map { $0 == "\"" ? "'" : ($0.isNewline ? " " : $0) }
        return "TITLE \"\(String(clean))\"\n"
    }

    /// Appends `count` values as rows of three to `out`, handing it to `emit` every 32,768 rows.
    private static func emitRows<V: LatticeValues>(_ values: V, count: Int, after out: inout String,
                                                  emit: (String) throws -> Void) rethrows {
        var start = 0
        while start < count {
            let end = min(count, start + 3 * 32_768)
            appendRows(values, start..<end, to: &out)
            try emit(out)
            out = ""
            start = end
        }
    }

    /// Writes the LUT as a `.cube` file, atomically (a temporary file renamed into place), streaming its text.
    public static func write(_ lut: LUT, to path: String) throws {
        try write(to: path) { emit in try serialize(lut, dialect: preferredDialect(for: lut), emit: emit) }
    }

    /// Writes the identity `values` as a plain `.cube` file, computing each row as it is written: the text is
    /// that of `write(_:to:)` for the cube the values describe.
    public static func write(_ values: IdentityValues, title: String?, to path: String) throws {
        try write(to: path) { emit in
            var out = titleLine(title) + "LUT_3D_SIZE \(values.size)\n"
            try emitRows(values, count: 3 * values.entryCount, after: &out, emit: emit)
        }
    }

    /// Writes the text `produce` hands its `emit` to `path`, atomically, with plain `write(2)` so a full disk is
    /// named.
    private static func write(to path: String,
                              produce: (_ emit: (String) throws -> Void) throws -> Void) throws {
        try AtomicFile.write(to: path) { temp in
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw AtomicFileError(path: path, errno: errno) }
            var closed = false
            defer { if !closed { close(fd) } }
            try produce { text in
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

    private static func appendRows<V: LatticeValues>(_ values: V, _ range: Range<Int>, to out: inout String) {
        var i = range.lowerBound
        while i + 2 < range.upperBound {
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
