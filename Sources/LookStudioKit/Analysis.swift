import Foundation
import LookModel
import Workflows

/// An image analysed once: its scene, the detection's confidence, the faces found and the automatic correction's
/// measurements and plan. Pass it to any number of applies (detect once, apply many); a value, usable from any
/// thread.
public struct Analysis: Sendable {
    /// The scene label (1 general, 8 product, 9 people, 60 low light, 91 underwater, 100 monochrome, …).
    public var scene: Int { analysis.detected.detection.label.rawValue }
    /// The scene's name.
    public var sceneName: String { analysis.detected.detection.label.name }
    /// The detection's confidence, 0…1; a scene's default look is applied from 0.75 on.
    public var confidence: Double { analysis.detected.detection.confidence }
    /// The faces found, best first, in the image's pixels.
    public var faces: [Face] { analysis.detected.faces.map(Face.init) }
    /// What the engine could not use (a partly ignored colour description, a face detector that failed).
    public var warnings: [String] { analysis.detected.warnings }
    /// The `lookstudio detect --json` object: scene, statistics, faces and the correction plan.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The statistics are finite by construction; were one not, the object would be empty rather than a trap.
        let data = (try? encoder.encode(analysis.detected.report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The engine's analysis.
    let analysis: EngineAnalysis
}

/// A face box in an image's pixels (it may reach past the edges) and the detector's score.
public struct Face: Sendable, Equatable {
    /// The box's left and top edges, in the image's pixels.
    public var x: Int, y: Int
    /// The box's size in pixels.
    public var width: Int, height: Int
    /// dlib's detection score (faces below 0.5 are not reported).
    public var score: Double
}

extension Face {
    init(_ region: FaceRegion) {
        self.init(x: region.x, y: region.y, width: region.width, height: region.height, score: region.score)
    }
}
