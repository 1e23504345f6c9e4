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
        /// The analysis everything above was read from, kept to plan a correction later (detect once, apply many).
        public var analysis: SceneAnalysis

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
        let detected = try Self.detected(try SceneAnalysis(path: image, maxPixels: maxPixels), file: image,
                                         warnings: warnings)
        if let overlay {
            let full = try ImageFormat.read(path: image, maxPixels: maxPixels).pixels
            let (label, faces) = (detected.detection.label, detected.faces)
            let text = "\(label.rawValue) \(label.name)  " + (faces.count == 1 ? "1 face" : "\(faces.count) faces")
            try ImageFormat.write(try FaceOverlay.draw(on: full, faces: faces, label: text), to: overlay)
        }
        return detected
    }

    /// Analyses pixels in memory (the embedding API's detect): for the same decoded pixels, what a PNG or TIFF file
    /// gets (a JPEG file is analysed through a DCT-reduced decode: `SceneAnalysis.init(rows:)`). `color` is the
    /// pixels' description; a profile the engine cannot use is an error, as for a file.
    public static func run(rows: PixelRows, color: ColorDescription) throws -> Detected {
        let warning = try ImageColor.profile(for: color, file: "image").1
        return try detected(try SceneAnalysis(rows: rows, color: color), file: "image",
                            warnings: warning.map { [$0] } ?? [])
    }

    /// The scene, faces and correction plan of an analysis.
    private static func detected(_ analysis: SceneAnalysis, file: String, warnings: [String]) throws -> Detected {
        let failure = analysis.faceDetectionFailure.map { ["\(file): \($0)"] } ?? []
        return Detected(detection: SceneDetector.detect(analysis), faces: analysis.faces,
                        plan: try AutoCorrection.plan(CorrectionAnalysis(analysis)), warnings: warnings + failure,
                        analysis: analysis)
    }
}
