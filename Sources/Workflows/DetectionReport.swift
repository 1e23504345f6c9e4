import Correction
import LookModel
import Scenes

/// What `detect --json` prints for one photo: its scene, faces, statistics and correction plan.
public struct DetectionReport: Encodable, Sendable {
    /// The scene label number.
    public var label: Int
    /// The scene's name.
    public var name: String
    /// Detection confidence 0…1, to three decimals.
    public var confidence: Double
    /// The rule that decided.
    public var reason: String
    /// Faces found, scores to three decimals.
    public var faces: [FaceRegion]
    /// The statistics the rules read.
    public var statistics: SceneStatistics
    /// The automatic correction planned for the photo.
    public var correction: AutoCorrection

    /// The report of detection `d` with its faces and correction plan, figures rounded as printed.
    public init(_ d: SceneDetection, faces: [FaceRegion], correction: AutoCorrection) {
        self.correction = correction
        label = d.label.rawValue
        name = d.label.name
        confidence = (d.confidence * 1000).rounded() / 1000
        reason = d.reason
        self.faces = faces.map {
            var f = $0
            f.score = (f.score * 1000).rounded() / 1000
            return f
        }
        statistics = d.statistics
    }
}
