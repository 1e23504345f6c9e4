@testable import CorrectionModel
import Foundation
import Hashing
import ImageIO
import LookCore
import Testing

/// The shipped model file, the translation property of the cast estimate, and a good photo with clipped sky.
struct CorrectionModelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let photos = root.appendingPathComponent("Tests/Fixtures/photos")

    /// A fixture photo as interleaved linear RGB.
    static func linear(_ name: String) throws -> (pixels: [Float], width: Int, height: Int) {
        let image = try ImageFormat.read(path: photos.appendingPathComponent(name).path).pixels
        guard case .eight(let samples) = image.samples else { throw CocoaError(.fileReadCorruptFile) }
        var out = [Float](repeating: 0, count: image.width * image.height * 3)
        for p in 0..<(image.width * image.height) {
            for c in 0..<3 {
                out[p * 3 + c] = Float(ColorScience.linear(fromSRGB: Double(samples[p * image.channels + c]) / 255))
            }
        }
        return (out, image.width, image.height)
    }

    @Test func shippedModelHasItsVersionHashAndCorpus() throws {
        let model = try CorrectionModel.bundled()
        #expect(model.version == CorrectionModel.formatVersion)
        #expect(model.bodyHash == model.header.body_sha256)
        let manifest = try Data(contentsOf: Self.root.appendingPathComponent("scripts/train/corpus-manifest.csv"))
        #expect(model.header.corpus_manifest_sha256 == SHA256.hex([UInt8](manifest)))
        #expect(!model.header.smoke)
        #expect(model.header.train_photos >= 100)
    }

    @Test func damagedParametersAreRefused() throws {
        var bytes = [UInt8](try Data(contentsOf: CorrectionModel.bundledURL))
        bytes[bytes.count - 5] ^= 0x40
        #expect(throws: CorrectionModelError.self) { try CorrectionModel(data: Data(bytes), path: "damaged.lscm") }
        #expect(throws: CorrectionModelError.self) { try CorrectionModel(data: Data("LSCX".utf8), path: "x.lscm") }
    }

    /// A von Kries cast translates the log-chroma histogram, so the learned filter's estimate (the likelihood; the
    /// prior over casts is deliberately not equivariant) must move by the cast itself. Tolerance 0.1 log units:
    /// the histogram's 1/16 bins, JPEG and the pixels the cast pushes past the bright and dark cut-offs.
    @Test(arguments: [SIMD2<Double>(0.3, -0.35), SIMD2(-0.25, 0.3), SIMD2(0.15, 0.15), SIMD2(-0.2, -0.1)])
    func castMovesTheEstimateByTheCast(shift: SIMD2<Double>) throws {
        let model = try CorrectionModel.bundled()
        let photo = try Self.linear("translation.jpg")
        // Half exposure keeps the cast pixels inside the histogram's bright cut-off.
        let small = model.downscale(linear: photo.pixels, width: photo.width, height: photo.height).pixels
            .map { $0 * 0.5 }
        let gains = SIMD3<Float>(Float(exp(-shift.x)), 1, Float(exp(-shift.y)))
        let before = model.castLikelihoodEstimate(small: small).cast
        let after = model.castLikelihoodEstimate(small: small.map { $0 * gains }).cast
        let moved = after - before
        #expect(abs(moved.x - shift.x) <= 0.1 && abs(moved.y - shift.y) <= 0.1,
                "cast \(shift) moved the estimate by \(moved)")
    }

    /// A good landscape whose sky clips over 10…20 % of its pixels is no over-exposure: ≤ 0.5 dE00 of change.
    @Test func goodPhotoWithClippedSkyIsLeftAlone() throws {
        let model = try CorrectionModel.bundled()
        let photo = try Self.linear("clipped-sky.jpg")
        let count = photo.width * photo.height
        let clipped = (0..<count).filter { p in (0..<3).contains { photo.pixels[p * 3 + $0] >= 0.99 } }.count
        let share = Double(clipped) / Double(count)
        #expect(share >= 0.10 && share <= 0.20, "fixture clips \(share)")
        let estimate = model.analyse(linear: photo.pixels, width: photo.width, height: photo.height)
        var total = 0.0
        for p in stride(from: 0, to: count, by: 7) {
            let x = SIMD3<Double>(Double(photo.pixels[p * 3]), Double(photo.pixels[p * 3 + 1]),
                                  Double(photo.pixels[p * 3 + 2]))
            let y = estimate.apply(x)
            let encode = { (v: SIMD3<Double>) in
                SIMD3((0..<3).map { ColorScience.srgb(fromLinear: min(1, max(0, v[$0]))) })
            }
            total += ColorScience.deltaE2000(ColorScience.lab(fromSRGB: encode(x)), ColorScience.lab(fromSRGB: encode(y)))
        }
        let mean = total / Double((count + 6) / 7)
        #expect(mean <= 0.5, "moved \(mean) dE00 (\(estimate))")
    }

    @Test func theBlackQuantileBySelectionIsTheSortedInterpolatedOne() {
        // numpy's percentile, which the training mirror uses: sort, then interpolate between the order statistics
        // around p·(n − 1). Selection must give the very same number, duplicates and tiny arrays included.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for n in [1, 2, 3, 8, 257, 44_000] {
            let values = (0..<n).map { _ in Double(next() % 1000) / 997 }
            let sorted = values.sorted()
            for p in [0, 0.005, 0.25, 0.5, 0.999, 1] {
                let position = p * Double(n - 1), lower = Int(position)
                let expected = sorted[lower]
                    + (sorted[min(lower + 1, n - 1)] - sorted[lower]) * (position - Double(lower))
                var copy = values
                #expect(CorrectionModel.quantile(&copy, p) == expected, "n \(n), p \(p)")
            }
        }
    }
}
