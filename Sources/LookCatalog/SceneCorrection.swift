/// A scene's automatic-correction preset: which corrections run and how strongly (percent of what the engine
/// measures and chooses, 0…200), and the scene's special cases. Stored as JSON in the `scenes.correction` column;
/// keys missing from the JSON take their defaults, so older and newer builds read each other's presets.
public struct SceneCorrection: Sendable, Equatable, Codable {
    /// Whether automatic correction runs for this scene.
    public var auto = true
    /// Exposure strength, percent.
    public var exposure = 100
    /// Black and white point strength, percent.
    public var levels = 100
    /// Colour-cast removal strength, percent (above 100 goes on towards the whole measured cast).
    public var whiteBalance = 100
    /// Contrast strength, percent.
    public var contrast = 100
    /// Vibrance strength, percent.
    public var vibrance = 100
    /// The brightest near-neutral surface is a white backdrop: it sets the white point and the white balance.
    public var keepWhite = false
    /// Skin hues are left out of the vibrance boost.
    public var protectSkin = false

    /// Every correction on at 100 %.
    public init() {}

    /// A preset with the given values.
    public init(auto: Bool = true, exposure: Int = 100, levels: Int = 100, whiteBalance: Int = 100, contrast: Int = 100,
                vibrance: Int = 100, keepWhite: Bool = false, protectSkin: Bool = false) {
        self.auto = auto
        self.exposure = exposure
        self.levels = levels
        self.whiteBalance = whiteBalance
        self.contrast = contrast
        self.vibrance = vibrance
        self.keepWhite = keepWhite
        self.protectSkin = protectSkin
    }

    enum CodingKeys: String, CodingKey {
        case auto, exposure, levels, whiteBalance = "white_balance", contrast, vibrance
        case keepWhite = "keep_white", protectSkin = "protect_skin"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        auto = try c.decodeIfPresent(Bool.self, forKey: .auto) ?? true
        exposure = try c.decodeIfPresent(Int.self, forKey: .exposure) ?? 100
        levels = try c.decodeIfPresent(Int.self, forKey: .levels) ?? 100
        whiteBalance = try c.decodeIfPresent(Int.self, forKey: .whiteBalance) ?? 100
        contrast = try c.decodeIfPresent(Int.self, forKey: .contrast) ?? 100
        vibrance = try c.decodeIfPresent(Int.self, forKey: .vibrance) ?? 100
        keepWhite = try c.decodeIfPresent(Bool.self, forKey: .keepWhite) ?? false
        protectSkin = try c.decodeIfPresent(Bool.self, forKey: .protectSkin) ?? false
    }

    /// The strengths by name, for checks and printing.
    public var strengths: [(name: String, value: Int)] {
        [("exposure", exposure), ("levels", levels), ("white_balance", whiteBalance), ("contrast", contrast),
         ("vibrance", vibrance)]
    }

    /// Checks every strength is 0…200.
    public func validate() throws(CatalogError) {
        for (name, value) in strengths where !(0...200).contains(value) {
            throw .correctionOutOfRange(name: name, value: value)
        }
    }

    /// One line: `auto on; exposure 100 levels 100 white_balance 100 contrast 100 vibrance 100; keep_white`.
    public var summary: String {
        var text = "auto \(auto ? "on" : "off"); " + strengths.map { "\($0.name) \($0.value)" }.joined(separator: " ")
        let flags = [keepWhite ? "keep_white" : nil, protectSkin ? "protect_skin" : nil].compactMap { $0 }
        if !flags.isEmpty { text += "; " + flags.joined(separator: ", ") }
        return text
    }
}
