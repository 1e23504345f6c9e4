import Foundation
@testable import ImageIO
@testable import Pixels
import Testing

@Suite struct PNGColorMetadataTests {
    static func image16() throws -> PixelBuffer {
        let values = (0..<(5 * 3 * 3)).map { UInt16(truncatingIfNeeded: $0 &* 40_503) }
        return try PixelBuffer(width: 5, height: 3, channels: 3, samples: .sixteen(values))
    }

    static func roundTrip(_ color: PNGColorMetadata, image: PixelBuffer? = nil) throws
        -> (bytes: [UInt8], reader: PNGReader, pixels: PixelBuffer) {
        let original = try image ?? image16()
        let bytes = try PNGImage.encode(original, colorMetadata: color)
        let reader = try PNGReader(data: bytes, name: "roundtrip.png")
        return (bytes, reader, try PNGImage.decode(bytes, name: "roundtrip.png"))
    }

    @Test("an iCCP chunk is read as the decompressed profile and its name; the samples are untouched")
    func readsICCP() throws {
        let profile = ColorFixtures.minimalRGBProfile()
        let values = (0..<12).map { $0 * 5_461 }
        var fixture = PNGFixture(width: 2, height: 2, bitDepth: 16, colorType: 2, samples: values)
        fixture.extraChunks = [("iCCP", ColorFixtures.iccpChunk(name: "Test RGB", profile: profile))]
        let reader = try PNGReader(data: fixture.bytes(), name: "iccp.png")
        #expect(reader.colorMetadata == PNGColorMetadata(iccProfile: .init(name: "Test RGB", data: profile)))
        #expect(try PNGImage.decode(fixture.bytes(), name: "iccp.png").samples == .sixteen(values.map(UInt16.init)))
    }

    @Test("profiles survive writing and reading byte for byte, with their names",
          arguments: [ColorFixtures.minimalRGBProfile(tint: 7)] + [ColorFixtures.systemProfile()].compactMap { $0 })
    func iccRoundTrip(profile: [UInt8]) throws {
        let color = PNGColorMetadata(iccProfile: .init(name: "Wide gamut", data: profile))
        let (bytes, reader, pixels) = try Self.roundTrip(color)
        #expect(reader.colorMetadata == color)
        #expect(ColorFixtures.chunkTypes(bytes).prefix(3) == ["IHDR", "iCCP", "IDAT"])
        #expect(pixels == (try Self.image16()))
    }

    @Test("sRGB, gAMA and cHRM survive writing and reading, and are reported only when stored")
    func srgbGammaChromaticities() throws {
        let all = PNGColorMetadata(srgbIntent: .relativeColorimetric, gamma: 45_455, chromaticities: .sRGB)
        let (bytes, reader, pixels) = try Self.roundTrip(all)
        #expect(reader.colorMetadata == all)
        #expect(Set(ColorFixtures.chunkTypes(bytes)).isSuperset(of: ["sRGB", "gAMA", "cHRM"]))
        #expect(pixels == (try Self.image16()))

        // libpng derives gAMA and cHRM values from sRGB; a file holding only sRGB must not gain them.
        let onlySRGB = PNGColorMetadata(srgbIntent: .perceptual)
        let (srgbBytes, srgbReader, _) = try Self.roundTrip(onlySRGB)
        #expect(srgbReader.colorMetadata == onlySRGB)
        #expect(!ColorFixtures.chunkTypes(srgbBytes).contains("gAMA"))

        let gammaOnly = PNGColorMetadata(gamma: 100_000)
        #expect(try Self.roundTrip(gammaOnly).reader.colorMetadata == gammaOnly)
    }

    @Test("a 16-bit image with a gAMA of 1.0 or 1/2.2 reads back exactly as stored", arguments: [Int32(100_000), 45_455])
    func gammaNeverApplied(gamma: Int32) throws {
        let values = [0, 1, 255, 256, 0x1234, 0x8000, 0xFEDC, 65_534, 65_535, 30_000, 12_345, 54_321]
        var fixture = PNGFixture(width: 2, height: 2, bitDepth: 16, colorType: 2, samples: values)
        fixture.gamma = UInt32(gamma)
        let reader = try PNGReader(data: fixture.bytes(), name: "gamma.png")
        #expect(reader.colorMetadata.gamma == gamma)
        var out = [UInt16](repeating: 0, count: values.count)
        try out.withUnsafeMutableBufferPointer { try reader.readRows(2, into: $0) }
        #expect(out == values.map(UInt16.init))
    }

    @Test("a broken iCCP chunk is dropped without failing the image; the other colour chunks stay")
    func brokenICCPOnRead() throws {
        let values = (0..<12).map { $0 * 20 }
        var fixture = PNGFixture(width: 2, height: 2, bitDepth: 8, colorType: 2, samples: values)
        fixture.gamma = 45_455
        var truncated = ColorFixtures.minimalRGBProfile()
        truncated.removeLast(40)  // the header still claims 164 bytes
        fixture.extraChunks = [("iCCP", ColorFixtures.iccpChunk(name: "cut", profile: truncated))]
        let reader = try PNGReader(data: fixture.bytes(), name: "broken.png")
        // Dropped, but not silently: libpng's reason is kept so the colour stage can warn.
        var expected = PNGColorMetadata(gamma: 45_455)
        expected.refusedICCProfile = reader.colorMetadata.refusedICCProfile
        #expect(reader.colorMetadata == expected)
        #expect(reader.colorMetadata.refusedICCProfile?.contains("iCCP") == true)
        #expect(try PNGImage.decode(fixture.bytes(), name: "broken.png").samples == .eight(values.map(UInt8.init)))

        var junk = fixture
        junk.extraChunks = [("iCCP", Array("junk\0".utf8) + [0, 1, 2, 3])]
        #expect(try PNGReader(data: junk.bytes(), name: "junk.png").colorMetadata.iccProfile == nil)
    }

    @Test("a profile libpng refuses is left out of the written file, which is otherwise complete")
    func brokenICCPOnWrite() throws {
        var gen = SampleGenerator(seed: 11)
        let garbage = PNGColorMetadata(iccProfile: .init(name: "noise", data: gen.bytes(300)), gamma: 50_000)
        let (bytes, reader, pixels) = try Self.roundTrip(garbage)
        #expect(reader.colorMetadata == PNGColorMetadata(gamma: 50_000))
        #expect(!ColorFixtures.chunkTypes(bytes).contains("iCCP"))
        #expect(pixels == (try Self.image16()))

        // A grey profile cannot describe the RGB image written.
        var grey = ColorFixtures.minimalRGBProfile()
        grey.replaceSubrange(16 ..< 20, with: Array("GRAY".utf8))
        let greyColor = PNGColorMetadata(iccProfile: .init(data: grey))
        #expect(try Self.roundTrip(greyColor).reader.colorMetadata.iccProfile == nil)
    }

    @Test("a gAMA contradicting sRGB is dropped on writing; sRGB and the pixels are kept")
    func contradictoryGamma() throws {
        let color = PNGColorMetadata(srgbIntent: .perceptual, gamma: 100_000)
        let (bytes, reader, pixels) = try Self.roundTrip(color)
        #expect(reader.colorMetadata == PNGColorMetadata(srgbIntent: .perceptual))
        #expect(!ColorFixtures.chunkTypes(bytes).contains("gAMA"))
        #expect(pixels == (try Self.image16()))
    }

    @Test("a profile name that is not a PNG keyword is cleaned rather than failing the header")
    func keywordCleaned() throws {
        let profile = ColorFixtures.minimalRGBProfile()
        let named = PNGColorMetadata(iccProfile: .init(name: "  Display\n  P3 ", data: profile))
        let cleaned = try Self.roundTrip(named).reader.colorMetadata.iccProfile
        #expect(cleaned?.name == "Display P3")
        #expect(cleaned?.data == profile)
        let unnamed = PNGColorMetadata(iccProfile: .init(name: "", data: profile))
        #expect(try Self.roundTrip(unnamed).reader.colorMetadata.iccProfile?.name == "ICC profile")
    }

    @Test("the profile given to a JPEG is the ICC profile only when it describes RGB")
    func jpegProfile() throws {
        let rgb = ColorFixtures.minimalRGBProfile()
        #expect(PNGColorMetadata(iccProfile: .init(data: rgb)).jpegICCProfile == rgb)
        var cmyk = rgb
        cmyk.replaceSubrange(16 ..< 20, with: Array("CMYK".utf8))
        #expect(PNGColorMetadata(iccProfile: .init(data: cmyk)).jpegICCProfile == nil)
        #expect(PNGColorMetadata(iccProfile: [UInt8]()).isEmpty)
    }

    @Test("ImageFormat moves an ICC profile between JPEG and PNG, and keeps all PNG colour chunks PNG to PNG")
    func imageFormatTransfer() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let profile = ColorFixtures.minimalRGBProfile(tint: 3)
        let image = try PixelBuffer(width: 8, height: 8, channels: 3,
                                    samples: .eight((0..<192).map { UInt8($0) }))
        let jpeg = folder.path + "/in.jpg", png = folder.path + "/out.png", back = folder.path + "/back.jpg"
        try ImageFormat.write(image, to: jpeg, iccProfile: profile)
        let fromJPEG = try ImageFormat.readWithColor(path: jpeg)
        try ImageFormat.write(fromJPEG.pixels, to: png, color: fromJPEG.color)
        let pngColor = try PNGReader(path: png).colorMetadata
        #expect(pngColor == PNGColorMetadata(iccProfile: .init(name: "ICC profile", data: profile)))
        #expect(try ImageFormat.read(path: png).iccProfile == profile)
        try ImageFormat.write(fromJPEG.pixels, to: back, color: pngColor)
        #expect(try JPEGImage.read(path: back).iccProfile == profile)
    }
}
