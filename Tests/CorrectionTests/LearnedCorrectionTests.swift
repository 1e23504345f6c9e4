import Correction
import Foundation
import ImageIO
import LookCore
import LookModel
import Testing

/// The learned correction end to end on real photographs (Tests/Fixtures/photos): analysis, plan, cube, pixels.
struct LearnedCorrectionTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/photos")

    static func photo(_ name: String) throws -> PixelBuffer {
        try ImageFormat.read(path: photos.appendingPathComponent(name).path).pixels
    }

    /// An 8-bit photo with every pixel multiplied, in linear light, by `gains` (clipped, as a camera would).
    static func cast(_ image: PixelBuffer, _ gains: SIMD3<Double>) -> PixelBuffer {
        Scenes.encode(Scenes.decode(image).map { $0 * gains }, width: image.width, height: image.height)
    }

    @Test("a good photo with 10–20 % clipped sky is left alone: ≤ 0.5 dE00 through the whole correction")
    func clippedSkyLeftAlone() throws {
        let image = try Self.photo("clipped-sky.jpg")
        let (out, plan) = try Scenes.correct(image)
        let d = Scenes.meanDeltaE(image, out)
        #expect(d <= 0.5, "moved \(d) dE00; \(plan.explanation.joined(separator: "\n"))")
    }

    @Test("the white-balance strength scales the removed share; 200 removes the whole estimate")
    func strengthScalesTheShare() throws {
        let image = Self.cast(try Self.photo("translation.jpg"), SIMD3(1.2 * 0.6, 0.6, 0.75 * 0.6))
        let full = try AutoCorrection.plan(Scenes.analysis(image))
        let half = try AutoCorrection.plan(Scenes.analysis(image), settings: CorrectionPreset(whiteBalance: 50))
        let all = try AutoCorrection.plan(Scenes.analysis(image), settings: CorrectionPreset(whiteBalance: 200))
        #expect(abs(half.whiteBalance.amount - full.whiteBalance.amount / 2) < 1e-9)
        #expect(abs(all.whiteBalance.amount - 1) < 1e-9)
        #expect(full.whiteBalance.amount == full.whiteBalance.confidence)
    }
}
