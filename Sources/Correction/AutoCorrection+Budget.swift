import LookCore

/// The default's budget for what the model cannot vouch for.
///
/// The cast and the exposure are applied as far as a calibrated confidence warrants; the veil has no confidence: a
/// black point above good photos' blacks is removed whole, and contrast and vibrance follow it. A black point
/// cannot tell an added veil from bright content (ice, marble, paper, snow, a light wood), so on such a photo the
/// veil stage alone would make a large, visible change. Up to 100 % the veil, its contrast and its vibrance
/// together may move the photo by at most `unvouchedBudget`; above 100 % the black goes on from there towards the
/// whole measured black, as the user asked.
extension AutoCorrection {
    /// Mean CIEDE2000 the veil and what follows it may add at strengths up to 100 %: about one just-noticeable
    /// difference, so the default never makes a visible change that only an unconfirmed veil supports.
    public static let unvouchedBudget = 1.0

    /// Halvings of the kept share when the whole veil does not fit (the share to within 1/256).
    static let budgetSteps = 8

    /// The plan `stage` makes, with the share of the veil it keeps limited so that, planned at the levels strength
    /// capped at 100 %, the veil and its followers move `samples` by at most `unvouchedBudget`; a `vouched` veil
    /// (one a shoot shares) is not counted, only its followers.
    func withinBudget(samples: [SIMD3<Float>], vouched: Bool = false,
                      _ stage: (_ base: AutoCorrection, _ keep: Double) -> AutoCorrection) -> AutoCorrection {
        let whole = stage(self, 1)
        var capped = self
        capped.settings.levels = min(settings.levels, 100)
        let probe = settings.levels <= 100 ? whole : stage(capped, 1)
        guard probe.levels.veilRemoved, probe.unvouchedMove(samples, vouched: vouched) > Self.unvouchedBudget
        else { return whole }
        var low = 0.0, high = 1.0
        for _ in 0..<Self.budgetSteps {
            let mid = (low + high) / 2
            if stage(capped, mid).unvouchedMove(samples, vouched: vouched) <= Self.unvouchedBudget {
                low = mid
            } else {
                high = mid
            }
        }
        return stage(self, low)
    }

    /// Mean CIEDE2000 between this plan and the same plan without its contrast, vibrance and (unless `vouched`)
    /// veil.
    func unvouchedMove(_ samples: [SIMD3<Float>], vouched keepsVeil: Bool = false) -> Double {
        guard !samples.isEmpty else { return 0 }
        var baseline = self
        if !keepsVeil { baseline.levels.black = 0 }
        baseline.contrast.amount = 0
        baseline.vibrance.amount = 0
        var sum = 0.0
        for s in samples {
            let c = SIMD3<Double>(s)
            sum += ColorScience.deltaE2000(Self.lab(linear: baseline.linearTransform(c)),
                                           Self.lab(linear: linearTransform(c)))
        }
        return sum / Double(samples.count)
    }

    /// Lab of the 8-bit code a linear colour is written as: the move is what the output file will show, rounding
    /// included (measured in floats it reads up to a few percent under the output's).
    private static func lab(linear c: SIMD3<Double>) -> SIMD3<Double> {
        func code(_ v: Double) -> Double {
            ColorScience.linear(fromSRGB: (ColorScience.srgb(fromLinear: min(1, max(0, v))) * 255).rounded() / 255)
        }
        return ColorScience.lab(fromXYZ: ColorScience.srgbToXYZ.apply(SIMD3(code(c.x), code(c.y), code(c.z))))
    }
}
