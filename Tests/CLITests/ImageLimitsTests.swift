import Foundation
import LookStudioTestSupport
import Testing

/// Hand-built PNG bytes for the limit and colour probes of issue 24 (stored deflate blocks, so every byte is known).
enum HostilePNG {
    static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// A zlib stream of stored blocks (data under 64 kB).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        let n = data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return [0x78, 0x01, 1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + data
            + be32(Int((b << 16) | a))
    }

    /// An RGB 8-bit PNG of `width`×`height` grey pixels (an empty IDAT unless `pixels`), with an iCCP chunk if given.
    static func png(width: Int, height: Int, icc: [UInt8]? = nil, pixels: Bool = true) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        if let icc { out += chunk("iCCP", Array("probe".utf8) + [0, 0] + zlibStored(icc)) }
        if pixels {
            let row = [UInt8(0)] + [UInt8](repeating: 128, count: 3 * width)
            out += chunk("IDAT", zlibStored(Array((0..<height).map { _ in row }.joined())))
        } else {
            out += chunk("IDAT", zlibStored([]))
        }
        return out + chunk("IEND", [])
    }

    /// A 132-byte ICC header that libpng accepts (RGB display profile, XYZ PCS, D50, `acsp`) but with no tags, so
    /// LittleCMS finds no colorants; `declaredSize` other than 132 makes libpng refuse it.
    static func emptyProfile(declaredSize: Int = 132) -> [UInt8] {
        var p = [UInt8](repeating: 0, count: 132)
        p.replaceSubrange(0..<4, with: be32(declaredSize))
        p.replaceSubrange(8..<12, with: [2, 0x10, 0, 0])
        p.replaceSubrange(12..<16, with: Array("mntr".utf8))
        p.replaceSubrange(16..<20, with: Array("RGB ".utf8))
        p.replaceSubrange(20..<24, with: Array("XYZ ".utf8))
        p.replaceSubrange(36..<40, with: Array("acsp".utf8))
        p.replaceSubrange(68..<80, with: be32(0xF6D6) + be32(0x10000) + be32(0xD32D))
        return p
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// Issue 24 (minor items): `--max-pixels` where the messages say so, exact figures, refused iCCP chunks warned
/// about, one ICC check for `info`, `apply` and `detect`, outputs that are links to devices.
@Suite struct ImageLimitsTests {
    @Test("info, detect, contact-sheet and gallery take --max-pixels; the refusal gives exact figures and the option")
    func maxPixelsOption() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try HostilePNG.write(HostilePNG.png(width: 48, height: 32), to: dir + "/a.png")
        let extra = ["contact-sheet": ["-o", dir + "/sheet.png"],
                     "gallery": ["-o", dir + "/gallery", "--catalog", dir + "/c.sqlite"]]
        for command in ["info", "detect", "contact-sheet", "gallery"] {
            let refused = try CLI.run([command, "--max-pixels", "1000", dir + "/a.png"] + (extra[command] ?? []))
            #expect(refused.status == 1, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("48×32 = 1,536 pixels is over the limit of 1,000 pixels; raise it with "
                                            + "--max-pixels"), "\(command): \(refused.stderr)")
            let allowed = try CLI.run([command, "--max-pixels", "1536", dir + "/a.png"] + (extra[command] ?? []))
            #expect(allowed.status == 0, "\(command): \(allowed.stderr)")
        }
    }

    @Test("a LUT image over 4096×4096 is refused without pointing at an option LUT commands lack")
    func lutImageLimit() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try HostilePNG.write(HostilePNG.png(width: 4096, height: 4097, pixels: false), to: dir + "/big.png")
        for arguments in [["inspect", dir + "/big.png"], ["import", "--catalog", dir + "/c.sqlite", dir + "/big.png"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 1)
            #expect(r.stderr.contains("4096×4097 = 16,781,312 pixels is more than a LUT image holds: the largest, a "
                                      + "256³ cube, is 4096×4096 = 16,777,216 pixels"), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("--max-pixels"))
        }
    }

    @Test("an iCCP chunk libpng refuses is a warning, not a silent sRGB; a profile LittleCMS refuses fails detect too")
    func iccChecks() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try HostilePNG.write(HostilePNG.png(width: 8, height: 8, icc: HostilePNG.emptyProfile(declaredSize: 9000)),
                             to: dir + "/dropped.png")
        let info = try CLI.run(["info", dir + "/dropped.png"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr.contains("warning: \(dir)/dropped.png: its ICC profile (iCCP chunk) was refused by "
                                     + "libpng ("), "\(info.stderr)")
        #expect(info.stderr.contains("); reading the pixels as sRGB"))
        let detectDropped = try CLI.run(["detect", dir + "/dropped.png"])
        #expect(detectDropped.status == 0)
        #expect(detectDropped.stderr.contains("was refused by libpng"), "\(detectDropped.stderr)")

        try HostilePNG.write(HostilePNG.png(width: 8, height: 8, icc: HostilePNG.emptyProfile()), to: dir + "/bad.png")
        let refusedByInfo = try CLI.run(["info", dir + "/bad.png"])
        #expect(refusedByInfo.status == 1, "\(refusedByInfo.stderr)")
        let detect = try CLI.run(["detect", dir + "/bad.png"])
        #expect(detect.status == 1, "\(detect.stdout) \(detect.stderr)")
        #expect(detect.stderr == refusedByInfo.stderr, "\(detect.stderr)")
    }

    @Test("an output that is a symlink to /dev/full is refused and kept; a symlink to a file is written through")
    func symlinkOutputs() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let chart = CLI.fixtures + "/reference/chart.png"
        let lut = CLI.fixtures + "/reference/warm17.cube"
        try FileManager.default.createSymbolicLink(atPath: dir + "/full.png", withDestinationPath: "/dev/full")
        let refused = try CLI.run(["apply", "--lut", lut, chart, dir + "/full.png"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("error: refusing to write \(dir)/full.png: it is a symlink to /dev/full, a "
                                        + "character device"), "\(refused.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/full.png") == "/dev/full")

        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: dir + "/target.png"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.png", withDestinationPath: dir + "/target.png")
        let through = try CLI.run(["apply", "--lut", lut, chart, dir + "/link.png"])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.png") == dir + "/target.png")
        let written = try Data(contentsOf: URL(fileURLWithPath: dir + "/target.png"))
        #expect(written.count > 100 && written.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty)
    }
}
