import Foundation

/// Hand-built PNG files for tests: any colour type and bit depth, optional palette, tRNS, gAMA and Adam7.
///
/// Image data is deflated with stored (uncompressed) blocks, so the files need no zlib and every byte is known.
struct PNGFixture {
    var width: Int
    var height: Int
    var bitDepth: Int
    /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    var colorType: Int
    /// Samples per pixel in the file's own layout, row-major (palette images hold indices).
    var samples: [Int]
    var palette: [UInt8] = []
    var trns: [UInt8] = []
    var gamma: UInt32?
    var extraChunks: [(String, [UInt8])] = []
    var interlaced = false

    var samplesPerPixel: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1 }

    func bytes() -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = PNGFixture.be32(width) + PNGFixture.be32(height)
        ihdr += [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
        out += PNGFixture.chunk("IHDR", ihdr)
        if let gamma { out += PNGFixture.chunk("gAMA", PNGFixture.be32(Int(gamma))) }
        for (type, data) in extraChunks { out += PNGFixture.chunk(type, data) }
        if !palette.isEmpty { out += PNGFixture.chunk("PLTE", palette) }
        if !trns.isEmpty { out += PNGFixture.chunk("tRNS", trns) }
        out += PNGFixture.chunk("IDAT", PNGFixture.zlibStored(scanlines()))
        out += PNGFixture.chunk("IEND", [])
        return out
    }

    /// Filter-type-0 scanlines, pass by pass when interlaced.
    func scanlines() -> [UInt8] {
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            guard !xs.isEmpty else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                out.append(0)
                var row: [Int] = []
                for x in xs {
                    let base = (y * width + x) * samplesPerPixel
                    row += samples[base ..< base + samplesPerPixel]
                }
                out += pack(row)
            }
        }
        return out
    }

    private func pack(_ row: [Int]) -> [UInt8] {
        switch bitDepth {
        case 16: return row.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return row.map { UInt8($0) }
        default:
            var out: [UInt8] = []
            var byte = 0, used = 0
            for v in row {
                byte = (byte << bitDepth) | v
                used += bitDepth
                if used == 8 {
                    out.append(UInt8(byte))
                    byte = 0
                    used = 0
                }
            }
            if used > 0 { out.append(UInt8(byte << (8 - used))) }
            return out
        }
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(data.count) + typeBytes + data + be32(Int(crc32(typeBytes + data)))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset ..< offset + n]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int((b << 16) | a))
    }
}

/// A fresh empty folder for one test, removed by the caller with `cleanup()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "lookstudio-imageio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

/// Deterministic pseudo-random samples, so failures reproduce.
struct SampleGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
    mutating func words(_ n: Int) -> [UInt16] { (0..<n).map { _ in UInt16(truncatingIfNeeded: next()) } }
}

/// Test ICC profiles and a look at which chunks a PNG file holds.
enum ColorFixtures {
    /// A minimal valid v2 RGB display profile: the 128-byte header and a tag table with one tag, the media white
    /// point, followed by 92 bytes of unreferenced filler. `tint` varies one byte of the white point so profiles
    /// can be told apart.
    ///
    /// The filler is pseudo-random because libpng 1.6.39 refuses on reading ("iCCP: too short") any iCCP chunk
    /// under 92 bytes, which a bare 164-byte profile of zeros deflates to; real profiles are far larger.
    static func minimalRGBProfile(tint: UInt8 = 0) -> [UInt8] {
        var gen = SampleGenerator(seed: 5)
        var p = [UInt8](repeating: 0, count: 164) + gen.bytes(92)
        func put(_ bytes: [UInt8], at offset: Int) { p.replaceSubrange(offset ..< offset + bytes.count, with: bytes) }
        put(PNGFixture.be32(p.count), at: 0)
        put([0x02, 0x10, 0, 0], at: 8)                        // version 2.1
        put(Array("mntrRGB XYZ ".utf8), at: 12)                // display class, RGB data, XYZ connection space
        put([0x07, 0xE8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0], at: 24) // 2024-01-01
        put(Array("acsp".utf8), at: 36)
        put([0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D], at: 68) // D50 illuminant
        put(PNGFixture.be32(1), at: 128)
        put(Array("wtpt".utf8) + PNGFixture.be32(144) + PNGFixture.be32(20), at: 132)
        put(Array("XYZ ".utf8) + [0, 0, 0, 0] + [0, 0, 0xF3, 0x51, 0, 1, 0, tint, 0, 1, 0x16, 0xCC], at: 144)
        return p
    }

    /// A real profile shipped with the system (ghostscript's Adobe RGB), when present.
    static func systemProfile() -> [UInt8]? {
        FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/a98.icc").map { [UInt8]($0) }
    }

    /// The chunk types of a PNG in file order.
    static func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var at = 8
        while at + 8 <= png.count {
            let length = png[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[at + 4 ..< at + 8], as: UTF8.self))
            at += 12 + length
        }
        return types
    }

    /// An iCCP chunk body: keyword, NUL, compression method 0, zlib stream of the profile.
    static func iccpChunk(name: String, profile: [UInt8]) -> [UInt8] {
        Array(name.utf8) + [0, 0] + PNGFixture.zlibStored(profile)
    }
}
