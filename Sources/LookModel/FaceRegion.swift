/// A face found in an image: its box in the source image's pixels (top-left origin) and the detector's score.
///
/// This is the contract between face detection (which fills `SceneAnalysis.faces`) and its readers: the scene
/// rules and the automatic correction, which weighs exposure and protects skin inside these boxes.
public struct FaceRegion: Sendable, Equatable, Codable {
    /// Left edge, in source pixels.
    public var x: Int
    /// Top edge, in source pixels.
    public var y: Int
    /// Width, in source pixels.
    public var width: Int
    /// Height, in source pixels.
    public var height: Int
    /// The detector's confidence score (dlib's SVM margin; higher is surer). `SceneAnalysis.faces` holds only
    /// scores ≥ `FaceDetector.scoreThreshold` (0.5, docs/SCENES.md).
    public var score: Double

    /// A face box in source pixels.
    public init(x: Int, y: Int, width: Int, height: Int, score: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.score = score
    }
}
