@testable import Correction
import Foundation
import ImageIO
import LookCore
import LookModel
import Testing

/// The default's budget for the veil, which has no confidence: bright content must not be "dehazed" visibly.
@Suite("Correction budget")
struct CorrectionBudgetTests {
    /// A light, low-contrast surface (paper, marble, pale wood): every pixel's smallest channel is far above good
    /// photos' blacks, as a strong veil's would be. Smooth undulations, no colour cast, nothing clipped.
    static func brightSurface() -> [SIMD3<Double>] {
        var pixels = [SIMD3<Double>]()
        for y in 0..<Scenes.height {
            for x in 0..<Scenes.width {
                let u = Double(x) / 17, v = Double(y) / 11
                let grain = 0.5 + 0.25 * sin(u + 0.7 * sin(v)) + 0.25 * sin(0.6 * v + 0.4 * u)
                let base = 0.42 + 0.38 * grain
                pixels.append(SIMD3(base * 1.04, base, base * 0.9))
            }
        }
        return pixels
    }

    static let veilOnly = CorrectionPreset(exposure: 0, whiteBalance: 0)

    @Test("bright content whose black a veil could explain moves by at most the budget at 100 %")
    func brightContentStaysWithinTheBudget() throws {
        let image = Scenes.encode(Self.brightSurface())
        let analysis = Scenes.analysis(image)
        let plan = try AutoCorrection.plan(analysis, settings: Self.veilOnly)
        #expect(plan.levels.veil > 0.1, "the model takes most of this black for a veil: \(plan.levels)")
        #expect(plan.levels.kept > 0 && plan.levels.kept < 1, "\(plan.levels)")
        #expect(plan.unvouchedMove(analysis.scattered) <= AutoCorrection.unvouchedBudget + 1e-9)
        let out = try Scenes.apply(try plan.cube(), to: image)
        let moved = Scenes.meanDeltaE(image, out)
        #expect(moved <= AutoCorrection.unvouchedBudget * 1.1, "moved \(moved) ΔE00")
        #expect(plan.explanation.contains { $0.contains("kept at") }, "\(plan.explanation)")

        var whole = plan
        whole.levels.black = whole.levels.veil
        #expect(whole.unvouchedMove(analysis.samples) > 2 * AutoCorrection.unvouchedBudget,
                "the whole veil would have moved it visibly")
    }

    @Test("a fine weave whose dark threads fall between the sample grid's rows and columns still moves within the budget")
    func aPatternInStepWithTheGridStaysWithinTheBudget() throws {
        // 600 × 400 pixels are more than the grid keeps, so it takes every second row and column: only the light
        // crossings of this weave, never its darker threads, on which removing a black shows most.
        let width = 600, height = 400
        var pixels = [SIMD3<Double>]()
        for y in 0..<height {
            for x in 0..<width {
                let base = 0.5 + 0.1 * sin(Double(x) / 23) * sin(Double(y) / 19)
                let level = x % 2 == 0 && y % 2 == 0 ? base : 0.55 * base
                pixels.append(SIMD3(level * 1.03, level, level * 0.94))
            }
        }
        let image = Scenes.encode(pixels, width: width, height: height)
        let analysis = Scenes.analysis(image)
        #expect(analysis.gridWidth == width / 2, "the grid takes every second column")
        let plan = try AutoCorrection.plan(analysis, settings: Self.veilOnly)
        #expect(plan.levels.kept > 0 && plan.levels.kept < 1, "\(plan.levels)")
        let moved = Scenes.meanDeltaE(image, try Scenes.apply(try plan.cube(), to: image))
        #expect(moved <= AutoCorrection.unvouchedBudget * 1.03, "moved \(moved) ΔE00")
        #expect(plan.unvouchedMove(analysis.samples) < 0.9 * moved, "the grid alone under-counts the move")
    }

    @Test("above 100 % the black goes on from the kept share towards the whole measured black, without a jump")
    func strengthsAboveHundredStartFromTheKeptShare() throws {
        let analysis = Scenes.analysis(Scenes.encode(Self.brightSurface()))
        func plan(_ levels: Double) throws -> AutoCorrection {
            var settings = Self.veilOnly
            settings.levels = levels
            return try AutoCorrection.plan(analysis, settings: settings)
        }
        let hundred = try plan(100), hundredAndOne = try plan(101), oneFifty = try plan(150), whole = try plan(200)
        #expect(abs(hundredAndOne.levels.black - hundred.levels.black) < 0.01 * hundred.levels.measuredBlack,
                "\(hundred.levels.black) → \(hundredAndOne.levels.black)")
        let halfway = (hundred.levels.black + hundred.levels.measuredBlack) / 2
        #expect(abs(oneFifty.levels.black - halfway) < 1e-9, "\(oneFifty.levels)")
        #expect(whole.levels.black == whole.levels.measuredBlack, "\(whole.levels)")
    }

    @Test("a photo whose veil fits the budget keeps all of it, and the budget never adds a black point")
    func aSmallVeilIsRemovedWhole() throws {
        let image = Scenes.encode(Scenes.stillLife())
        let plan = try AutoCorrection.plan(Scenes.analysis(image), settings: Self.veilOnly)
        #expect(plan.levels.kept == 1 && plan.levels.black == 0, "\(plan.levels)")

        var small = AutoCorrection(settings: Self.veilOnly)
        small.levels.veil = 0.004
        small.levels.black = 0.004
        let samples = Scenes.decode(image).map { SIMD3<Float>($0) }
        #expect(small.unvouchedMove(samples) < AutoCorrection.unvouchedBudget)
    }

    @Test("a veil the shoot's photos share is removed whole (the photos vouch for it); its followers keep the budget")
    func aSharedVeilIsNotBudgeted() throws {
        let analysis = Scenes.analysis(Scenes.encode(Self.brightSurface()))
        let photo = try AutoCorrection.shootPhoto(analysis)
        let alone = try AutoCorrection.plan(analysis, settings: Self.veilOnly)
        var shoot = try AutoCorrection.shootEstimate([photo, photo])
        #expect(shoot.veil == 0, "copies of one photo share nothing the photo alone does not show")
        #expect(try AutoCorrection.plan(analysis, settings: Self.veilOnly, shoot: (shoot, photo)).levels == alone.levels)
        shoot.veil = alone.levels.veil
        let shared = try AutoCorrection.plan(analysis, settings: Self.veilOnly, shoot: (shoot, photo))
        var bare = Self.veilOnly
        (bare.contrast, bare.vibrance) = (0, 0)
        let veilAlone = try AutoCorrection.plan(analysis, settings: bare, shoot: (shoot, photo))
        #expect(veilAlone.levels.kept == 1 && shared.levels.veil == shoot.veil, "\(veilAlone.levels)")
        #expect(shared.levels.black == veilAlone.levels.black, "the veil whole, whatever its followers keep")
        #expect(shared.levels.black > alone.levels.black, "\(alone.levels.black) → \(shared.levels.black)")
        #expect(shared.unvouchedMove(analysis.samples) > AutoCorrection.unvouchedBudget, "beyond one photo's budget")
        // A flat surface stays flat once its veil is gone: contrast and vibrance move it by at most the budget.
        #expect(shared.unvouchedMove(analysis.scattered, vouched: true) <= AutoCorrection.unvouchedBudget + 1e-9)
        #expect(shared.contrast.amount > 0 || shared.vibrance.amount > 0, "the followers are planned: \(shared)")
        // The explanation says what was held back, and blames no veil the shoot vouches for.
        #expect(alone.explanation.contains { $0.contains("the move a veil without confidence may make") })
        #expect(shared.levels.kept < 1 && shared.explanation.contains {
            $0.contains("its contrast and vibrance kept at") && $0.contains("the move contrast and vibrance may make")
        }, "\(shared.explanation)")
    }

    @Test("a shared veil's airlight colours each channel's black, never past the channel's own darkest 0.5 %")
    func aSharedVeilTakesItsAirlightsColour() throws {
        // Still life under a warm light (gains 1.3, 1, 0.6) and a veil of 0.1 of that light.
        let warm = SIMD3<Double>(1.3, 1, 0.6)
        let analysis = Scenes.analysis(Scenes.encode(Scenes.stillLife().map { ($0 * 0.9 + 0.1) * warm }))
        let photo = try AutoCorrection.shootPhoto(analysis)
        var shoot = try AutoCorrection.shootEstimate([photo, photo])
        shoot.veil = 0.06
        shoot.airlight = warm / warm.min()
        let plan = try AutoCorrection.plan(analysis, settings: Self.veilOnly, shoot: (shoot, photo))
        let air = plan.levels.airlight
        #expect(air.x > air.y && air.y > air.z && air.z == 1, "\(plan.levels)")
        // The veiled black (the backdrop's darkest end) comes out neutral; removed as grey it stays warm.
        let black = (0.9 * 0.005 + 0.1) * warm
        let encoded = SIMD3<Float>(SIMD3(ColorScience.srgb(fromLinear: black.x), ColorScience.srgb(fromLinear: black.y),
                                         ColorScience.srgb(fromLinear: black.z)))
        var grey = plan
        grey.levels.airlight = SIMD3(1, 1, 1)
        let tinted = plan.apply(encoded), untinted = grey.apply(encoded)
        #expect(tinted.max() - tinted.min() < 0.5 * (untinted.max() - untinted.min()), "\(tinted) \(untinted)")

        // An airlight far redder than the photo's reds: red loses only what its darkest 0.5 % hold.
        shoot.airlight = SIMD3(6, 1, 1)
        let capped = try AutoCorrection.plan(analysis, settings: Self.veilOnly, shoot: (shoot, photo))
        let reds = analysis.samples.map { Double($0.x) }.sorted()
        let redBlack = reds[Int(0.005 * Double(reds.count - 1)) + 1]
        #expect(capped.levels.airlight.x < 6 && capped.levels.black * capped.levels.airlight.x <= redBlack,
                "\(capped.levels), red p0.5 ≤ \(redBlack)")
    }
}
