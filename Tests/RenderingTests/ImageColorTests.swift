import ColorManagement
import Foundation
import ImageIO
import LookCore
import Rendering
import Testing

/// Colour management in the pipeline: inputs are read in their own space, the look in its working space.
@Suite struct ImageColorTests {
    /// A curved look: contrast, warmth and saturation.
    static let look = try! ColorCube(size: 33) { c in
        let s = c * c * (3 - 2 * c)
        var out = 0.6 * s + 0.4 * c + SIMD3(0.03, 0, -0.03)
        let y = (out * SIMD3(0.2126, 0.7152, 0.0722)).sum()
        out = y + 1.25 * (out - y)
        return out.clamped(lowerBound: .zero, upperBound: .one)
    }

    /// Smooth photo-like colours: hue around the image, lightness down it, a dark band at the bottom.
    static func photo(width: Int = 96, height: Int = 64, depth: PixelBuffer.Depth = .eight) throws -> PixelBuffer {
        var values: [Double] = []
        for y in 0..<height {
            for x in 0..<width {
                let h = Double(x) / Double(width) * 2 * .pi
                let l = y > height * 3 / 4 ? 0.08 : 0.2 + 0.7 * Double(y) / Double(height)
                let c = 0.35 * sin(Double(x * y) / 300).magnitude + 0.05
                values += [l + c * cos(h), l + c * cos(h - 2.1), l + c * cos(h + 2.1)].map { min(max($0, 0), 1) }
            }
        }
        switch depth {
        case .eight:
            return try PixelBuffer(width: width, height: height, channels: 3,
                                   samples: .eight(values.map { UInt8(($0 * 255).rounded()) }))
        case .sixteen:
            return try PixelBuffer(width: width, height: height, channels: 3,
                                   samples: .sixteen(values.map { UInt16(($0 * 65535).rounded()) }))
        }
    }

    static func floats(_ image: PixelBuffer) -> [Float] {
        switch image.samples {
        case .eight(let s): return s.map { Float($0) / 255 }
        case .sixteen(let s): return s.map { Float($0) / 65535 }
        }
    }

    static func tagged(_ profile: ColorProfile) -> PNGColorMetadata {
        PNGColorMetadata(iccProfile: PNGColorMetadata.ICCProfile(name: profile.description, data: profile.data))
    }

    @Test("untagged and sRGB-tagged images through an sRGB look give the unmanaged result bit for bit",
          arguments: [PNGColorMetadata(), PNGColorMetadata(srgbIntent: .perceptual),
                      ImageColorTests.tagged(ColorProfile(.sRGB))])
    func srgbIsUnchanged(color: PNGColorMetadata) throws {
        let dir = try ImagePipelineTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for depth in PixelBuffer.Depth.allCases {
            try PNGImage.write(try Self.photo(depth: depth), to: "\(dir)/in.png", colorMetadata: color)
            try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/managed.png")
            try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/in.png", output: "\(dir)/raw.png")
            let managed = try PNGImage.readWithColor(path: "\(dir)/managed.png")
            #expect(managed.pixels == (try PNGImage.read(path: "\(dir)/raw.png")))
            #expect(managed.color == color)
        }
    }

    @Test("Display P3 and Adobe RGB images match convert → apply → convert per pixel: ΔE00 mean ≤ 0.5, p95 ≤ 1.2",
          arguments: [ColorProfile.Named.displayP3, .adobeRGB])
    func wideGamutMatchesPerPixel(space: ColorProfile.Named) throws {
        let dir = try ImagePipelineTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = ColorProfile(space)
        let image = try Self.photo()
        try PNGImage.write(image, to: "\(dir)/in.png", colorMetadata: Self.tagged(profile))
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/out.png")
        let out = try PNGImage.readWithColor(path: "\(dir)/out.png")
        #expect(out.color.iccProfile?.data == profile.data)
        var reference = Self.floats(image)
        try ColorManagedLook(look: Self.look, workingSpace: ColorProfile(.sRGB))
            .applyPerPixel(&reference, input: profile, output: profile)
        let managed = ColorAccuracy.Summary(try ColorAccuracy.differences(reference, Self.floats(out.pixels),
                                                                          in: profile))
        #expect(managed.mean <= 0.5 && managed.p95 <= 1.2)
        // Applying the sRGB look to the raw codes, as before colour management, is measurably further off.
        try ImagePipeline.apply(CubeApplier(cube: Self.look), input: "\(dir)/in.png", output: "\(dir)/raw.png")
        let raw = ColorAccuracy.Summary(try ColorAccuracy.differences(
            reference, Self.floats(try PNGImage.read(path: "\(dir)/raw.png")), in: profile))
        #expect(raw.mean > managed.mean)
    }

    @Test("--output-profile srgb writes an sRGB-tagged file whose colours match the per-pixel answer in sRGB")
    func outputToSRGB() throws {
        let dir = try ImagePipelineTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p3 = ColorProfile(.displayP3)
        let image = try Self.photo(depth: .sixteen)
        try PNGImage.write(image, to: "\(dir)/in.png", colorMetadata: Self.tagged(p3))
        var options = ImagePipeline.Options()
        options.color.output = try OutputColor.parse("srgb")
        try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/out.png", options: options)
        let out = try PNGImage.readWithColor(path: "\(dir)/out.png")
        #expect(out.color == PNGColorMetadata(srgbIntent: .perceptual))
        #expect(out.pixels.depth == .sixteen)
        var reference = Self.floats(image)
        try ColorManagedLook(look: Self.look, workingSpace: ColorProfile(.sRGB))
            .applyPerPixel(&reference, input: p3, output: ColorProfile(.sRGB))
        let summary = ColorAccuracy.Summary(try ColorAccuracy.differences(reference, Self.floats(out.pixels),
                                                                          in: ColorProfile(.sRGB)))
        #expect(summary.mean <= 0.2 && summary.p95 <= 0.6)
    }

    @Test("an embedded profile LittleCMS rejects is an error naming the file, and nothing is written")
    func rejectedProfile() throws {
        let dir = try ImagePipelineTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // libpng checks the header and tag table, so the tags' contents are what is broken: LittleCMS then finds
        // no readable colorant or curve tags.
        var broken = ColorProfile(.displayP3).data
        let tags = 132 + 12 * Int(broken[131])
        broken.replaceSubrange(tags..<broken.count, with: [UInt8](repeating: 0xEE, count: broken.count - tags))
        try PNGImage.write(try Self.photo(), to: "\(dir)/in.png",
                           colorMetadata: PNGColorMetadata(iccProfile: .init(name: "broken", data: broken)))
        #expect {
            try ImagePipeline.apply(Self.look, input: "\(dir)/in.png", output: "\(dir)/out.png")
        } throws: { "\($0)".hasPrefix("\(dir)/in.png: ") }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out.png"))
    }

    @Test("a grey ICC profile falls back to sRGB with a warning")
    func greyProfileFallsBack() throws {
        var grey = ColorProfile(.sRGB).data
        grey.replaceSubrange(16..<20, with: Array("GRAY".utf8))
        let (profile, warning) = try ImageColor.profile(
            for: ColorDescription(iccProfile: .init(data: grey)), file: "g.png")
        #expect(profile.named == .sRGB)
        #expect(warning?.hasPrefix("g.png: its GRAY ICC profile") == true)
    }

    @Test("nclx Display P3 code points read as Display P3; PNG gAMA 1/2.2 without cHRM reads as sRGB")
    func descriptions() throws {
        let (p3, _) = try ImageColor.profile(
            for: ColorDescription(codePoints: .init(primaries: 12, transfer: 13, matrix: 6, fullRange: true)),
            file: "x.heic")
        #expect(p3.isEquivalent(to: ColorProfile(.displayP3)))
        let (srgb, _) = try ImageColor.profile(for: ColorDescription(gamma: 45_455), file: "x.png")
        #expect(srgb.named == .sRGB)
        let (gamma18, _) = try ImageColor.profile(for: ColorDescription(gamma: 55_556), file: "x.png")
        #expect(!gamma18.isEquivalent(to: ColorProfile(.sRGB)))
    }
}

/// TIFF through the pipeline: streamed like PNG, same samples.
@Suite struct TIFFPipelineTests {
    @Test("a 16-bit TIFF gives a 16-bit TIFF with exactly the PNG path's samples, in small bands, ICC kept")
    func tiffMatchesPNG() throws {
        let dir = try ImagePipelineTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p3 = ColorProfile(.displayP3)
        let image = try ImageColorTests.photo(depth: .sixteen)
        try PNGImage.write(image, to: "\(dir)/in.png", colorMetadata: ImageColorTests.tagged(p3))
        try TIFFImage.write(image, to: "\(dir)/in.tif", compression: .deflate, iccProfile: p3.data)
        var options = ImagePipeline.Options()
        options.bandBytes = 3000
        try ImagePipeline.apply(ImageColorTests.look, input: "\(dir)/in.png", output: "\(dir)/out.png", options: options)
        try ImagePipeline.apply(ImageColorTests.look, input: "\(dir)/in.tif", output: "\(dir)/out.tif", options: options)
        let png = try PNGImage.read(path: "\(dir)/out.png")
        let tiff = try ImageFormat.readImage(path: "\(dir)/out.tif")
        #expect(tiff.pixels.depth == .sixteen)
        #expect(tiff.pixels == png)
        #expect(tiff.color.iccProfile?.data == p3.data)
        #expect(try TIFFReader(path: "\(dir)/out.tif").compression == .deflate)
    }
}

/// The whole-image formats give the PNG path's result for the same decoded pixels.
@Suite struct OtherFormatPipelineTests {
    @Test("HEIC, AVIF and lossless WebP inputs give the PNG path's result for the same pixels and profile",
          arguments: ["heic", "avif", "webp"])
    func sameAsPNG(ext: String) throws {
        let dir = try ImagePipelineTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p3 = ImageColorTests.tagged(ColorProfile(.displayP3))
        let image = try ImageColorTests.photo()
        var options = EncoderOptions()
        options.webpLossless = true
        try ImageFormat.write(image, to: "\(dir)/in.\(ext)", color: ColorDescription(png: p3), options: options)
        let decoded = try ImageFormat.readImage(path: "\(dir)/in.\(ext)")
        try PNGImage.write(decoded.pixels, to: "\(dir)/same.png", colorMetadata: decoded.color.png)
        try ImagePipeline.apply(ImageColorTests.look, input: "\(dir)/in.\(ext)", output: "\(dir)/out.png")
        try ImagePipeline.apply(ImageColorTests.look, input: "\(dir)/same.png", output: "\(dir)/expected.png")
        #expect(try PNGImage.read(path: "\(dir)/out.png") == (try PNGImage.read(path: "\(dir)/expected.png")))
        #expect(try PNGReader(path: "\(dir)/out.png").colorMetadata.iccProfile?.data == ColorProfile(.displayP3).data)
    }
}
