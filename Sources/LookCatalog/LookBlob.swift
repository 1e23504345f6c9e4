import Foundation
import GRDB
import Hashing
import ImageIO
import LookCore
import LookFormats

/// How a look's cube is stored: a 16-bit PNG (tiled for square sizes, strip otherwise) over a value range, and a
/// content hash of the values the catalog hands back.
enum LookBlob {
    /// An encoded cube ready to insert.
    struct Encoded {
        var png: [UInt8]
        var layout: String
        /// The values code 0 and code 65535 stand for (0 and 1 unless the cube reaches beyond).
        var range: CodeRange
        /// Hash of the cube decoded from `png`, i.e. of what the catalog will hand back (see `storedHash`).
        var hash: String
    }

    /// The layout the catalog stores a cube of this size in.
    static func layout(forSize n: Int) -> CubeLayout {
        let t = Int(Double(n).squareRoot().rounded())
        return t * t == n ? .tiled : .strip
    }

    /// Encodes `cube` over the range it needs and hashes what decoding it gives back.
    static func encode(_ cube: ColorCube) throws -> Encoded {
        var timings = Catalog.AddLookTimings()
        return try encode(cube, timings: &timings)
    }

    /// ``encode(_:)``, adding the time spent encoding and hashing to `timings`.
    static func encode(_ cube: ColorCube, timings: inout Catalog.AddLookTimings) throws -> Encoded {
        let start = DispatchTime.now().uptimeNanoseconds
        let layout = layout(forSize: cube.size)
        let range = CodeRange(covering: cube)
        let normalised = range.isUnit ? cube
            : try ColorCube(size: cube.size, values: cube.values.map { range.normalised($0) })
        // `render` clamps to 0…1 and rounds to 16-bit codes itself, exactly as `storedHash` assumes.
        let pixels = try CubeImage.render(normalised, layout: layout, depth: .sixteen)
        let png = try PNGImage.encode(pixels, options: pngOptions)
        let encoded = DispatchTime.now().uptimeNanoseconds
        let hash = storedHash(normalised, range: range)
        let hashed = DispatchTime.now().uptimeNanoseconds
        timings.encode += encoded - start
        timings.hash += hashed - encoded
        return Encoded(png: png, layout: layout.rawValue, range: range, hash: hash)
    }

    /// zlib level 3 after the `up` filter. Measured by `lookstudio bench catalog` on the shipped looks and two corpus
    /// 64³ PNGs (docs/CATALOG.md, Figures): 11× faster to encode than level 9 adaptive (28 vs 304 ms per look) for
    /// 8 % more bytes (325 vs 301 kB), and faster to decode (6.0 vs 8.4 ms), which `apply --look` pays.
    static let pngOptions = PNGWriteOptions(compressionLevel: 3, filter: .up, strategy: .standard)

    /// `contentHash` of the cube a cube of `normalised` values (already mapped into 0…1 over `range`) reads back as
    /// once stored, without the PNG round trip.
    ///
    /// Each value becomes the 16-bit code `q` that `CubeImage.render` writes (clamped to 0…1 in Double, rounded),
    /// then the Float that `CubeImage.decodePNG` reads back (`Float(q) / 65535`), then the value it stands for over
    /// `range`, so the hash is the one `catalog verify` recomputes from the blob and the one catalogs made before
    /// this shortcut hold. The range is inside the hash: the same codes over another range are other values.
    static func storedHash(_ normalised: ColorCube, range: CodeRange = .unit) -> String {
        var bytes = [UInt8](repeating: 0, count: normalised.values.count * 4)
        bytes.withUnsafeMutableBytes { out in
            normalised.values.withUnsafeBufferPointer { values in
                for i in 0..<values.count {
                    let code = (min(max(Double(values[i]), 0), 1) * 65535).rounded()
                    let stored = range.restored(Float(code) / 65535)
                    out.storeBytes(of: stored.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
                }
            }
        }
        return SHA256.hex(bytes)
    }

    /// The columns a stored cube is read from, as `decode(row:guid:)` expects them.
    static let columns = "png, layout, value_min, value_max"

    /// Decodes the stored cube of a row holding `columns` (a row without the range columns, read from a catalog
    /// made before they existed, is over 0…1).
    static func decode(row: Row, guid: String) throws -> ColorCube {
        guard let png: Data = row["png"], let layout: String = row["layout"] else {
            throw CatalogError.corruptLook(guid: guid, "blob or layout missing")
        }
        let range = CodeRange(lower: row["value_min"] as Double? ?? 0, upper: row["value_max"] as Double? ?? 1)
        return try decode([UInt8](png), guid: guid, layout: layout, range: range)
    }

    /// Decodes a stored blob into the values it stands for over `range`.
    static func decode(_ png: [UInt8], guid: String, layout: String, range: CodeRange = .unit) throws -> ColorCube {
        guard let layout = CubeLayout(rawValue: layout) else {
            throw CatalogError.corruptLook(guid: guid, "unknown layout \"\(layout)\"")
        }
        guard range.isUsable else {
            throw CatalogError.corruptLook(guid: guid, "unusable value range \(range.lower)…\(range.upper)")
        }
        do {
            let codes = try CubeImage.decodePNG(png, name: "look \(guid)", layout: layout)
            if range.isUnit { return codes }
            return try ColorCube(size: codes.size, values: codes.values.map { range.restored($0) })
        } catch {
            throw CatalogError.corruptLook(guid: guid, "\(error)")
        }
    }

    /// Lowercase hex SHA-256 of the cube's Float values, each as 4 little-endian bytes, red fastest.
    static func contentHash(_ cube: ColorCube) -> String {
        var bytes = [UInt8](repeating: 0, count: cube.values.count * 4)
        bytes.withUnsafeMutableBytes { out in
            cube.values.withUnsafeBufferPointer { values in
                for (i, v) in values.enumerated() {
                    out.storeBytes(of: v.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
                }
            }
        }
        return SHA256.hex(bytes)
    }
}
