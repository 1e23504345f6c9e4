import ColorManagement
import LookCore
import LookModel
import Workflows

/// One parameter set: the creative look and its strength, the overall strength, the automatic correction's
/// strengths, the output's colour. A plain value: copy it, change it, use it from any thread.
public struct Params: Sendable, Equatable {
    /// The automatic correction.
    public enum AutoCorrect: Sendable, Equatable {
        /// The detected scene's preset decides (as `correct`).
        case scene
        case off
        case on
    }

    /// The space the output is encoded in.
    public enum OutputSpace: Sendable, Equatable {
        /// The input's own (its ICC profile; sRGB when it has none).
        case keep
        case sRGB, displayP3, adobeRGB, rec2020
    }

    /// The look: GUID, GUID prefix, name or `name@N`; nil: with an analysis the detected scene's default look
    /// (as `correct`), without one no look.
    public var look: String?
    /// No creative look at all, not even the scene's (`correct --no-look`).
    public var noLook = false
    /// Look strength, 0…200 percent; nil: 100 for a named look, the scene's strength for a scene's look.
    public var lookStrength: Double?
    /// Overall strength against the input, 0…100 percent.
    public var strength = 100.0
    /// Look contrast and saturation trims, −100…100.
    public var lookContrast = 0.0, lookSaturation = 0.0
    /// The automatic correction (needs an analysis unless off).
    public var autoCorrect = AutoCorrect.scene
    /// Each correction stage in percent of the engine's choice, 0…200.
    public var exposure = 100.0, levels = 100.0, whiteBalance = 100.0, contrast = 100.0, vibrance = 100.0
    /// The output's colour space.
    public var output = OutputSpace.keep
    /// Perceptual rather than relative colorimetric rendering for out-of-gamut colours.
    public var perceptual = false
    /// Trilinear rather than tetrahedral interpolation.
    public var trilinear = false
    /// Cores one call uses (nil: all).
    public var threads: Int?
    /// Pre-look adjustments: a recipe file composed with the plugins the engine finds (`correct --recipe`).
    public var recipe: String?

    /// A parameter set with `look` at `lookStrength`, everything else at its default.
    public init(look: String? = nil, lookStrength: Double? = nil, strength: Double = 100) {
        self.look = look
        self.lookStrength = lookStrength
        self.strength = strength
    }

    /// The engine's request, after checking every range (the messages name the value, not a flag).
    func request() throws(LookStudioError) -> RenderRequest {
        try Self.check("look strength", lookStrength ?? 100, 0...200)
        try Self.check("overall strength", strength, 0...100)
        try Self.check("look contrast", lookContrast, -100...100)
        try Self.check("look saturation", lookSaturation, -100...100)
        if let threads, threads < 1 { throw LookStudioError(.invalidArgument, "threads \(threads): use 1 or more") }
        var request = RenderRequest()
        if noLook, look != nil {
            throw LookStudioError(.invalidArgument, "a look is named but \"no look\" is set: give one or the other")
        }
        request.look = noLook ? .none : look.map { $0.isEmpty ? .sceneDefaults : .catalog($0) } ?? .sceneDefaults
        request.trims = LookTrims(strength: lookStrength, contrast: lookContrast, saturation: lookSaturation)
        request.strength = strength
        request.auto = AutoChoice(enabled: autoCorrect == .scene ? nil : autoCorrect == .on,
                                  percentages: try stagePercentages())
        request.output = output.named
        request.intent = perceptual ? .perceptual : .relativeColorimetric
        request.interpolation = trilinear ? .trilinear : .tetrahedral
        request.recipe = recipe
        return request
    }

    /// The stages not at 100 %, checked (at 100 a stage is left to the preset, as when `correct` is not given it).
    private func stagePercentages() throws(LookStudioError) -> [CorrectionPreset.Strength: Double] {
        let given: [CorrectionPreset.Strength: Double] = [
            .exposure: exposure, .levels: levels, .whiteBalance: whiteBalance, .contrast: contrast,
            .vibrance: vibrance,
        ]
        for (stage, value) in given {
            try Self.check("\(stage.key.replacingOccurrences(of: "_", with: " ")) strength", value,
                           CorrectionPreset.strengthRange)
        }
        return given.filter { $0.value != 100 }
    }

    private static func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(LookStudioError) {
        guard value.isFinite, range.contains(value) else {
            throw LookStudioError(.invalidArgument, TextNumber.outOfRange(name, value, range))
        }
    }
}

extension Params.OutputSpace {
    /// The named space (nil: the input's own).
    var named: ColorProfile.Named? {
        switch self {
        case .keep: nil
        case .sRGB: .sRGB
        case .displayP3: .displayP3
        case .adobeRGB: .adobeRGB
        case .rec2020: .rec2020
        }
    }
}
