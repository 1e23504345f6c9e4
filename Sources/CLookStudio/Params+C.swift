import CLookStudioHeader
import LookStudioKit

@_cdecl("lookstudio_params_init")
public func lookstudio_params_init(_ params: UnsafeMutablePointer<lookstudio_params>?) {
    params?.pointee = defaultParams()
}

/// The defaults `lookstudio_params_init` gives (lookstudio.h): the scene's look and preset, every strength at its
/// default, output in the input's space.
private func defaultParams() -> lookstudio_params {
    lookstudio_params(
        struct_size: UInt32(MemoryLayout<lookstudio_params>.size), auto_correct: Int32(LOOKSTUDIO_AUTO_SCENE),
        look: nil, no_look: 0, output_space: Int32(LOOKSTUDIO_OUTPUT_KEEP),
        look_strength: Double(LOOKSTUDIO_DEFAULT_STRENGTH), strength: 100, look_contrast: 0, look_saturation: 0,
        exposure: 100, levels: 100, white_balance: 100, contrast: 100, vibrance: 100,
        intent: Int32(LOOKSTUDIO_INTENT_RELATIVE), interpolation: Int32(LOOKSTUDIO_TETRAHEDRAL), threads: 0,
        reserved: 0, recipe: nil)
}

extension Params {
    /// The Swift parameters a caller's `lookstudio_params` gives; the enumerations checked here, the ranges by the
    /// engine.
    init(_ pointer: UnsafePointer<lookstudio_params>?) throws(LookStudioError) {
        let p = try Structs.read(pointer, defaults: defaultParams(), name: "lookstudio_params")
        self.init(look: try Structs.text(p.look, role: "params.look"),
                  lookStrength: p.look_strength == Double(LOOKSTUDIO_DEFAULT_STRENGTH) ? nil : p.look_strength,
                  strength: p.strength)
        guard p.no_look == 0 || p.no_look == 1 else { throw Self.refuse("no_look", p.no_look, "0 or 1") }
        noLook = p.no_look == 1
        lookContrast = p.look_contrast
        lookSaturation = p.look_saturation
        switch Int(p.auto_correct) {
        case LOOKSTUDIO_AUTO_SCENE: autoCorrect = .scene
        case LOOKSTUDIO_AUTO_OFF: autoCorrect = .off
        case LOOKSTUDIO_AUTO_ON: autoCorrect = .on
        default: throw Self.refuse("auto_correct", p.auto_correct, "LOOKSTUDIO_AUTO_SCENE, _OFF or _ON")
        }
        (exposure, levels, whiteBalance, contrast, vibrance) =
            (p.exposure, p.levels, p.white_balance, p.contrast, p.vibrance)
        let spaces: [OutputSpace] = [.keep, .sRGB, .displayP3, .adobeRGB, .rec2020]
        guard spaces.indices.contains(Int(p.output_space)) else {
            throw Self.refuse("output_space", p.output_space, "a LOOKSTUDIO_OUTPUT_ value, 0…4")
        }
        output = spaces[Int(p.output_space)]
        guard p.intent == 0 || p.intent == 1 else {
            throw Self.refuse("intent", p.intent, "LOOKSTUDIO_INTENT_RELATIVE or _PERCEPTUAL")
        }
        perceptual = p.intent == 1
        guard p.interpolation == 0 || p.interpolation == 1 else {
            throw Self.refuse("interpolation", p.interpolation, "LOOKSTUDIO_TETRAHEDRAL or _TRILINEAR")
        }
        trilinear = p.interpolation == 1
        guard p.threads >= 0 else { throw Self.refuse("threads", p.threads, "0 (all cores) or more") }
        threads = p.threads == 0 ? nil : Int(p.threads)
        recipe = try Structs.text(p.recipe, role: "params.recipe")
    }

    private static func refuse(_ field: String, _ value: Int32, _ allowed: String) -> LookStudioError {
        LookStudioError(.invalidArgument, "params.\(field) is \(value): use \(allowed)")
    }
}
