import Foundation
import ImageIO
import LookCore
import LookStudioTestSupport
import Testing

/// `correct --neutral`, `--grey-card` and `--grey-level` through the command line.
@Suite struct CorrectNeutralCommandTests {
    static let width = 192, height = 128
    /// A warm cast that keeps a grey's luminance (≈ 3200 K).
    static let warm = SIMD3<Double>(1.35, 1, 0.62) / ColorScience.luma(SIMD3<Double>(1.35, 1, 0.62))

    /// A scene as displayed: an 18 % grey card (x 20..<70, y 30..<100) on a field of saturated colour bands, under
    /// `cast`, 8-bit sRGB.
    static func scene(cast: SIMD3<Double>, card: Bool = true) throws -> PixelBuffer {
        let bands: [SIMD3<Double>] = [SIMD3(0.5, 0.1, 0.3), SIMD3(0.1, 0.35, 0.2), SIMD3(0.45, 0.3, 0.05),
                                      SIMD3(0.08, 0.15, 0.45)]
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                var c = bands[(x / 12 + y / 16) % bands.count]
                if card && x >= 20 && x < 70 && y >= 30 && y < 100 { c = SIMD3(repeating: 0.18) }
                c *= cast
                for v in [c.x, c.y, c.z] {
                    bytes.append(UInt8((ColorScience.srgb(fromLinear: min(1, v)) * 255).rounded()))
                }
            }
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(bytes))
    }

    /// Mean code of each channel over the card.
    static func card(_ path: String) throws -> SIMD3<Double> {
        let image = try ImageFormat.read(path: path).pixels
        guard case .eight(let b) = image.samples else { return .zero }
        var sum = SIMD3<Double>()
        for y in 34..<96 {
            for x in 24..<66 {
                let i = (y * image.width + x) * image.channels
                sum += SIMD3(Double(b[i]), Double(b[i + 1]), Double(b[i + 2]))
            }
        }
        return sum / Double(62 * 42)
    }

    /// `image` stored turned a quarter to the left, with EXIF orientation 6 (turn right to display): as displayed it
    /// is `image` again.
    static func orientedJPEG(_ image: PixelBuffer) throws -> [UInt8] {
        guard case .eight(let b) = image.samples else { return [] }
        let (w, h) = (image.width, image.height)
        var stored = [UInt8](repeating: 0, count: b.count)
        // Stored (xs, ys), h wide and w tall, shows at displayed (w − 1 − ys, xs) once turned right.
        for ys in 0..<w {
            for xs in 0..<h {
                let (x, y) = (w - 1 - ys, xs)
                for k in 0..<3 { stored[(ys * h + xs) * 3 + k] = b[(y * w + x) * 3 + k] }
            }
        }
        let jpeg = try JPEGImage.encode(try PixelBuffer(width: h, height: w, channels: 3, samples: .eight(stored)),
                                        quality: 98)
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    @Test("--neutral on a warm photo makes the card neutral within 1 code; --json records the reference")
    func neutralPoint() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.scene(cast: Self.warm), to: dir + "/in.png")
        let r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/out.png", "--no-look", "--neutral", "45,65,15",
                             "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let card = try Self.card(dir + "/out.png")
        #expect(card.max() - card.min() <= 1, "card \(card)")
        let before = try Self.card(dir + "/in.png")
        #expect(before.x - before.z > 30, "the input card is warm: \(before)")
        #expect(r.stdout.contains("\"kind\" : \"point\""), "\(r.stdout)")
    }

    @Test("--neutral reads the photo as displayed: an EXIF-rotated JPEG's card at its displayed place")
    func neutralAfterOrientation() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(try Self.orientedJPEG(try Self.scene(cast: Self.warm))).write(to: URL(fileURLWithPath: dir + "/in.jpg"))
        let r = try CLI.run(["correct", dir + "/in.jpg", "-o", dir + "/out.png", "--no-look", "--neutral", "45,65,15"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = try ImageFormat.read(path: dir + "/out.png").pixels
        #expect(out.width == Self.width && out.height == Self.height)
        let card = try Self.card(dir + "/out.png")
        #expect(card.max() - card.min() <= 1.5, "card \(card) (JPEG at quality 98 in between)")
    }

    @Test("--grey-card finds the card once and applies its gains to every photo of the folder, --grey-level too")
    func greyCardFolder() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/shoot", withIntermediateDirectories: true)
        // The card shot under the light; the shoot's photos also hold one, so the test can read them.
        try PNGImage.write(try Self.scene(cast: Self.warm), to: dir + "/card.png")
        try PNGImage.write(try Self.scene(cast: Self.warm * 0.8), to: dir + "/shoot/a.png")
        try PNGImage.write(try Self.scene(cast: Self.warm * 0.6), to: dir + "/shoot/b.png")
        var r = try CLI.run(["correct", dir + "/shoot", "-o", dir + "/out", "--no-look", "--grey-card",
                             dir + "/card.png", "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("grey card") && r.stdout.contains("found at"), "\(r.stdout)")
        for name in ["a", "b"] {
            let card = try Self.card(dir + "/out/\(name).png")
            #expect(card.max() - card.min() <= 1, "\(name): \(card)")
        }
        // An 18 % grey is code 118: the level follows the card, not each photo's brightness.
        r = try CLI.run(["correct", dir + "/shoot/a.png", "-o", dir + "/level.png", "--no-look", "--grey-card",
                         dir + "/card.png@45,65,15", "--grey-level", "18%"])
        #expect(r.status == 0, "\(r.stderr)")
        let level = try Self.card(dir + "/level.png")
        // a.png is 0.8 of the card's exposure, so its card lands at 0.8 × 18 % (code 106).
        #expect(abs(level.y - 255 * ColorScience.srgb(fromLinear: 0.8 * 0.18)) <= 1.5, "\(level)")
    }

    @Test("what cannot be measured is refused with an error naming it, and argument mistakes exit 64")
    func refusals() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGImage.write(try Self.scene(cast: Self.warm), to: dir + "/in.png")
        try PNGImage.write(try Self.scene(cast: Self.warm, card: false), to: dir + "/nocard.png")
        var r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/o.png", "--neutral", "500,10"])
        #expect(r.status == 1 && r.stderr.contains("error:") && r.stderr.contains("outside the photo"), "\(r.stderr)")
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/o.png", "--grey-card", dir + "/nocard.png"])
        #expect(r.status != 0 && r.stderr.contains("error: grey card") && r.stderr.contains("no grey card found"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
        r = try CLI.run(["correct", dir + "/in.png", dir + "/nocard.png", "-o", dir + "/out", "--neutral", "4,4"])
        #expect(r.status == 64 && r.stderr.contains("--neutral points at one photo"), "\(r.stderr)")
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/o.png", "--neutral", "4;4"])
        #expect(r.status == 64 && r.stderr.contains("expected X,Y or X,Y,RADIUS"), "\(r.stderr)")
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/o.png", "--grey-level", "18"])
        #expect(r.status == 64 && r.stderr.contains("give --neutral X,Y or --grey-card CARD"), "\(r.stderr)")
        r = try CLI.run(["correct", dir + "/in.png", "-o", dir + "/o.png", "--neutral", "4,4", "--grey-level", "180"])
        #expect(r.status == 64 && r.stderr.contains("1…100"), "\(r.stderr)")
    }
}
