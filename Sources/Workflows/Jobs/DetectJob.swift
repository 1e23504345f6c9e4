import ColorManagement
import Correction
import ImageIO
import LookModel
import Rendering
import Scenes

/// `detect`: a photo's scene, faces, statistics and the automatic correction `correct` would plan for it.
public struct DetectJob: Sendable {
    /// What a detection found.
    public struct Detected: Sendable {
        /// The scene, its confidence, the rule that decided and the statistics it read.
        public var detection: SceneDetection
        /// The faces found.
        public var faces: [FaceRegion]
        /// The automatic correction planned for the photo.
        public var plan: AutoCorrection
        /// A colour profile the engine cannot use, and a face detector that failed.
        public var warnings: [String]

        /// The `detect --json` object.
        public var report: DetectionReport { DetectionReport(detection, faces: faces, correction: plan) }
    }

    /// The photo.
    public let image: String
    /// Photos with more pixels are refused.
    public let maxPixels: Int

    /// A detection of `image`.
    public init(image: String, maxPixels: Int = PNGReader.defaultMaxPixels) {
        self.image = image
        self.maxPixels = maxPixels
    }

    /// Analyses the photo; with `overlay`, also writes it at full size with the face boxes and the scene drawn on.
    public func run(overlay: String? = nil) throws -> Detected {
        if let overlay { try OutputSafety.check(inputs: [image], output: overlay) }
        var warnings: [String] = []
        // The colour check `info` and `apply` make: a profile LittleCMS rejects is an error here too.
        if let warning = try ImageColor.checkProfile(path: image, maxPixels: maxPixels) { warnings.append(warning) }
        let analysis = try SceneAnalysis(path: image, maxPixels: maxPixels)
        if let failure = analysis.faceDetectionFailure { warnings.append("\(image): \(failure)") }
        let detection = SceneDetector.detect(analysis)
        let plan = try AutoCorrection.plan(CorrectionAnalysis(analysis))
        if let overlay {
            let full = try ImageFormat.read(path: image, maxPixels: maxPixels).pixels
            let label = "\(detection.label.rawValue) \(detection.label.name)  "
                + (analysis.faces.count == 1 ? "1 face" : "\(analysis.faces.count) faces")
            try ImageFormat.write(try FaceOverlay.draw(on: full, faces: analysis.faces, label: label), to: overlay)
        }
        return Detected(detection: detection, faces: analysis.faces, plan: plan, warnings: warnings)
    }
}
