import FaceDetection
import LookModel

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

/// A documented heuristic classifier over `SceneStatistics` and the faces found — not a trained scene model, and
/// honest about it.
///
/// Rules are tried in order and the first that holds wins; thresholds are below and in docs/SCENES.md. People come
/// from dlib's face detector, never from skin-coloured pixels (wood, fur and sand pass every skin-colour rule).
/// Scenes without a rule (Newborn, Animals, Food & Drinks, Flowers) are never detected: pick them with `--scene`.
/// Landscape is the default when nothing else fires.
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
        /// Low light without faces: median luma below this…
        public static let darkMedianLuma = 0.15
        /// …and mean luma below this (a few street lights may lift the mean, not the median). With faces only the
        /// mean is asked for: the faces' own light is the stronger evidence.
        public static let darkMeanLuma = 0.22
        /// Low light with faces: the faces' mean luma (encoded) below this: a 10.7 % reflector exposed so that 18 %
        /// grey sits at 0.46, or a light-skinned face (≈ 0.69 when well lit) two stops under.
        public static let darkFaceLuma = 0.36
        /// A face counts when its box is at least this fraction of the image's long side wide (≈ the smallest face
        /// the detector finds on its 1600-pixel copy; a group of three standing full length has faces ≈ 0.045).
        public static let minFaceFraction = 0.04
        /// Group portraits: at least this many faces that count.
        public static let groupFaces = 3
    }

    /// The confidence from which a detected scene's default (creative) look is applied without `--scene-looks`:
    /// on the scale above, 0.5 is a deciding value exactly at its rule's threshold and 1 a full margin past it, so
    /// 0.75 asks for the value to lie at least half a margin past the threshold. The fallback (0.3, no rule fired)
    /// is below it by design.
    public static let confidentLook = 0.75

    /// Classifies an analysed image, faces included.
    public static func detect(_ analysis: SceneAnalysis) -> SceneDetection {
        detect(analysis.statistics, faces: analysis.faces)
    }

    /// The faces that count for the rules: wide enough for the frame (scores were thresholded by the detector).
    public static func meaningfulFaces(_ faces: [FaceRegion], in s: SceneStatistics) -> [FaceRegion] {
        let longSide = Double(max(s.sourceWidth, s.sourceHeight))
        return faces.filter { Double($0.width) >= Threshold.minFaceFraction * longSide }
    }

    /// Classifies from statistics and faces (in the source pixels `s.sourceWidth × s.sourceHeight`).
    public static func detect(_ s: SceneStatistics, faces: [FaceRegion] = []) -> SceneDetection {
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
        let people = meaningfulFaces(faces, in: s)
        if people.isEmpty, s.medianLuma < T.darkMedianLuma, s.meanLuma < T.darkMeanLuma {
            let c = min(confidence(below: s.medianLuma, T.darkMedianLuma),
                        confidence(below: s.meanLuma, T.darkMeanLuma))
            return result(.peopleAtNight, c, "median luma \(f(s.medianLuma)) < \(T.darkMedianLuma) and mean luma "
                          + "\(f(s.meanLuma)) < \(T.darkMeanLuma)")
        }
        if !people.isEmpty, s.faceMeanLuma < T.darkFaceLuma, s.meanLuma < T.darkMeanLuma {
            let c = min(confidence(below: s.faceMeanLuma, T.darkFaceLuma),
                        confidence(below: s.meanLuma, T.darkMeanLuma))
            return result(.peopleAtNight, c, "\(faceCount(people.count)), face luma \(f(s.faceMeanLuma)) < "
                          + "\(T.darkFaceLuma) and mean luma \(f(s.meanLuma)) < \(T.darkMeanLuma)")
        }
        let sizes = "at least \(T.minFaceFraction) of the long side, score ≥ \(FaceDetector.scoreThreshold)"
        if people.count >= T.groupFaces {
            let c = confidence(above: people[T.groupFaces - 1].score, FaceDetector.scoreThreshold)
            return result(.groupPortraits, c, "\(faceCount(people.count)) ≥ \(T.groupFaces) (\(sizes))")
        }
        if let best = people.first {
            let c = confidence(above: best.score, FaceDetector.scoreThreshold)
            return result(.people, c, "\(faceCount(people.count)) (\(sizes))")
        }
        return result(.landscape, 0.3, "no rule fired (default)")
    }

    private static func faceCount(_ n: Int) -> String { n == 1 ? "1 face" : "\(n) faces" }

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
