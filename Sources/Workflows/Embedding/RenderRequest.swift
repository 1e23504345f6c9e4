import ColorManagement
import Foundation
import LookCore

/// One parameter set of the embedding API, as a value: what `apply --look` (without an analysis) or `correct` (with
/// one) would be asked for one image.
public struct RenderRequest: Sendable, Hashable {
    /// The creative look: a catalog look, the detected scene's default, or none.
    public var look: LookChoice = .sceneDefaults
    /// Look strength (nil: 100, or the scene's default for its look), contrast and saturation trims.
    public var trims = LookTrims()
    /// Overall strength in percent, 0…100.
    public var strength = 100.0
    /// The automatic correction: on, off or the scene's preset, and each stage's percentage.
    public var auto = AutoChoice()
    /// The output's space (nil: the input's own).
    public var output: ColorProfile.Named?
    /// Out-of-gamut handling.
    public var intent = RenderingIntent.relativeColorimetric
    /// Cube interpolation.
    public var interpolation = Interpolation.tetrahedral
    /// A recipe file composed as the pre-look adjustments (`correct --recipe`), nil for none.
    public var recipe: String?

    /// The defaults: the scene's look, every strength at 100, output in the input's space.
    public init() {}

    /// The colour settings of a run (the working space is the look's, set by the plan).
    var colorSettings: ColorSettings {
        var settings = ColorSettings()
        settings.output = output.map { .profile(ColorProfile($0)) } ?? .input
        settings.intent = intent
        return settings
    }
}

/// An image analysed once by the engine (`EngineSession.detect`), reusable for any number of renders. `id` tells
/// the prepared-cube cache one analysis from another: a random 128-bit value, never reused as an address could be.
public struct EngineAnalysis: Sendable {
    /// This analysis's identity in the engine's caches.
    public let id = UUID()
    /// The scene, faces, correction plan and the analysis itself.
    public let detected: DetectJob.Detected

    /// Wraps a detection.
    public init(_ detected: DetectJob.Detected) { self.detected = detected }
}
