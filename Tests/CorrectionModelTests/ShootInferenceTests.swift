@testable import CorrectionModel
import Foundation
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

    /// A colourful copy of one of eight different scenes: its own colours and darkest tone, over a brightness ramp.
    static func scene(_ k: Int) -> [SIMD3<Float>] {
        let hue = Float(k) / 8
        let colours: [SIMD3<Float>] = [SIMD3(0.5 + 0.3 * hue, 0.25, 0.1 + 0.4 * hue), SIMD3(0.1, 0.35 - 0.2 * hue, 0.2),
                                       SIMD3(0.2 * hue, 0.25, 0.55 - 0.3 * hue), SIMD3(0.45, 0.4, 0.3 * hue + 0.1)]
        var small = [SIMD3<Float>]()
        for y in 0..<150 {
            let brightness = Float(0.01 * Double(k % 3)) + Float(0.9) * Float(y) / 150
            for x in 0..<200 { small.append(colours[(x / 50 + k) % 4] * brightness) }
        }
        return small
    }

    @Test("a veil every photo of a shoot shares is found and replaces each photo's own; untouched photos share none")
    func commonVeil() throws {
        let model = try CorrectionModel.bundled()
        let clear = (0..<8).map { model.evidence(small: Self.scene($0)) }
        #expect(model.shoot(clear).veil == 0, "good photos' blacks are not a veil")
        // A veil of 0.08: below the model's single-photo threshold, so no photo alone removes it.
        let veiled = (0..<8).map { k in model.evidence(small: Self.scene(k).map { $0 * 0.92 + SIMD3(repeating: 0.08) }) }
        #expect(veiled.allSatisfy { $0.own.veil == 0 }, "alone, no photo finds it")
        let shoot = model.shoot(veiled)
        #expect(shoot.castPhotos >= 2, "eight different scenes: \(shoot.castPhotos)")
        let underVeil = model.independentUnderVeil(veiled)
        #expect(underVeil > shoot.castPhotos, "a veil makes scenes look alike: \(shoot.castPhotos) → \(underVeil)")
        #expect(shoot.veil > 0.07 && shoot.veil <= 0.08, "the veil found: \(shoot.veil)")
        #expect(veiled.allSatisfy { shoot.estimate(for: $0).veil == shoot.veil })
        #expect(shoot.exposureAmount == 1, "the exposure read after a shared veil is applied where it is significant")
        let copies = model.shoot(Array(repeating: veiled[0], count: 8))
        #expect(copies.veil == 0, "copies of one photo are one photo's evidence: \(copies.veil)")
    }

    @Test("a veil under a coloured light takes the light's colour, read from the shoot's cast under the veil")
    func airlightTakesTheLightsColour() throws {
        let model = try CorrectionModel.bundled()
        let clear = (0..<8).map { model.evidence(small: Self.scene($0)) }
        #expect(model.shoot(clear).airlight == SIMD3(1, 1, 1), "no veil, no airlight")
        let warm = SIMD3<Float>(1.35, 1, 0.6)
        let veiled = (0..<8).map { k in
            model.evidence(small: Self.scene(k).map { ($0 * 0.92 + SIMD3(repeating: 0.08)) * warm })
        }
        let shoot = model.shoot(veiled)
        #expect(shoot.veil > 0, "\(shoot)")
        let air = shoot.airlight
        #expect(air.x > air.y && air.y > air.z && air.z == 1, "warm light, warm airlight: \(air)")
        // A black under the veil comes out nearer neutral than with the veil removed as grey.
        let black = SIMD3<Double>(0.08 * warm)
        let e = shoot.estimate(for: veiled[0])
        var grey = e
        grey.airlight = SIMD3(1, 1, 1)
        let tinted = e.apply(black) / e.gains, untinted = grey.apply(black) / e.gains
        #expect(tinted.max() - tinted.min() < 0.5 * (untinted.max() - untinted.min()), "\(tinted) \(untinted)")
    }

    @Test("the common veil's threshold falls with the number of independent photos; under two there is none")
    func commonVeilThreshold() {
        #expect(ShootEstimate.commonVeil(blacks: [0.3], independent: 1) == 0, "one photo is no shoot")
        #expect(ShootEstimate.commonVeil(blacks: [0.2, 0.2, 0.2], independent: 1.9) == 0, "one scene's crops")
        let two = 0.2 - ShootEstimate.commonVeil(blacks: [0.2, 0.2], independent: 2)
        #expect(two > ShootEstimate.goodBlacks[80] && two < ShootEstimate.goodBlacks[95], "\(two)")
        let eight = 0.2 - ShootEstimate.commonVeil(blacks: Array(repeating: 0.2, count: 8), independent: 8)
        #expect(eight > ShootEstimate.goodBlacks[30] && eight < ShootEstimate.goodBlacks[50], "\(eight)")
        #expect(ShootEstimate.commonVeil(blacks: [0.2, 0.001], independent: 2) == 0, "one dark photo: no common veil")
    }

    @Test("blacks at the lowest level the count allows hold no veil; blacks above it hold the difference")
    func commonVeilAboveTheLevel() {
        let dark = Array(repeating: ShootEstimate.veilLevel(independent: 8), count: 8)
        #expect(ShootEstimate.commonVeil(blacks: dark, independent: 8) == 0)
        #expect(abs(ShootEstimate.commonVeil(blacks: dark.map { $0 + 0.05 }, independent: 8) - 0.05) < 1e-12)
        #expect(ShootEstimate.commonVeil(blacks: dark.map { $0 + 0.05 }, independent: 1.9) == 0, "one scene")
    }

    @Test("photos without usable pixels are no evidence of other scenes: they do not raise the count")
    func emptyPhotosAreNotCounted() throws {
        let a = [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0], b = [0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5]
        let empty = [Double](repeating: 0, count: 8)
        #expect(CorrectionModel.effectiveCount([a, empty, empty, empty]) == 1)
        #expect(abs(CorrectionModel.effectiveCount([a, b, empty]) - 2) < 1e-12)
        #expect(abs(CorrectionModel.effectiveCount([a, b, b], [a, empty, b]) - 2) < 1e-12, "empty in one of them")
        #expect(CorrectionModel.effectiveCount([empty, empty]) == 1)
        let model = try CorrectionModel.bundled()
        let capOn = model.evidence(small: [SIMD3<Float>](repeating: .zero, count: 30_000))
        let shoot = [model.evidence(small: Self.scene(0))] + Array(repeating: capOn, count: 7)
        #expect(abs(model.independentUnderVeil(shoot) - 1) < 1e-9, "seven frames with the lens cap on and one scene")
    }

    @Test("light subjects are no veil: a shoot's blacks must sit together above the lowest, as a veil leaves them")
    func lightSubjectsAreNoVeil() {
        let haze = [0.100, 0.101, 0.103, 0.105, 0.110, 0.100, 0.102, 0.120]
        #expect(ShootEstimate.commonVeil(blacks: haze, independent: 6) > 0.09)
        // Marble, paper, ice, a pale sky and wood as one shoot (the blacks kinds-eval.py's textures measure).
        let light = [0.13, 0.18, 0.20, 0.27, 0.30, 0.31, 0.61, 0.68]
        #expect(ShootEstimate.commonVeil(blacks: light, independent: 5.45) == 0)
        var oneBright = haze
        oneBright[3] = 0.6
        #expect(ShootEstimate.commonVeil(blacks: oneBright, independent: 6) > 0.09, "one light photo in a hazy shoot")
    }

    @Test("the joint count: photos count as one only where both their colours and their tones agree")
    func jointCount() {
        let a = [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0], b = [0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5]
        #expect(abs(CorrectionModel.effectiveCount([a, a], [a, b]) - 2) < 1e-12, "one palette, two tonal layouts")
        #expect(abs(CorrectionModel.effectiveCount([a, b], [a, a]) - 2) < 1e-12, "two palettes, one layout")
        #expect(abs(CorrectionModel.effectiveCount([a, a], [a, a]) - 1) < 1e-12, "copies")
        let mixed = [a, b, a, b]
        #expect(abs(CorrectionModel.effectiveCount(mixed, Array(repeating: a, count: 4))
                    - CorrectionModel.effectiveCount(mixed)) < 1e-12, "tones alike: the colours' count")
    }

    @Test("a shoot's exposure goes by its significance, and only for two or more independent scenes")
    func exposureBySignificance() throws {
        let ramp = ShootEstimate.exposureSignificance
        #expect(CorrectionModel.significance(ramp[0] - 0.1, ramp) == 0)
        #expect(abs(CorrectionModel.significance((ramp[0] + ramp[1]) / 2, ramp) - 0.5) < 1e-12)
        #expect(CorrectionModel.significance(ramp[1] + 0.1, ramp) == 1)
        let model = try CorrectionModel.bundled()
        // The synthetic scenes twice as bright are what the model reads as exposed right (about +0.06 EV).
        let clear = model.shoot((0..<8).map { model.evidence(small: Self.scene($0).map { $0 * 2 }) })
        #expect(clear.independentPhotos >= 2 && abs(clear.exposure) < 0.2, "\(clear)")
        #expect(clear.exposureAmount == 0, "an exposure within its spread is left alone: \(clear)")
        // The same eight scenes, all 1.5 stops under.
        let dark = (0..<8).map { k in model.evidence(small: Self.scene(k).map { $0 * 2 * 0.35 }) }
        let shoot = model.shoot(dark)
        #expect(shoot.independentPhotos >= 2, "\(shoot.independentPhotos)")
        #expect(shoot.exposure > 0.5 && shoot.exposureAmount == 1, "\(shoot)")
        #expect(dark.allSatisfy { shoot.estimate(for: $0).stops == shoot.exposure })
        let copies = model.shoot(Array(repeating: dark[0], count: 8))
        #expect(copies.independentPhotos < 2 && copies.exposureAmount == 0, "one scene's copies: \(copies)")
    }

    @Test("the binomial tail")
    func binomialTail() {
        #expect(ShootEstimate.binomialTail(0, of: 8, chance: 0.1) == 1)
        #expect(abs(ShootEstimate.binomialTail(1, of: 8, chance: 0.1) - (1 - pow(0.9, 8))) < 1e-12)
        let two = 1 - pow(0.9, 8) - 8 * 0.1 * pow(0.9, 7)
        #expect(abs(ShootEstimate.binomialTail(2, of: 8, chance: 0.1) - two) < 1e-12)
        #expect(ShootEstimate.binomialTail(9, of: 8, chance: 0.1) == 0)
    }
}
