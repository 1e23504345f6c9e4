/// The outcome of scene detection: a catalogue scene, how sure the heuristic is, and the numbers it used.
public struct SceneDetection: Sendable, Equatable {
    /// The scene chosen.
    public var label: SceneLabel
    /// 0…1: 0.5 at a rule's threshold, rising to 1 at twice the margin; a fallback's confidence is low by design.
    public var confidence: Double
    /// Which rule fired, with the numbers compared (for people reading `detect` output).
    public var reason: String
    /// The statistics the rules read.
    public var statistics: SceneStatistics
}

/// A documented heuristic classifier over `SceneStatistics` — not a trained model, and honest about it.
///
/// Rules are tried in order and the first that holds wins; thresholds are below and in docs/SCENES.md. Scenes
/// without a rule (Newborn, Group Portraits, Animals, Food & Drinks, Flowers) are never detected: pick them with
/// `--scene`. Landscape is the default when nothing else fires.
public enum SceneDetector {
    /// Every threshold, in one place (fractions of full scale or of the pixel count).
    public enum Threshold {
        /// Black & white: the 99th percentile of chroma at most this (JPEG noise in a grey image stays below it)…
        public static let monoChromaP99 = 0.06
        /// …and the mean chroma at most this.
        public static let monoMeanChroma = 0.02
        /// Underwater: at least this share of pixels with green and blue both above red by 0.08…
        public static let underwaterBlueGreenFraction = 0.5
        /// …and mean of green and blue above mean red by at least this.
        public static let underwaterCast = 0.12
        /// White background: at least this share of the outer frame near-white…
        public static let whiteBorderFraction = 0.6
        /// …and at least this share of the whole image near-white.
        public static let whiteFraction = 0.3
        /// Low light: median luma below this…
        public static let darkMedianLuma = 0.15
        /// …and mean luma below this (a few street lights may lift the mean, not the median).
        public static let darkMeanLuma = 0.22
        /// People: at least this share of pixels pass the skin rules…
        public static let skinFraction = 0.10
        /// …but no more than this (a frame almost all skin-coloured is fur, sand or wood far more often)…
        public static let skinFractionMax = 0.60
        /// …and chroma p99 below this (portraits rarely hold vivid colours; food and flowers do).
        public static let skinChromaP99Max = 0.65
    }

    /// Classifies an analysed image.
    public static func detect(_ analysis: SceneAnalysis) -> SceneDetection {
        detect(analysis.statistics)
    }

    /// Classifies from statistics alone.
    public static func detect(_ s: SceneStatistics) -> SceneDetection {
        typealias T = Threshold
        func result(_ label: SceneLabel, _ confidence: Double, _ reason: String) -> SceneDetection {
            SceneDetection(label: label, confidence: confidence, reason: reason, statistics: s)
        }
        if s.chromaP99 <= T.monoChromaP99, s.meanChroma <= T.monoMeanChroma {
            let c = confidence(below: s.chromaP99, T.monoChromaP99)
            return result(.blackAndWhite, c, "chroma p99 \(f(s.chromaP99)) ≤ \(T.monoChromaP99) and mean chroma "
                          + "\(f(s.meanChroma)) ≤ \(T.monoMeanChroma)")
        }
        let cast = (s.meanGreen + s.meanBlue) / 2 - s.meanRed
        if s.blueGreenFraction >= T.underwaterBlueGreenFraction, cast >= T.underwaterCast {
            let c = min(confidence(above: s.blueGreenFraction, T.underwaterBlueGreenFraction),
                        confidence(above: cast, T.underwaterCast))
            return result(.underwater, c, "blue-green pixels \(f(s.blueGreenFraction)) ≥ "
                          + "\(T.underwaterBlueGreenFraction) and cast \(f(cast)) ≥ \(T.underwaterCast)")
        }
        if s.borderNearWhiteFraction >= T.whiteBorderFraction, s.nearWhiteFraction >= T.whiteFraction {
            let c = min(confidence(above: s.borderNearWhiteFraction, T.whiteBorderFraction),
                        confidence(above: s.nearWhiteFraction, T.whiteFraction))
            return result(.whiteBackgrounds, c, "near-white border \(f(s.borderNearWhiteFraction)) ≥ "
                          + "\(T.whiteBorderFraction) and near-white \(f(s.nearWhiteFraction)) ≥ \(T.whiteFraction)")
        }
        if s.medianLuma < T.darkMedianLuma, s.meanLuma < T.darkMeanLuma {
            let c = min(confidence(below: s.medianLuma, T.darkMedianLuma),
                        confidence(below: s.meanLuma, T.darkMeanLuma))
            return result(.peopleAtNight, c, "median luma \(f(s.medianLuma)) < \(T.darkMedianLuma) and mean luma "
                          + "\(f(s.meanLuma)) < \(T.darkMeanLuma)")
        }
        if s.skinFraction >= T.skinFraction, s.skinFraction <= T.skinFractionMax, s.chromaP99 < T.skinChromaP99Max {
            return result(.people, confidence(above: s.skinFraction, T.skinFraction),
                          "skin-tone pixels \(f(s.skinFraction)) in \(T.skinFraction)…\(T.skinFractionMax) and "
                          + "chroma p99 \(f(s.chromaP99)) < \(T.skinChromaP99Max)")
        }
        return result(.landscape, 0.3, "no rule fired (default)")
    }

    /// 0.5 at the threshold, 1 when the value is at zero (the far side of a "below" rule).
    static func confidence(below value: Double, _ threshold: Double) -> Double {
        guard threshold > 0 else { return 1 }
        return min(1, max(0.5, 0.5 + 0.5 * (threshold - value) / threshold))
    }

    /// 0.5 at the threshold, 1 at twice the threshold (or at 1 for fractions whose threshold is above 0.5).
    static func confidence(above value: Double, _ threshold: Double) -> Double {
        let span = min(threshold, 1 - threshold)
        guard span > 0 else { return 1 }
        return min(1, max(0.5, 0.5 + 0.5 * (value - threshold) / span))
    }

    private static func f(_ x: Double) -> String {
        let r = (x * 1000).rounded() / 1000
        return "\(r)"
    }
}
