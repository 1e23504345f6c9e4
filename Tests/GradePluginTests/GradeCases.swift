import Foundation

/// Non-trivial parameters for each adjustment (far enough from identity that every term of a formula matters), and
/// the measures the suites record for the closing report.
enum GradeCases {
    static let ids = ["curve.rgb", "curve.hue_hue", "curve.hue_sat", "curve.hue_lum", "curve.lum_sat",
                      "grade.lift_gamma_gain", "grade.cdl", "color.channel_mixer", "color.split_tone"]

    static let curveRGB: [String: [Float]] = [
        "master": [0, 0, 0.25, 0.2, 0.5, 0.5, 0.75, 0.82, 1, 1],
        "red": [0, 0.05, 0.4, 0.5, 1, 0.95],
        "green": [0, 0, 0.3, 0.2, 0.7, 0.9, 1, 1],
        // Not monotone, and flat below 0.1 and above 0.95.
        "blue": [0.1, 0.1, 0.5, 0.8, 0.8, 0.4, 0.95, 0.9],
    ]
    static let hueShift: [Float] = [0, 20, 60, -15, 120, 30, 200, 0, 240, -40, 300, 25]
    static let hueGain: [Float] = [10, 1.5, 90, 0.6, 150, 1.3, 230, 0.4, 320, 1.8]
    static let hueStops: [Float] = [0, 0.8, 100, -0.7, 180, 0.3, 260, -1]
    static let lumGain: [Float] = [0, 0.5, 0.3, 1.6, 0.7, 0.8, 1, 1.2]
    static let liftGammaGain: [String: [Float]] = [
        "lift": [0.05, -0.03, 0.02], "gamma": [0.2, -0.1, 0.3], "gain": [-0.1, 0.05, 0.15],
        "lift_master": [0.02], "gamma_master": [-0.15], "gain_master": [1.1],
    ]
    static func cdl(style: Float) -> [String: [Float]] {
        ["slope": [1.2, 0.9, 1.1], "offset": [-0.05, 0.02, 0.1], "power": [1.3, 0.8, 1.1], "saturation": [1.4],
         "style": [style]]
    }
    static func mixer(preserve: Float) -> [String: [Float]] {
        ["red": [0.8, 0.3, -0.1], "green": [0.1, 0.9, 0.05], "blue": [-0.2, 0.4, 0.9], "preserve_luminance": [preserve]]
    }
    static func splitTone(balance: Float) -> [String: [Float]] {
        ["shadow_hue": [210], "shadow_amount": [0.6], "highlight_hue": [35], "highlight_amount": [0.4],
         "balance": [balance]]
    }

    /// One non-trivial set per adjustment.
    static let nonTrivial: [String: [String: [Float]]] = [
        "curve.rgb": curveRGB, "curve.hue_hue": ["shift": hueShift], "curve.hue_sat": ["gain": hueGain],
        "curve.hue_lum": ["stops": hueStops], "curve.lum_sat": ["gain": lumGain],
        "grade.lift_gamma_gain": liftGammaGain, "grade.cdl": cdl(style: 1),
        "color.channel_mixer": mixer(preserve: 1), "color.split_tone": splitTone(balance: 0.3),
    ]

    /// The float64 reference of adjustment `id` with `parameters` (as ``nonTrivial`` holds them).
    static func reference(_ id: String, _ parameters: [String: [Float]]) -> ([Double]) -> [Double] {
        switch id {
        case "curve.rgb": return CurvesTests.reference(parameters)
        case "grade.lift_gamma_gain": return WheelsTests.reference(parameters)
        case "grade.cdl": return CDLTests.reference(parameters, noClamp: parameters["style"]?.first == 1)
        case "color.channel_mixer": return MixerTests.reference(parameters)
        case "color.split_tone": return SplitToneTests.reference(parameters)
        default:
            let kind = HueCurvesTests.Kind(rawValue: id)!
            return HueCurvesTests.reference(kind, parameters[kind.parameter]!)
        }
    }

    /// Prints a measured error in 8-bit codes, for docs/ADJUSTMENTS.md and the closing report.
    static func record(_ what: String, _ error: Double) {
        print("grade reference: \(what): max error \(String(format: "%.4f", error * 255)) codes at 8 bits")
    }
}

/// SplitMix64: random cases that are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
