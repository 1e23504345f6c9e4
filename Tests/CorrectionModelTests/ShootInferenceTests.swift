@testable import CorrectionModel
import Testing

/// The shoot's pooling: photos of one scene count as one, photos with nothing in common as many.
struct ShootInferenceTests {
    @Test("the effective number of photos: copies of one histogram count as 1, disjoint ones as n, half as between")
    func effectiveCount() {
        let a = [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0], b = [0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5]
        #expect(abs(CorrectionModel.effectiveCount(Array(repeating: a, count: 8)) - 1) < 1e-12)
        #expect(abs(CorrectionModel.effectiveCount([a, b]) - 2) < 1e-12)
        let half = CorrectionModel.effectiveCount([a, a, b, b])
        #expect(abs(half - 2) < 1e-12, "two pairs of copies: \(half)")
        #expect(CorrectionModel.effectiveCount([a]) == 1)
    }

    @Test("a shoot of one photo is that photo's own estimate, and its copies pooled count as one photo")
    func oneAndCopies() throws {
        let model = try CorrectionModel.bundled()
        // A colourful synthetic copy: bands of four colours over a brightness ramp.
        let colours: [SIMD3<Float>] = [SIMD3(0.5, 0.2, 0.1), SIMD3(0.1, 0.3, 0.2), SIMD3(0.2, 0.2, 0.5),
                                       SIMD3(0.4, 0.4, 0.3)]
        var small = [SIMD3<Float>]()
        for y in 0..<150 {
            let brightness = Float(0.2) + Float(0.8) * Float(y) / 150
            for x in 0..<200 { small.append(colours[x / 50] * brightness) }
        }
        let photo = model.evidence(small: small)
        let one = model.shoot([photo])
        #expect(one.estimate(for: photo) == photo.own)
        let copies = model.shoot(Array(repeating: photo, count: 8))
        #expect(abs(copies.castPhotos - 1) < 1e-9 && abs(copies.exposurePhotos - 1) < 1e-9)
        #expect(abs(copies.castSpread - photo.own.castSpread) < 1e-6, "eight copies are no more sure than one")
    }
}
