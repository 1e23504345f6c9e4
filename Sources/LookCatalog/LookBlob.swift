import Foundation
import Hashing
import ImageIO
import LookCore
import LookFormats

/// How a look's cube is stored: a 16-bit PNG (tiled for square sizes, strip otherwise) and a content hash.
enum LookBlob {
    /// An encoded cube ready to insert.
    struct Encoded {
        var png: [UInt8]
        var layout: String
        /// Hash of the cube decoded from `png`, i.e. of what the catalog will hand back (see `storedHash`).
        var hash: String
    }

    /// The layout the catalog stores a cube of this size in.
    static func layout(forSize n: Int) -> CubeLayout {
        let t = Int(Double(n).squareRoot().rounded())
        return t * t == n ? .tiled : .strip
    }

    /// Encodes `cube` (values outside 0…1 are clamped by the 16-bit PNG) and hashes what decoding it gives back.
    static func encode(_ cube: ColorCube) throws -> Encoded {
        var timings = Catalog.AddLookTimings()
        return try encode(cube, timings: &timings)
    }

    /// ``encode(_:)``, adding the time spent encoding and hashing to `timings`.
    static func encode(_ cube: ColorCube, timings: inout Catalog.AddLookTimings) throws -> Encoded {
        let start = DispatchTime.now().uptimeNanoseconds
        let layout = layout(forSize: cube.size)
        // `render` clamps to 0…1 and rounds to 16-bit codes itself, exactly as `storedHash` assumes.
        let pixels = try CubeImage.render(cube, layout: layout, depth: .sixteen)
        let png = try PNGImage.encode(pixels, options: pngOptions)
        let encoded = DispatchTime.now().uptimeNanoseconds
        let hash = storedHash(cube)
        let hashed = DispatchTime.now().uptimeNanoseconds
        timings.encode += encoded - start
        timings.hash += hashed - encoded
        return Encoded(png: png, layout: layout.rawValue, hash: hash)
    }

    /// zlib level 3 after the `up` filter. Measured by `lookstudio bench catalog` on the shipped looks and two corpus
    /// 64³ PNGs (docs/CATALOG.md, Figures): 11× faster to encode than level 9 adaptive (28 vs 304 ms per look) for
    /// 8 % more bytes (325 vs 301 kB), and faster to decode (6.0 vs 8.4 ms), which `apply --look` pays.
    static let pngOptions = PNGWriteOptions(compressionLevel: 3, filter: .up, strategy: .standard)

    /// `contentHash` of the cube `cube` reads back as once stored, without the PNG round trip.
    ///
    /// Each value becomes the 16-bit code `q` that `CubeImage.render` writes (clamped to 0…1 in Double, rounded)
    /// and then the Float that `CubeImage.decodePNG` reads back (`Float(q) / 65535`), so the hash is the one
    /// `catalog verify` recomputes from the blob and the one catalogs made before this shortcut hold.
    static func storedHash(_ cube: ColorCube) -> String {
        var bytes = [UInt8](repeating: 0, count: cube.values.count * 4)
        bytes.withUnsafeMutableBytes { out in
            cube.values.withUnsafeBufferPointer { values in
                for i in 0..<values.count {
                    let code = (min(max(Double(values[i]), 0), 1) * 65535).rounded()
                    let stored = Float(code) / 65535
                    out.storeBytes(of: stored.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
                }
            }
        }
        return SHA256.hex(bytes)
    }

    /// Decodes a stored blob.
    static func decode(_ png: [UInt8], guid: String, layout: String) throws -> ColorCube {
        guard let layout = CubeLayout(rawValue: layout) else {
            throw CatalogError.corruptLook(guid: guid, "unknown layout \"\(layout)\"")
        }
        do {
            return try CubeImage.decodePNG(png, name: "look \(guid)", layout: layout)
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
