import CCrypto
import CZlib
import Foundation
import LookCore

/// The DNG SDK's "big table" encoding of an RGB table (dng_big_table.cpp), as Lightroom / Camera Raw profiles
/// store it in XMP: a little-endian stream, zlib-compressed behind a 4-byte little-endian size, then Adobe's
/// base-85 text; the table is named by the MD5 of the uncompressed stream.
enum AdobeBigTable {
    /// `dng_rgb_table::primaries_enum` (stream values).
    enum Primaries: UInt32 { case sRGB = 0, adobe = 1, proPhoto = 2, displayP3 = 3, rec2020 = 4 }
    /// `dng_rgb_table::gamma_enum` (stream values).
    enum Gamma: UInt32 { case linear = 0, sRGB = 1, gamma18 = 2, gamma22 = 3, rec2020 = 4 }

    /// The uncompressed stream of a 3D RGB table (type 1, version 1): divisions, then for red, green, blue (blue
    /// fastest) each sample as a 16-bit difference from the identity `(i·65535 + N/2) / (N − 1)`, then primaries,
    /// gamma, gamut (0 = clip) and the amount range as two doubles.
    static func rgbTableStream(_ cube: ColorCube, primaries: Primaries, gamma: Gamma, minAmount: Double,
                               maxAmount: Double) -> [UInt8] {
        let n = cube.size
        var out: [UInt8] = []
        out.reserveCapacity(48 + 6 * cube.entryCount)
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func put16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func put64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        put32(1)
        put32(1)
        put32(3)
        put32(UInt32(n))
        let nop = (0..<n).map { UInt16((UInt32($0) * 0xFFFF + UInt32(n >> 1)) / UInt32(n - 1)) }
        for r in 0..<n { for g in 0..<n { for b in 0..<n {
            let v = cube.entry(r: r, g: g, b: b)
            let index = [r, g, b]
            for c in 0..<3 {
                let sample = UInt16((Swift.min(Swift.max(v[c], 0), 1) * 65535).rounded())
                put16(sample &- nop[index[c]])
            }
        } } }
        put32(primaries.rawValue)
        put32(gamma.rawValue)
        put32(0)
        put64(minAmount)
        put64(maxAmount)
        return out
    }

    /// The MD5 of the stream as 32 uppercase hex digits (`dng_xmp::EncodeFingerprint`).
    static func fingerprint(_ stream: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        let ok = stream.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_md5(), nil) }
        precondition(ok == 1 && length == 16, "libcrypto could not compute an MD5 digest")
        return digest.map { String(format: "%02X", $0) }.joined()
    }

    /// zlib (default level) behind the uncompressed size, 4 bytes little-endian.
    static func compress(_ stream: [UInt8]) throws(ExportError) -> [UInt8] {
        var bound = compressBound(uLong(stream.count))
        var out = [UInt8](repeating: 0, count: Int(bound) + 4)
        let size = UInt32(stream.count)
        out[0] = UInt8(size & 0xFF); out[1] = UInt8(size >> 8 & 0xFF)
        out[2] = UInt8(size >> 16 & 0xFF); out[3] = UInt8(size >> 24)
        let status = out.withUnsafeMutableBufferPointer { dst in
            stream.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress! + 4, &bound, src.baseAddress, uLong(src.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw ExportError(target: "lightroom", "zlib could not compress the table") }
        return Array(out[0..<(Int(bound) + 4)])
    }

    /// Adobe's base-85 alphabet (Z85-like, chosen to sit cleanly in XMP attribute text).
    static let alphabet = Array(("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 + ".-:+=^!/*?`'|()[]{}@%$#").utf8)

    /// Base-85 text: each 4 bytes as a little-endian word, least significant digit first; a last group of k < 4
    /// bytes gives k + 1 digits.
    static func base85(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 5 / 4 + 5)
        var i = 0
        while i < bytes.count {
            var word: UInt32 = 0
            for k in 0..<4 where i + k < bytes.count { word |= UInt32(bytes[i + k]) << (8 * UInt32(k)) }
            let digits = Swift.min(bytes.count - i, 4) + 1
            for _ in 0..<digits {
                out.append(alphabet[Int(word % 85)])
                word /= 85
            }
            i += 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}
