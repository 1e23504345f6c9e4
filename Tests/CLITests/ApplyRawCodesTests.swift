import ColorManagement
import Foundation
import ImageIO
import LookStudioTestSupport
import Testing

/// `apply --raw-codes`: the look on the stored codes, as ffmpeg's lut3d applies a cube, against the colour-managed
/// default that converts a tagged image into the look's working space and says so.
@Suite("apply --raw-codes")
struct ApplyRawCodesTests {
    static func write(_ path: String, profile: ColorProfile?) throws {
        let samples = (0..<(48 * 32 * 3)).map { UInt8(truncatingIfNeeded: ($0 * 53) % 253) }
        let image = try PixelBuffer(width: 48, height: 32, channels: 3, samples: .eight(samples))
        try PNGImage.write(image, to: path, colorMetadata: PNGColorMetadata(
            iccProfile: profile.map { .init(name: "profile", data: $0.data) }))
    }

    @Test("on an Adobe RGB photo --raw-codes gives the codes an untagged copy gets, keeps the profile, and the default notes the conversion")
    func rawCodesSkipTheConversion() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = CLI.fixtures + "/reference/warm17.cube"
        try Self.write(dir + "/adobe.png", profile: ColorProfile(.adobeRGB))
        try Self.write(dir + "/plain.png", profile: nil)

        let raw = try CLI.run(["apply", "--lut", lut, "--raw-codes", dir + "/adobe.png", dir + "/raw.png"])
        #expect(raw.status == 0 && !raw.stderr.contains("note:"), "\(raw.stderr)")
        let plain = try CLI.run(["apply", "--lut", lut, dir + "/plain.png", dir + "/plain-out.png"])
        #expect(plain.status == 0 && !plain.stderr.contains("converted"), "untagged is the working space: \(plain.stderr)")
        let rawOut = try ImageFormat.readImage(path: dir + "/raw.png")
        #expect(rawOut.pixels.samples == (try ImageFormat.readImage(path: dir + "/plain-out.png")).pixels.samples)
        #expect(rawOut.color.iccProfile?.data == ColorProfile(.adobeRGB).data, "the input's profile is kept")

        let managed = try CLI.run(["apply", "--lut", lut, dir + "/adobe.png", dir + "/managed.png"])
        #expect(managed.status == 0, "\(managed.stderr)")
        #expect(managed.stderr.contains("note: \(dir)/adobe.png is ") && managed.stderr.contains("--raw-codes"),
                "\(managed.stderr)")
        #expect((try ImageFormat.readImage(path: dir + "/managed.png")).pixels.samples != rawOut.pixels.samples)

        let refused = try CLI.run(["apply", "--lut", lut, "--raw-codes", "--output-profile", "srgb",
                                   dir + "/adobe.png", dir + "/x.png"])
        #expect(refused.status != 0 && refused.stderr.contains("--raw-codes"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
        let help = try CLI.run(["apply", "--help"])
        #expect(help.stdout.contains("--raw-codes"))
    }
}
