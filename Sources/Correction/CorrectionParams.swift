import LookCore
import LookModel

/// Everything that decides one correction: the pre-look adjustments, the creative look and its trims, strength.
///
/// Order of the stages (all pointwise, composed into one cube by `Corrector`):
/// automatic correction A → pre-look cube P → creative look L(P) → contrast trim → saturation trim → blend with P by look strength →
/// overall strength against identity. The look is always last, so its trims only ever act on its own output.
///
/// The pre-look stage is carried as a composed cube (`preLook`), not as a `Recipe`: composing a recipe needs the
/// plugins and the catalog, which the caller owns, and a run composes it once and reuses the cube for every image
/// and strength. The caller composes it with `Composer.compose` (the CLI quantises it to 16 bits, as `apply
/// --recipe` does, so both give the same pixels).
public struct CorrectionParams: Sendable, Equatable {
    /// Overall strength in percent, 0…100: the final cube is I + s·(C − I); 0 returns the input bit for bit.
    public var strength: Double = 100
    /// The automatic correction planned for this image (first stage), or nil for none.
    public var auto: AutoCorrection?
    /// The pre-look adjustments (a recipe composed to a cube), or nil for none.
    public var preLook: ColorCube?
    /// The scene the defaults came from (nil: none chosen).
    public var scene: SceneLabel?
    /// The creative look's catalog GUID, or nil for no look.
    public var lutOutputGuid: String?
    /// Look strength in percent, 0…200: blends the trimmed look output with its input P; above 100 exaggerates
    /// (clamped to 0…1), as a catalog scene's default strength and `apply --strength` may.
    public var lutOutputStrength: Double = 100
    /// Look contrast trim, −100…100: the look's output deviation from mid-grey (0.5) is scaled by 1 + c/100.
    public var lookContrast: Double = 0
    /// Look saturation trim, −100…100: the look's output chroma relative to its Rec. 709 luma is scaled by 1 + s/100.
    public var lookSaturation: Double = 0

    /// No adjustments, no look, full strength.
    public init() {}

    /// Defaults from a scene description, then each explicit override on top (explicit flags win).
    ///
    /// The scene's default strength belongs to its default look: an explicit look without an explicit strength is
    /// applied at 100, not at the strength the scene chose for a different look.
    public init(scene: SceneLabel?, defaults: SceneDefaults, overrides: CorrectionOverrides) {
        self.scene = scene
        if let guid = overrides.lutOutputGuid {
            lutOutputGuid = guid
            lutOutputStrength = overrides.lutOutputStrength ?? 100
        } else {
            lutOutputGuid = defaults.lutOutputGuid
            lutOutputStrength = overrides.lutOutputStrength ?? defaults.lutOutputStrength ?? 100
        }
        lookContrast = overrides.lookContrast ?? 0
        lookSaturation = overrides.lookSaturation ?? 0
        strength = overrides.strength ?? 100
        preLook = overrides.preLook
        auto = overrides.auto
    }

    /// Checks every range, naming the setting that is wrong.
    public func validate() throws(CorrectionError) {
        try Self.check("strength", strength, 0...100)
        try Self.check("look-strength", lutOutputStrength, 0...200)
        try Self.check("look-contrast", lookContrast, -100...100)
        try Self.check("look-saturation", lookSaturation, -100...100)
        try auto?.settings.validate()
    }

    private static func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(CorrectionError) {
        guard value.isFinite, range.contains(value) else {
            throw .outOfRange(name: name, value: value, range: range)
        }
    }
}

extension CorrectionPreset {
    /// Checks every strength is in 0…200, naming the setting that is wrong.
    public func validate() throws(CorrectionError) {
        if let (strength, value) = outOfRange {
            throw .outOfRange(name: strength.flag, value: value, range: Self.strengthRange)
        }
    }
}

/// What a scene description in the catalog contributes: its default look and look strength.
public struct SceneDefaults: Sendable, Equatable {
    /// The scene's default look GUID.
    public var lutOutputGuid: String?
    /// The scene's default look strength in percent.
    public var lutOutputStrength: Double?

    /// Defaults as stored in the catalog (nil: the scene sets nothing).
    public init(lutOutputGuid: String? = nil, lutOutputStrength: Double? = nil) {
        self.lutOutputGuid = lutOutputGuid
        self.lutOutputStrength = lutOutputStrength
    }
}

/// Values given explicitly (on the command line); each non-nil one wins over the scene's default.
public struct CorrectionOverrides: Sendable, Equatable {
    /// Overall strength in percent.
    public var strength: Double?
    /// The pre-look cube.
    public var preLook: ColorCube?
    /// The automatic correction plan.
    public var auto: AutoCorrection?
    /// Look GUID; when set, the scene's default look and its strength are both ignored.
    public var lutOutputGuid: String?
    /// Look strength in percent.
    public var lutOutputStrength: Double?
    /// Look contrast trim.
    public var lookContrast: Double?
    /// Look saturation trim.
    public var lookSaturation: Double?

    /// Nothing given.
    public init(strength: Double? = nil, preLook: ColorCube? = nil, lutOutputGuid: String? = nil,
                lutOutputStrength: Double? = nil, lookContrast: Double? = nil, lookSaturation: Double? = nil,
                auto: AutoCorrection? = nil) {
        self.strength = strength
        self.auto = auto
        self.preLook = preLook
        self.lutOutputGuid = lutOutputGuid
        self.lutOutputStrength = lutOutputStrength
        self.lookContrast = lookContrast
        self.lookSaturation = lookSaturation
    }
}
