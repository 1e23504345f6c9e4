import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

@Suite struct GenerateCommandTests {
    /// The BRIEF §2 formulas: where entry (r, g, b) sits in each layout.
    static func position(r: Int, g: Int, b: Int, n: Int, layout: String) -> (x: Int, y: Int) {
        switch layout {
        case "tiled":
            let t = Int(Double(n).squareRoot())
            return (x: (b % t) * n + r, y: (b / t) * n + g)
        case "strip":
            return (x: b * n + r, y: g)
        default:
            let level = Int(Double(n).squareRoot())
            let i = r + n * g + n * n * b
            return (x: i % (level * level * level), y: i / (level * level * level))
        }
    }

    static let cases: [(Int, String)] = [4, 16, 64].flatMap { n in ["tiled", "strip", "hald"].map { (n, $0) } }
        + [(17, "strip"), (33, "strip")]

    @Test("identity PNGs hold exactly the BRIEF formulas' pixels", arguments: cases)
    func identityPixels(n: Int, layout: String) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for bits in [8, 16] {
            let path = "\(dir)/id-\(n)-\(layout)-\(bits).png"
            let r = try CLI.run(["generate", "--size", "\(n)", "--layout", layout, "--bits", "\(bits)", "-o", path])
            #expect(r.status == 0, "\(r.stderr)")
            let image = try PNGImage.read(path: path)
            #expect(image.depth.rawValue == bits && image.channels == 3)
            #expect(image.width * image.height == n * n * n)
            let full = Double(bits == 8 ? 255 : 65535)
            func code(_ i: Int) -> Int { Int((full * Double(i) / Double(n - 1)).rounded()) }
            func sample(_ x: Int, _ y: Int, _ c: Int) -> Int {
                let i = (y * image.width + x) * 3 + c
                switch image.samples {
                case .eight(let s): return Int(s[i])
                case .sixteen(let s): return Int(s[i])
                }
            }
            var mismatches = 0
            for b in 0..<n { for g in 0..<n { for r in stride(from: 0, to: n, by: n > 17 ? 3 : 1) {
                let p = Self.position(r: r, g: g, b: b, n: n, layout: layout)
                if sample(p.x, p.y, 0) != code(r) || sample(p.x, p.y, 1) != code(g) || sample(p.x, p.y, 2) != code(b) {
                    mismatches += 1
                }
            } } }
            #expect(mismatches == 0, "\(n) \(layout) \(bits)-bit")
        }
    }

    @Test("tiled and hald refuse sizes that are not squares, with the reason")
    func nonSquare() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["generate", "--size", "17", "--layout", "tiled", "-o", "\(dir)/x.png"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("17"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test("each format gets its own default depth, and --bits is checked against the format as a usage error")
    func bitsFollowTheOutputFormat() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A .3dl with no --bits was refused: the PNG default of 8 was handed to it.
        let threeDL = try CLI.run(["generate", "--size", "17", "-o", dir + "/id.3dl"])
        #expect(threeDL.status == 0, "\(threeDL.stderr)")
        #expect(try String(contentsOfFile: dir + "/id.3dl", encoding: .utf8).contains("Mesh 4 12"))
        let png = try CLI.run(["generate", "--size", "16", "-o", dir + "/id.png"])
        #expect(png.status == 0)
        let depth = try PNGImage.read(path: dir + "/id.png").depth
        #expect(depth == .eight)
        for (bits, file, message) in [("8", "x.3dl", "a .3dl stores 10-, 12- or 16-bit output"),
                                      ("12", "x.png", "a PNG stores 8 or 16 bits"),
                                      ("16", "x.cube", "--bits applies to .png and .3dl outputs")] {
            let r = try CLI.run(["generate", "--size", "17", "--layout", "strip", "--bits", bits,
                                 "-o", dir + "/" + file])
            #expect(r.status == 64 && r.stderr.contains(message), "\(file): \(r.stderr)")
        }
    }
}
