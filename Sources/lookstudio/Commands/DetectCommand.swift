import ArgumentParser
import ImageIO
import LookEngine

/// `lookstudio detect`: the scene a photo looks like, with the statistics the heuristic used.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Guess an image's scene (black & white, underwater, white background, low light, people, landscape).",
        discussion: """
        A documented heuristic over statistics of a copy shrunk to at most 2048 pixels on the long side (a PNG \
        streams into it, never held whole); the rules and thresholds are in docs/SCENES.md.

        JSON (--json): {"label": 100, "name": "Black & White", "confidence": 0.97, "reason": "…", \
        "statistics": {"mean_luma": …, …}, "correction": {…}}; correction is the automatic correction's plan with \
        every strength at 100 (the linear-light statistics it uses and what it would choose; keys as in \
        correct --json's "auto", docs/CORRECTION.md)

        Example:
          lookstudio detect photo.jpg --json
        """
    )

    @Flag(help: "Print one JSON object (documented above) instead of text.")
    var json = false

    @Argument(help: ArgumentHelp("Image to analyse (PNG or JPEG).", valueName: "image"))
    var image: String

    func run() throws {
        let analysis = try SceneAnalysis(path: image)
        let detection = SceneDetector.detect(analysis)
        let plan = AutoCorrection.plan(CorrectionAnalysis(analysis))
        if json {
            print(try jsonString(DetectionJSON(detection, correction: plan)))
        } else {
            let s = detection.statistics
            print("scene: \(detection.label.rawValue) \(detection.label.name)")
            print(String(format: "confidence: %.2f", detection.confidence))
            print("because: \(detection.reason)")
            print("analysed: \(s.analysedWidth)×\(s.analysedHeight) of \(s.sourceWidth)×\(s.sourceHeight)")
            print(String(format: "luma mean %.3f median %.3f p05 %.3f p95 %.3f; chroma mean %.3f p99 %.3f",
                         s.meanLuma, s.medianLuma, s.lumaP05, s.lumaP95, s.meanChroma, s.chromaP99))
            print(String(format: "fractions: grey %.3f near-white %.3f (border %.3f) dark %.3f skin %.3f "
                         + "blue-green %.3f", s.greyFraction, s.nearWhiteFraction, s.borderNearWhiteFraction,
                         s.darkFraction, s.skinFraction, s.blueGreenFraction))
            for line in plan.explanation { print(line) }
        }
    }
}

/// The `detect --json` shape.
struct DetectionJSON: Encodable {
    var label: Int
    var name: String
    var confidence: Double
    var reason: String
    var statistics: SceneStatistics
    var correction: AutoCorrection

    init(_ d: SceneDetection, correction: AutoCorrection) {
        self.correction = correction
        label = d.label.rawValue
        name = d.label.name
        confidence = (d.confidence * 1000).rounded() / 1000
        reason = d.reason
        statistics = d.statistics
    }
}
