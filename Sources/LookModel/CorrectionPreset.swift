/// How much of each automatic correction to apply: a scene's stored preset, or the settings one run planned with
/// (the preset with the user's percentages on top).
///
/// Strengths are percent of what the engine chose, 0…200: 0 switches a correction off, 100 applies the amount the
/// measured statistics and their confidence allow, and above 100 goes further, up to the full measured amount
/// (white balance: the whole estimated cast, however unsure the estimate).
///
/// Two JSON forms, both stable contracts: `Codable` is the catalog's (`scenes.correction` column, `scenes.yaml`,
/// `scenes --json`: key `auto`, whole percents, missing keys take their defaults so older and newer builds read
/// each other's presets); `Settings` is the run's (`correct --json`, `detect --json`: key `enabled`, every key).
public struct CorrectionPreset: Sendable, Equatable {
    /// Whether automatic correction runs at all.
    public var enabled = true
    /// Exposure (key and highlight recovery), percent.
    public var exposure = 100.0
    /// Black and white points, percent (above 100 goes on towards the whole measured black).
    public var levels = 100.0
    /// Colour-cast removal, percent (above 100 goes on towards the whole measured cast).
    public var whiteBalance = 100.0
    /// Gentle tone curve, percent.
    public var contrast = 100.0
    /// Vibrance, percent.
    public var vibrance = 100.0
    /// The brightest near-neutral surface is a white backdrop: it sets the white point and the white balance.
    public var keepWhite = false
    /// Skin hues are left out of the vibrance boost.
    public var protectSkin = false

    /// Every correction on at 100 %.
    public init() {}

    /// A preset with the given strengths in percent.
    public init(enabled: Bool = true, exposure: Double = 100, levels: Double = 100, whiteBalance: Double = 100,
                contrast: Double = 100, vibrance: Double = 100, keepWhite: Bool = false, protectSkin: Bool = false) {
        self.enabled = enabled
        self.exposure = exposure
        self.levels = levels
        self.whiteBalance = whiteBalance
        self.contrast = contrast
        self.vibrance = vibrance
        self.keepWhite = keepWhite
        self.protectSkin = protectSkin
    }

    /// One of the five strengths.
    public enum Strength: Sendable, CaseIterable {
        case exposure, levels, whiteBalance, contrast, vibrance

        /// Its name in code and in the studio's JSON: `whiteBalance`.
        public var name: String { "\(self)" }
        /// Its JSON key and its name in `scenes` output: `white_balance`.
        public var key: String { self == .whiteBalance ? "white_balance" : flag }
        /// Its command-line flag without the dashes: `white-balance`.
        public var flag: String {
            switch self {
            case .exposure: "exposure"
            case .levels: "levels"
            case .whiteBalance: "white-balance"
            case .contrast: "contrast"
            case .vibrance: "vibrance"
            }
        }

        var path: WritableKeyPath<CorrectionPreset, Double> {
            switch self {
            case .exposure: \.exposure
            case .levels: \.levels
            case .whiteBalance: \.whiteBalance
            case .contrast: \.contrast
            case .vibrance: \.vibrance
            }
        }
    }

    /// A strength by name.
    public subscript(strength: Strength) -> Double {
        get { self[keyPath: strength.path] }
        set { self[keyPath: strength.path] = newValue }
    }

    /// The range every strength must lie in: percent of the engine's choice.
    public static let strengthRange = 0.0...200.0

    /// True when `percent` is a usable strength (finite, 0…200); the one range check of presets, flags and seeds.
    public static func isValidStrength(_ percent: Double) -> Bool {
        percent.isFinite && strengthRange.contains(percent)
    }

    /// The first strength outside 0…200 and its value (nil: every strength is usable).
    public var outOfRange: (strength: Strength, value: Double)? {
        Strength.allCases.lazy.map { ($0, self[$0]) }.first { !Self.isValidStrength($0.1) }
    }

    /// The preset as a guessed scene may use it: restraints kept (strengths under 100, skin protection, correction
    /// off), pushes dropped (strengths over 100 come down to 100, a white backdrop is not assumed), so a wrong guess
    /// can hold a correction back but never drive it further than a photo of no known scene gets.
    public var restraintsOnly: CorrectionPreset {
        var s = self
        for strength in Strength.allCases { s[strength] = min(self[strength], 100) }
        s.keepWhite = false
        return s
    }

    /// This preset with each strength multiplied by its percentage (missing: unchanged) and capped at 200, as
    /// `correct --exposure N` scales a scene's preset.
    public func scaled(_ percentages: [Strength: Double]) -> CorrectionPreset {
        var s = self
        for (strength, percent) in percentages {
            s[strength] = min(Self.strengthRange.upperBound, self[strength] * percent / 100)
        }
        return s
    }
}

// MARK: - JSON forms

extension CorrectionPreset: Codable {
    /// The catalog's form: key `auto`, whole percents as integers, missing keys take their defaults.
    public init(from decoder: any Decoder) throws { try self.init(from: decoder, style: .catalog) }

    /// The catalog's form: key `auto`, whole percents as integers.
    public func encode(to encoder: any Encoder) throws { try encode(to: encoder, style: .catalog) }

    /// A preset coded in the run's form (`correct --json`'s `settings`): key `enabled`, every key present, percents
    /// as the numbers they are. A property wrapper, so the reports that hold one keep their synthesised coding.
    @propertyWrapper
    public struct Settings: Sendable, Equatable, Codable {
        /// The preset.
        public var wrappedValue: CorrectionPreset

        /// Wraps a preset.
        public init(wrappedValue: CorrectionPreset) { self.wrappedValue = wrappedValue }

        public init(from decoder: any Decoder) throws {
            wrappedValue = try CorrectionPreset(from: decoder, style: .settings)
        }

        public func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder, style: .settings) }
    }

    /// Which of the two forms: they differ in the switch's key, whole numbers and missing keys.
    private enum Style { case catalog, settings }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static func enabled(_ style: Style) -> Key { Key(style == .catalog ? "auto" : "enabled") }
        static let keepWhite = Key("keep_white"), protectSkin = Key("protect_skin")
    }

    private init(from decoder: any Decoder, style: Style) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func value<T: Decodable>(_ key: Key, _ fallback: T) throws -> T {
            if style == .settings { return try c.decode(T.self, forKey: key) }
            return try c.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        self.init()
        enabled = try value(.enabled(style), true)
        for strength in Strength.allCases { self[strength] = try value(Key(strength.key), 100.0) }
        keepWhite = try value(.keepWhite, false)
        protectSkin = try value(.protectSkin, false)
    }

    private func encode(to encoder: any Encoder, style: Style) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(enabled, forKey: .enabled(style))
        for strength in Strength.allCases {
            // The catalog has always stored whole percents as integers (`"vibrance":70`).
            if style == .catalog, let whole = Int(exactly: self[strength]) {
                try c.encode(whole, forKey: Key(strength.key))
            } else {
                try c.encode(self[strength], forKey: Key(strength.key))
            }
        }
        try c.encode(keepWhite, forKey: .keepWhite)
        try c.encode(protectSkin, forKey: .protectSkin)
    }
}
