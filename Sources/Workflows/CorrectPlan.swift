import ColorManagement
import Correction
import LookCore
import LookModel
import Scenes

/// What `correct` decides for one image from its analysis — the scene, the creative look, the scene's defaults and
/// the automatic correction — made once, then rendered at every strength. `CorrectJob` (files) and the embedding
/// API (pixels in memory) both make it here, so one analysis gives both the same cube.
public struct CorrectPlan: Sendable {
    /// The scene: the run's fixed one, else the detected one (nil when there was no analysis).
    public let scene: SceneLabel?
    /// The detection's confidence (nil: the scene was given, or not analysed).
    public let confidence: Double?
    /// The creative look, if any.
    public let look: ChosenLook?
    /// Why a scene's default look was left out.
    public let withheld: String?
    /// Why the scene's correction preset was held back to its restraints.
    public let presetHeldBack: String?
    /// The run's overrides of the scene defaults, with this image's automatic correction.
    public let overrides: CorrectionOverrides
    /// The scene's defaults under the overrides.
    let defaults: SceneDefaults

    /// The plan for an image: `scene` fixed (nil: detected from `analysis`), its look from `looks`, the run's
    /// `params`, and the automatic correction `auto` chooses for the scene's preset, planned from `analysis`, with
    /// the white balance from a `neutral` reference the user gave or the `shoot`'s pooled estimate when there is one.
    public init(analysis: SceneAnalysis?, scene: SceneLabel?, looks: LookPlan, params: CorrectionOverrides,
                auto: AutoChoice, neutral: NeutralReference? = nil,
                shoot: (estimate: ShootPlan, photo: ShootPhoto)? = nil) throws {
        var label = scene
        var confidence: Double?
        if scene == nil, let analysis {
            let detection = SceneDetector.detect(analysis)
            label = detection.label
            confidence = detection.confidence
        }
        let (look, defaults, withheld) = looks.look(for: label, confidence: confidence)
        var overrides = params
        overrides.lutOutputGuid = looks.explicit?.guid
        let (preset, heldBack) = looks.preset(for: label, confidence: confidence)
        // A neutral reference is applied even with the automatic correction off: then it is the only stage.
        let off = CorrectionPreset(exposure: 0, levels: 0, whiteBalance: 0, contrast: 0, vibrance: 0)
        if let analysis, let settings = auto.settings(preset: preset) ?? (neutral == nil ? nil : off) {
            overrides.auto = try AutoCorrection.plan(CorrectionAnalysis(analysis), settings: settings,
                                                     neutral: neutral, shoot: shoot)
        }
        self.scene = label
        self.confidence = confidence
        self.look = look
        self.withheld = withheld
        self.presetHeldBack = heldBack
        self.overrides = overrides
        self.defaults = defaults
    }

    /// The correction at overall `strength` (percent).
    public func correction(strength: Double) -> CorrectionParams {
        var overrides = self.overrides
        overrides.strength = strength
        return CorrectionParams(scene: scene, defaults: defaults, overrides: overrides)
    }

    /// Every stage at overall `strength` composed into one cube, in the look's working space.
    public func cube(strength: Double) throws -> ColorCube {
        try Corrector.cube(for: correction(strength: strength), look: look?.cube)
    }

    /// `settings` with the look's working space (unchanged without a look).
    public func color(_ settings: ColorSettings) -> ColorSettings {
        var color = settings
        color.workingSpace = look?.workingSpace ?? settings.workingSpace
        return color
    }
}
