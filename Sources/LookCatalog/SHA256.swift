import Foundation

/// SHA-256 (FIPS 180-4), small and dependency-free: the catalog hashes cube contents to find duplicates and to
/// verify blobs, and Foundation on Linux has no CryptoKit.
public enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var state = State()
        let fullBlocks = bytes.count / 64
        if let base = bytes.baseAddress { state.compress(base, blocks: fullBlocks) }
        // Padding: 0x80, zeros, then the message length in bits as a big-endian UInt64.
        var tail = [UInt8](bytes[(fullBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { t in
            guard let base = t.baseAddress else { return }
            state.compress(base, blocks: t.count / 64)
        }
        return state.digest
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex<C: ContiguousBytes>(_ bytes: C) -> String {
        let digest = bytes.withUnsafeBytes { hash($0) }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The eight working words and the message schedule, kept in fixed storage so the block loop allocates nothing.
    private struct State {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        var w = [UInt32](repeating: 0, count: 64)

        var digest: [UInt8] {
            [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7].flatMap { v in
                [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> UInt32($0)) }
            }
        }

        mutating func compress(_ start: UnsafeRawPointer, blocks: Int) {
            w.withUnsafeMutableBufferPointer { wp in
                SHA256.k.withUnsafeBufferPointer { kp in
                    for blockIndex in 0..<blocks {
                        let block = start + 64 * blockIndex
                        for t in 0..<16 {
                            wp[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
                        }
                        for t in 16..<64 {
                            let a = wp[t - 15], b = wp[t - 2]
                            let s0 = SHA256.rotr(a, 7) ^ SHA256.rotr(a, 18) ^ (a >> 3)
                            let s1 = SHA256.rotr(b, 17) ^ SHA256.rotr(b, 19) ^ (b >> 10)
                            wp[t] = wp[t - 16] &+ s0 &+ wp[t - 7] &+ s1
                        }
                        var (a, b, c, d, e, f, g, hh) = h
                        for t in 0..<64 {
                            let s1 = SHA256.rotr(e, 6) ^ SHA256.rotr(e, 11) ^ SHA256.rotr(e, 25)
                            let ch = (e & f) ^ (~e & g)
                            let t1 = hh &+ s1 &+ ch &+ kp[t] &+ wp[t]
                            let s0 = SHA256.rotr(a, 2) ^ SHA256.rotr(a, 13) ^ SHA256.rotr(a, 22)
                            let maj = (a & b) ^ (a & c) ^ (b & c)
                            hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ s0 &+ maj
                        }
                        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
                    }
                }
            }
        }
    }

    @inline(__always)
    static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
