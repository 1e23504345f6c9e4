import ArgumentParser
import ImageIO
import LookModel
import Workflows

/// `lookstudio detect`: the scene a photo looks like, the faces in it, and the statistics the heuristic used.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Guess an image's scene (black & white, underwater, white background, low light, people, group, "
            + "landscape) and find its faces.",
        discussion: """
        A documented heuristic over statistics of a copy shrunk to at most 2048 pixels on the long side (a PNG \
        streams into it, never held whole), plus dlib's frontal face detector run on a 1600-pixel copy; the rules, \
        thresholds and what the detector misses are in docs/SCENES.md.

        JSON (--json): {"label": 1, "name": "Auto — People", "confidence": 0.97, "reason": "…", \
        "faces": [{"x": 176, "y": 77, "width": 92, "height": 92, "score": 1.24}], \
        "statistics": {"mean_luma": …, "face_mean_luma": …, …}, "correction": {…}}. Face boxes are in the \
        input's pixels, top-left origin; score is dlib's SVM margin (faces below 0.5 are not reported). \
        correction is the automatic correction's plan with every strength at 100 (the linear-light statistics it \
        uses and what it would choose; keys as in correct --json's "auto", docs/CORRECTION.md).

        --overlay writes the input at its full size as a PNG with each face boxed (its score above it) and the scene \
        written top-left, for a person to check what was seen.

        Examples:
          lookstudio detect photo.jpg --json
          lookstudio detect photo.jpg --overlay photo-faces.png
        """
    )

    @Flag(help: "Print one JSON object (documented above) instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Also write the image at full size with face boxes and the scene drawn on it (PNG).",
                               valueName: "out.png"))
    var overlay: String?

    @Argument(help: ArgumentHelp("Image to analyse (PNG or JPEG).", valueName: "image"))
    var image: String

    @OptionGroup var limit: PixelLimitOptions

    func validate() throws {
        if let overlay, ImageFormat.fromExtension(overlay) != .png {
            throw ValidationError("--overlay \(overlay): the overlay is written as PNG; name it .png")
        }
    }

    func run() throws {
        let detected = try DetectJob(image: image, maxPixels: limit.maxPixels).run(overlay: overlay)
        for warning in detected.warnings { printError("warning: \(warning)") }
        let (detection, plan) = (detected.detection, detected.plan)
        if json {
            print(try jsonString(detected.report))
        } else {
            let s = detection.statistics
            print("scene: \(detection.label.rawValue) \(detection.label.name)")
            print(String(format: "confidence: %.2f", detection.confidence))
            print("because: \(detection.reason)")
            print("faces: \(detected.faces.count)")
            for f in detected.faces {
                print(String(format: "  %d×%d at (%d, %d), score %.2f", f.width, f.height, f.x, f.y, f.score))
            }
            print("analysed: \(s.analysedWidth)×\(s.analysedHeight) of \(s.sourceWidth)×\(s.sourceHeight)")
            print(String(format: "luma mean %.3f median %.3f p05 %.3f p95 %.3f; chroma mean %.3f p99 %.3f",
                         s.meanLuma, s.medianLuma, s.lumaP05, s.lumaP95, s.meanChroma, s.chromaP99))
            print(String(format: "fractions: grey %.3f near-white %.3f (border %.3f) dark %.3f skin %.3f "
                         + "blue-green %.3f", s.greyFraction, s.nearWhiteFraction, s.borderNearWhiteFraction,
                         s.darkFraction, s.skinFraction, s.blueGreenFraction))
            if !detected.faces.isEmpty {
                print(String(format: "faces: mean luma %.3f, mean RGB %.3f %.3f %.3f", s.faceMeanLuma,
                             s.faceMeanRed, s.faceMeanGreen, s.faceMeanBlue))
            }
            for line in plan.explanation { print(line) }
        }
    }
}
