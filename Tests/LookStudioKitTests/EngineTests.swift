import ColorManagement
import Foundation
import ImageIO
import LookStudioKit
import LookStudioTestSupport
import Testing
import Workflows

/// The library's promise: pixels in memory get the bytes the command line writes for the same decoded pixels.
@Suite struct EngineTests {
    /// Runs `apply --look GUID --strength S` (ApplyJob) on `image` written as a PNG; returns the decoded output.
    private func commandLineApply(_ image: PixelBuffer, color: ColorDescription, look: String,
                                  strength: Double) throws -> PixelBuffer {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageFormat.write(image, to: "\(dir)/in.png", color: color)
        var request = ApplyJob.Request(source: .catalog(look), input: "\(dir)/in.png", output: "\(dir)/out.png")
        request.strength = strength
        _ = try ApplyJob(request).run(in: try Fixture.workspace())
        return try ImageFormat.read(path: "\(dir)/out.png").pixels
    }

    @Test func aCatalogLookOnAnUntaggedPhotoIsTheCommandLinesBytes() throws {
        let (photo, color) = try Fixture.photo("coffee.png")
        let look = try Fixture.lookGUIDs(3)[2]
        let cli = try commandLineApply(photo, color: color, look: look, strength: 60)
        let out = try Fixture.engine.get().apply(Params(look: look, lookStrength: 60),
                                                 to: try Fixture.pixels8(photo, color))
        #expect(.eight(out.samples) == cli.samples)
    }

    @Test func anICCTaggedPhotoIsColourManagedAsTheCommandLineDoesIt() throws {
        let (photo, _) = try Fixture.photo("chelsea.png")
        let p3 = ColorDescription(iccBytes: ColorProfile(.displayP3).data)
        let look = try Fixture.lookGUIDs(1)[0]
        let cli = try commandLineApply(photo, color: p3, look: look, strength: 100)
        let out = try Fixture.engine.get().apply(Params(look: look), to: try Fixture.pixels8(photo, p3))
        #expect(.eight(out.samples) == cli.samples)
        #expect(out.icc == p3.iccProfile?.data)
        let untagged = try Fixture.engine.get().apply(Params(look: look), to: try Fixture.pixels8(photo))
        #expect(untagged.samples != out.samples)
    }

    @Test func sixteenBitRGBAKeepsAlphaAndMatchesTheCommandLine() throws {
        let image = try Fixture.synthetic(width: 97, height: 61, channels: 4, depth: .sixteen)
        let look = try Fixture.lookGUIDs(2)[1]
        let cli = try commandLineApply(image, color: ColorDescription(), look: look, strength: 150)
        let out = try Fixture.engine.get().apply(Params(look: look, lookStrength: 150),
                                                 to: try Fixture.pixels16(image))
        #expect(.sixteen(out.samples) == cli.samples)
        guard case .sixteen(let input) = image.samples else { return }
        #expect(stride(from: 3, to: input.count, by: 4).allSatisfy { out.samples[$0] == input[$0] })
    }

    @Test func rowsApartAndInPlaceGiveTheSameBytesAsRowsBackToBack() throws {
        let engine = try Fixture.engine.get()
        let image = try Fixture.pixels8(try Fixture.synthetic(width: 300, height: 257, channels: 3, depth: .eight))
        let params = Params(look: try Fixture.lookGUIDs(1)[0], lookStrength: 80)
        let expected = try engine.apply(params, to: image)
        let row = 300 * 3, stride = row + 13
        var padded = [UInt8](repeating: 0xAB, count: stride * 257)
        for y in 0..<257 { padded[(y * stride)..<(y * stride + row)] = image.samples[(y * row)..<((y + 1) * row)] }
        try padded.withUnsafeMutableBytes { raw in
            let view = try Image(pixels: raw.baseAddress, width: 300, height: 257, channels: 3, bits: 8,
                                 rowBytes: stride)
            try engine.apply(params, to: view, into: view)
        }
        for y in 0..<257 {
            let rendered = Array(padded[(y * stride)..<(y * stride + row)])
            #expect(rendered == Array(expected.samples[(y * row)..<((y + 1) * row)]))
            #expect(padded[(y * stride + row)..<((y + 1) * stride)].allSatisfy { $0 == 0xAB })
        }
    }

    @Test func theCubeIsTheOneApplied() throws {
        let engine = try Fixture.engine.get()
        let params = Params(look: try Fixture.lookGUIDs(1)[0], lookStrength: 0)
        let cube = try engine.cube(params, size: 5)
        #expect(cube.count == 5 * 5 * 5 * 3)
        // Strength 0 is the identity, red fastest (resampled from the look's 64³ grid, so within float error).
        let close = { (a: Float, b: Float) in abs(a - b) < 1e-6 }
        #expect(close(cube[3], 0.25) && close(cube[4], 0) && close(cube[5 * 3 + 1], 0.25)
                && close(cube[25 * 3 + 2], 0.25))
        #expect(throws: LookStudioError.self) { try engine.cube(params, size: 1) }
    }

    @Test func unknownLooksAndDamagedCatalogsAreErrorsWithTheirKinds() throws {
        let engine = try Fixture.engine.get()
        let missing = #expect(throws: LookStudioError.self) {
            try engine.apply(Params(look: "no-such-look-anywhere"), to: try Fixture.pixels8(
                try Fixture.synthetic(width: 2, height: 2, channels: 3, depth: .eight)))
        }
        #expect(missing?.kind == .notFound)
        #expect(missing?.message.contains("no-such-look-anywhere") == true)
        let dir = try CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: "\(dir)/broken.sqlite", contents: Data(repeating: 7, count: 4096)))
        let broken = #expect(throws: LookStudioError.self) { try Engine(catalog: "\(dir)/broken.sqlite") }
        #expect(broken?.kind == .catalogBroken)
        #expect(broken?.message.contains("broken.sqlite") == true)
    }

    @Test func automaticCorrectionWithoutAnAnalysisIsRefused() throws {
        var params = Params()
        params.autoCorrect = .on
        let error = #expect(throws: LookStudioError.self) {
            try Fixture.engine.get().apply(params, to: try Fixture.pixels8(
                try Fixture.synthetic(width: 2, height: 2, channels: 3, depth: .eight)))
        }
        #expect(error?.message.contains("detect the image first") == true)
    }
}
