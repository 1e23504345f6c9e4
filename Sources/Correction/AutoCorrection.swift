import Foundation
import LookCore

/// How much of each automatic correction to apply: a scene's preset, then the user's percentages on top.
///
/// Strengths are percent of what the engine chose, 0…200: 0 switches a correction off, 100 applies the amount the
/// measured statistics and their confidence allow, and above 100 goes further, up to the full measured amount
/// (white balance: the whole estimated cast, however unsure the estimate).
public struct AutoSettings: Sendable, Equatable, Codable {
    /// Whether the stage runs at all.
    public var enabled = true
    /// Exposure (key and highlight recovery), percent.
    public var exposure = 100.0
    /// Black and white points, percent.
    public var levels = 100.0
    /// Colour cast removal, percent.
    public var whiteBalance = 100.0
    /// Gentle tone curve, percent.
    public var contrast = 100.0
    /// Vibrance, percent.
    public var vibrance = 100.0
    /// Treat the brightest near-neutral surface as a white backdrop: it sets the white point and the white balance.
    public var keepWhite = false
    /// Leave skin hues out of the vibrance boost.
    public var protectSkin = false

    /// Every correction at 100 %.
    public init() {}

    /// Settings with the given strengths in percent.
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

    /// These settings with each strength multiplied by a percentage (nil: unchanged) and capped at 200, as
    /// `correct --exposure N` scales a scene's preset.
    public func scaled(exposure e: Double? = nil, levels l: Double? = nil, whiteBalance w: Double? = nil,
                       contrast c: Double? = nil, vibrance v: Double? = nil) -> AutoSettings {
        func scale(_ value: Double, _ percent: Double?) -> Double { min(200, value * (percent ?? 100) / 100) }
        var s = self
        s.exposure = scale(exposure, e)
        s.levels = scale(levels, l)
        s.whiteBalance = scale(whiteBalance, w)
        s.contrast = scale(contrast, c)
        s.vibrance = scale(vibrance, v)
        return s
    }

    /// Checks every strength is in 0…200, naming the flag that is wrong.
    public func validate() throws(CorrectionError) {
        for (name, value) in [("exposure", exposure), ("levels", levels), ("white-balance", whiteBalance),
                              ("contrast", contrast), ("vibrance", vibrance)] {
            guard value.isFinite, (0...200).contains(value) else {
                throw .outOfRange(name: name, value: value, range: 0...200)
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case enabled, exposure, levels, whiteBalance = "white_balance", contrast, vibrance
        case keepWhite = "keep_white", protectSkin = "protect_skin"
    }
}

/// The automatic correction of one image: every measured input and every chosen amount (reported by `--explain`
/// and `--json`), and the pointwise transform they define. Stages, in linear light unless said:
/// white balance (CAT16 von Kries) → black and white points (one joint affine map, channel ratios kept above
/// black) → exposure (a highlight-protecting curve on luminance) → contrast (an S-curve on encoded luminance) →
/// vibrance (saturation weighted towards low-saturation colours).
public struct AutoCorrection: Sendable, Equatable, Codable {
    /// Clip anchors: where the image's clipped highlights (and crushed blacks) ended up. A camera clips a white at
    /// the top code in every channel; a gain applied to the encoded photo afterwards (darkening, a cast, a veil)
    /// moves that pile of identical pixels to another value per channel, which measures the gain directly.
    public struct Anchors: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey { case topCodes = "top_codes", pileShare = "pile_share", trust, white, black }

        /// Highest 8-bit code of each channel (R, G, B).
        public var topCodes = SIMD3<Int>(255, 255, 255)
        /// Share of samples with every channel at its channel's highest code.
        public var pileShare = 0.0
        /// How far that pile is trusted to be a clipped white, 0…1 (a lone brightest pixel is no pile).
        public var trust = 0.0
        /// Linear value of each channel mapped to 1 (1: unchanged).
        public var white = SIMD3<Double>(1, 1, 1)
        /// Linear value of each channel mapped to 0 (0: unchanged).
        public var black = SIMD3<Double>(0, 0, 0)
    }

    /// White balance: the estimators, their confidence and the illuminant corrected.
    public struct WhiteBalance: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey {
            case greyWorld = "grey_world", shadesOfGrey = "shades_of_grey", greyEdge = "grey_edge"
            case brightAchromatic = "bright_achromatic", skin, estimate, agreement, support
            case neutralSupport = "neutral_support", confidence, corrected
        }

        /// Grey-world estimate of the illuminant.
        public var greyWorld = LogChroma.neutral
        /// Shades-of-grey (Minkowski p = 6) estimate.
        public var shadesOfGrey = LogChroma.neutral
        /// Grey-edge estimate.
        public var greyEdge = LogChroma.neutral
        /// Mean of the brightest unclipped pixels, when they are plausibly one achromatic surface.
        public var brightAchromatic: LogChroma?
        /// Skin in face boxes relative to typical skin, when there are faces.
        public var skin: LogChroma?
        /// The weighted combination.
        public var estimate = LogChroma.neutral
        /// How well the estimators agree, 0…1.
        public var agreement = 0.0
        /// Share of mid-tone pixels whose chromaticity is close to the estimate (neutral surfaces under the cast).
        public var support = 0.0
        /// Share of mid-tone pixels close to neutral (the same measure, no cast assumed).
        public var neutralSupport = 0.0
        /// Confidence that the estimate is a cast and not the scene's own colour, 0…1.
        public var confidence = 0.0
        /// The illuminant actually corrected (the estimate beyond the natural zone, times confidence and strength).
        public var corrected = LogChroma.neutral
    }

    /// Black and white points.
    public struct Levels: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey {
            case measuredBlack = "measured_black", measuredWhite = "measured_white", darkGreyness = "dark_greyness"
            case brightGreyness = "bright_greyness", black, white
        }

        /// 0.5th percentile of each pixel's smallest channel (linear).
        public var measuredBlack = 0.0
        /// 99.5th percentile of each pixel's largest channel (linear).
        public var measuredWhite = 1.0
        /// Smallest over largest channel of the darkest 1 % of pixels' mean (1: a grey veil; low: a saturated colour).
        public var darkGreyness = 1.0
        /// The same for the brightest unclipped 1 % by largest channel (1: a white; low: a coloured highlight).
        public var brightGreyness = 1.0
        /// Black point applied (mapped to 0).
        public var black = 0.0
        /// White point applied (mapped to 1).
        public var white = 1.0
    }

    /// Exposure.
    public struct Exposure: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey { case key, faceKey = "face_key", clippedShare = "clipped_share", stops }

        /// Geometric-mean luminance after levels.
        public var key = 0.0
        /// Geometric-mean luminance of the faces' centres after levels (nil: no faces).
        public var faceKey: Double?
        /// Share of pixels with a channel at the top code (before correction).
        public var clippedShare = 0.0
        /// Chosen change in stops (applied through a curve that keeps black and white).
        public var stops = 0.0
    }

    /// Contrast.
    public struct Contrast: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey { case spreadStops = "spread_stops", amount }

        /// Spread of luminance, 5th to 95th percentile, in stops (after the previous stages).
        public var spreadStops = 0.0
        /// S-curve amount (slope at mid-grey is 1 + amount).
        public var amount = 0.0
    }

    /// Vibrance.
    public struct Vibrance: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey { case meanSaturation = "mean_saturation", amount, protectSkin = "protect_skin" }

        /// Mean saturation, (max − min) / max of encoded values (after the previous stages).
        public var meanSaturation = 0.0
        /// Boost for unsaturated colours (saturation × (1 + amount·(1 − saturation))).
        public var amount = 0.0
        /// Whether skin hues are left out.
        public var protectSkin = false
    }

    /// The settings the plan was made with.
    public var settings: AutoSettings
    /// Clip anchors (the first stage).
    public var anchors = Anchors()
    /// White balance.
    public var whiteBalance = WhiteBalance()
    /// Black and white points.
    public var levels = Levels()
    /// Exposure.
    public var exposure = Exposure()
    /// Contrast.
    public var contrast = Contrast()
    /// Vibrance.
    public var vibrance = Vibrance()
    /// The white-balance matrix on linear sRGB (identity when nothing is corrected).
    public var matrix = Matrix3.identity

    enum CodingKeys: String, CodingKey {
        case settings, anchors, whiteBalance = "white_balance", levels, exposure, contrast, vibrance
    }

    /// An identity plan (nothing measured, nothing corrected).
    public init(settings: AutoSettings = AutoSettings()) { self.settings = settings }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        settings = try c.decode(AutoSettings.self, forKey: .settings)
        anchors = try c.decodeIfPresent(Anchors.self, forKey: .anchors) ?? Anchors()
        whiteBalance = try c.decode(WhiteBalance.self, forKey: .whiteBalance)
        levels = try c.decode(Levels.self, forKey: .levels)
        exposure = try c.decode(Exposure.self, forKey: .exposure)
        contrast = try c.decode(Contrast.self, forKey: .contrast)
        vibrance = try c.decode(Vibrance.self, forKey: .vibrance)
        matrix = Self.matrix(for: whiteBalance.corrected)
    }

    /// True when the transform is the identity, so the stage can be left out of the cube.
    public var isIdentity: Bool {
        !settings.enabled || (anchors.isIdentity && whiteBalance.corrected == .neutral && levels.black == 0
                              && levels.white == 1
                              && exposure.stops == 0 && contrast.amount == 0 && vibrance.amount == 0)
    }
}

// MARK: - Planning

extension AutoCorrection {
    /// The warm–cool direction in log-chromaticity (daylight towards tungsten: more red, less blue).
    static let warmAxis = LogChroma(red: 0.6, blue: -0.8)
    /// Natural photos' illuminant estimates scatter around neutral, more along the warm–cool axis than across it,
    /// and more to the warm side (photographers keep warmth): an estimate inside −0.08…+0.22 along the axis and
    /// ±0.08 across it is the scene's own colour and is left alone.
    public static let naturalCastZone = (warm: -0.08...0.22, across: -0.08...0.08)

    /// The point of the natural zone nearest to `e` (e itself when inside).
    static func naturalZoneEdge(_ e: LogChroma) -> LogChroma {
        let u = warmAxis, along = e.red * u.red + e.blue * u.blue, across = -e.red * u.blue + e.blue * u.red
        let a = min(max(along, naturalCastZone.warm.lowerBound), naturalCastZone.warm.upperBound)
        let p = min(max(across, naturalCastZone.across.lowerBound), naturalCastZone.across.upperBound)
        return LogChroma(red: a * u.red - p * u.blue, blue: a * u.blue + p * u.red)
    }

    /// The key an under-exposed photo is brought up to at most: the geometric middle of good photos' keys.
    public static let keyTarget = 0.09
    /// Below every good photo's key: the darkest measured were 0.037 (a retina), 0.040 (a launch at dusk).
    public static let keyFloor = 0.035
    /// The largest channel gain a cast left in a photo is assumed to have (30 %: tungsten light under a daylight
    /// setting is about twice that in R/B, split between red and blue).
    public static let largestCastGain = 1.3
    /// Typical skin under D65 in log-chromaticity (Macbeth "light skin" and "dark skin" patches: log R/G 0.57 and
    /// 0.71, log B/G −0.31 and −0.37).
    public static let typicalSkin = LogChroma(red: 0.64, blue: -0.34)
    /// Faces of well-exposed portraits: geometric-mean linear luminance of the face centre.
    public static let naturalFaceKey = 0.10...0.50

    /// Plans the correction of one analysed image: measures, gates each correction by how far its statistic lies
    /// outside natural photos' range and by confidence, and scales by `settings`.
    public static func plan(_ analysis: CorrectionAnalysis, settings: AutoSettings = AutoSettings()) -> AutoCorrection {
        var plan = AutoCorrection(settings: settings)
        guard settings.enabled, !analysis.samples.isEmpty else { return plan }
        var samples = analysis.samples
        var faces = analysis.faceSamples
        plan.planAnchors(analysis.clip)
        if !plan.anchors.isIdentity {
            let step = plan
            samples = samples.map(step.anchorMap)
            faces = faces.map(step.anchorMap)
        }
        // Measured after the anchors: a cast that clipped one channel of a blue sky is not over-exposure.
        plan.exposure.clippedShare = Double(samples.count { $0.max() >= 0.985 }) / Double(samples.count)
        plan.planWhiteBalance(samples, faces: faces, gridWidth: analysis.gridWidth, gridHeight: analysis.gridHeight)
        if plan.whiteBalance.corrected != .neutral {
            let m = plan.matrix
            samples = samples.map { m.applyFloat($0) }
            faces = faces.map { m.applyFloat($0) }
        }
        plan.planLevels(samples, keepWhite: settings.keepWhite)
        samples = samples.map(plan.levelsMap)
        faces = faces.map(plan.levelsMap)
        plan.planExposure(samples, faces: faces)
        let exposureStep = plan
        samples = samples.map { exposureStep.exposureMap($0) }
        plan.planContrast(samples)
        let contrastStep = plan
        samples = samples.map { contrastStep.contrastMap($0) }
        plan.planVibrance(samples)
        return plan
    }

    /// Share of samples at every channel's top code at once from which that pile counts as a clipped white (trust
    /// from 0 to 1). Measured at 768 px: good photos with clipped highlights have 0.01…0.18 % of their pixels
    /// exactly at (255, 255, 255) (bus 0.13, kite 0.18, person 0.013, a motorcycle's chrome 0.011 %); photos without
    /// clipping have none, and the smooth top of a gradient one pixel or two.
    static let pileShares = (none: 0.00003, trusted: 0.0001)
    /// A lifted black (0.01 % quantile of a channel) counts as a veil from 0.004 to 0.008 linear (codes 12…24): good
    /// photos' darkest 0.01 % sit at codes 0…5.
    static let veilBlacks = (none: 0.004, full: 0.008)

    private mutating func planAnchors(_ clip: ClipStatistics) {
        var a = Anchors()
        a.topCodes = clip.topCodes
        a.pileShare = clip.pixelCount > 0 ? Double(clip.pilePixels) / Double(clip.pixelCount) : 0
        let table = CorrectionAnalysis.decodeTable
        // A handful of pixels is no evidence, whatever share of a small image they are; nor are pixels that touch
        // no other (a gradient's top, a lone glint): a clipped area is a patch. A pile below code 150…180 (more than
        // about 1…1.5 stops down from white) is more likely a dark image's brightest texture than a dimmed white.
        let connected = clip.pilePixels > 0 ? Double(clip.connectedPixels) / Double(clip.pilePixels) : 0
        a.trust = Self.ramp(a.pileShare, from: Self.pileShares.none, to: Self.pileShares.trusted)
            * Self.ramp(Double(clip.pilePixels), from: 16, to: 32) * Self.ramp(connected, from: 0.3, to: 0.5)
            * Self.ramp(Double(a.topCodes.min()), from: 150, to: 180)
        let strength = a.trust * min(1, settings.levels / 100)
        guard strength > 0 else { anchors = a; return }
        var logWhite = SIMD3(log(Double(table[a.topCodes.x])), log(Double(table[a.topCodes.y])),
                             log(Double(table[a.topCodes.z])))
        // A channel still at 255 hides how far a cast raised it. A cast shifts colour, not brightness, so the
        // hidden channel moved the other way: daylight-to-tungsten moves log R and log B in opposite directions,
        // R by 0.75 of B's move (the warm axis, 0.6 : −0.8), so a dimmed blue with a clipped red implies a raised
        // red, and the reverse; a clipped green with red and blue both dimmed (a green cast) implies green raised
        // by their mean move, and clipped red and blue with green dimmed (magenta) both raised by green's move.
        let ratio = -Self.warmAxis.red / Self.warmAxis.blue
        let (r, g, b) = (a.topCodes.x == 255, a.topCodes.y == 255, a.topCodes.z == 255)
        if r && !b { logWhite.x = -logWhite.z * ratio }
        if b && !r { logWhite.z = -logWhite.x / ratio }
        if g && !r && !b { logWhite.y = -(logWhite.x + logWhite.z) / 2 }
        if r && b && !g { logWhite.x = -logWhite.y; logWhite.z = -logWhite.y }
        a.white = SIMD3(exp(logWhite.x * strength), exp(logWhite.y * strength), exp(logWhite.z * strength))
        let lows = SIMD3(Double(table[clip.lowCodes.x]), Double(table[clip.lowCodes.y]), Double(table[clip.lowCodes.z]))
        // A veil adds about the same light to every channel; lows far apart are a coloured subject's darkest
        // colour (a red product on white has no dark red), not a veil.
        let grey = lows.max() > 0 ? Self.ramp(lows.min() / lows.max(), from: 0.4, to: 0.6) : 0
        func veil(_ v: Double) -> Double {
            v * Self.ramp(v, from: Self.veilBlacks.none, to: Self.veilBlacks.full) * grey * strength
        }
        a.black = SIMD3(veil(lows.x), veil(lows.y), veil(lows.z))
        anchors = a
    }

    /// The 8-bit sRGB code of a linear value decoded from one.
    static func code(_ v: Float) -> Int {
        min(255, max(0, Int((ColorScience.srgb(fromLinear: Double(v)) * 255).rounded())))
    }

    private mutating func planWhiteBalance(_ samples: [SIMD3<Float>], faces: [SIMD3<Float>], gridWidth: Int,
                                           gridHeight: Int) {
        var wb = WhiteBalance()
        wb.greyWorld = LogChroma(LinearMeasure.minkowski(samples, p: 1))
        wb.shadesOfGrey = LogChroma(LinearMeasure.minkowski(samples, p: 6))
        wb.greyEdge = LogChroma(LinearMeasure.greyEdge(samples, width: gridWidth, height: gridHeight))
        wb.brightAchromatic = Self.brightAchromatic(samples, backdrop: settings.keepWhite)
        if faces.count >= 50 {
            let skin = faces.filter { luminance($0) > 0.02 && $0.max() < 0.98 }
            if skin.count >= 50 {
                let mean = LogChroma(LinearMeasure.minkowski(skin, p: 1))
                wb.skin = LogChroma(red: mean.red - Self.typicalSkin.red, blue: mean.blue - Self.typicalSkin.blue)
            }
        }
        // Grey-world leans towards the scene's dominant colour (real photos average warm), so it weighs least;
        // a plausible achromatic highlight and skin are the most direct cues.
        var estimates: [(LogChroma, Double)] = [(wb.greyWorld, 0.5), (wb.shadesOfGrey, 1), (wb.greyEdge, 1)]
        if let bright = wb.brightAchromatic { estimates.append((bright, settings.keepWhite ? 4 : 1.5)) }
        if let skin = wb.skin { estimates.append((skin, 1.5)) }
        let total = estimates.reduce(0) { $0 + $1.1 }
        let combined = LogChroma(red: estimates.reduce(0) { $0 + $1.0.red * $1.1 } / total,
                                 blue: estimates.reduce(0) { $0 + $1.0.blue * $1.1 } / total)
        let spread = (estimates.reduce(0) { $0 + pow($1.0.distance(to: combined), 2) * $1.1 } / total).squareRoot()
        wb.agreement = Self.ramp(spread, from: 0.25, to: 0.08)
        let chromas = Self.midtoneChromas(samples)
        // Grey pixels: starting from the estimators' combination, move to the mean of the mid-tone pixels near it
        // (mean shift). Neutral surfaces under a cast all sit at the cast, so the estimate lands on them when they
        // exist; the share of pixels there is the support.
        var estimate = combined
        if settings.keepWhite, let bright = wb.brightAchromatic {
            estimate = bright
        } else {
            for _ in 0..<5 {
                guard let shifted = Self.meanNear(chromas, estimate, radius: Self.clusterRadius) else { break }
                estimate = shifted
            }
        }
        wb.estimate = estimate
        wb.support = Self.share(chromas, near: estimate)
        wb.neutralSupport = Self.share(chromas, near: .neutral)
        // A cast is believable when the estimators agree and surfaces sit at the estimated illuminant. A sunset's
        // or a candle-lit scene's colours spread over many hues and are far more saturated than a cast that a
        // camera's white balance leaves: beyond 0.6 the confidence falls, to 0 at 1.2 (log units).
        let supportCue = Self.ramp(wb.support, from: 0.03, to: 0.10)
        let plausible = Self.ramp(estimate.magnitude, from: 1.2, to: 0.6)
        // A cluster far from where the estimators point is some coloured surface, not the illuminant.
        let consistent = Self.ramp(estimate.distance(to: combined), from: 0.2, to: 0.1)
        wb.confidence = settings.keepWhite && wb.brightAchromatic != nil ? 1 : wb.agreement * supportCue * plausible * consistent
        // Inside the natural zone the estimate is the scene's own colour and nothing is corrected; beyond it the
        // correction brings the estimate back to the zone's edge, or to neutral when a large share of the image
        // sits at the estimate (a neutral surface, such as a grey card or a backdrop, under the cast).
        let neutralTrust = settings.keepWhite ? 1 : Self.ramp(wb.support, from: 0.6, to: 0.8)
        let target = Self.naturalZoneEdge(estimate).scaled(1 - neutralTrust)
        // Up to 100 % the confidence-limited amount; above, on towards the whole estimate.
        let s = settings.whiteBalance / 100
        let fraction = s <= 1 ? wb.confidence * s : wb.confidence + (1 - wb.confidence) * min(1, s - 1)
        wb.corrected = LogChroma(red: (estimate.red - target.red) * fraction, blue: (estimate.blue - target.blue) * fraction)
        // Never more than a strong tungsten-to-daylight shift at once (scaled by strengths above 100: underwater).
        let cap = Self.maximumCast * max(1, s)
        if wb.corrected.magnitude > cap { wb.corrected = wb.corrected.scaled(cap / wb.corrected.magnitude) }
        if wb.corrected.magnitude < 1e-4 { wb.corrected = .neutral }
        whiteBalance = wb
        matrix = Self.matrix(for: wb.corrected)
    }

    /// Mean chromaticity of the brightest unclipped 2 % (20 % for a backdrop) when they hold together (most within 0.1 of
    /// their mean) and are not saturated (a yellow flower or a red car is a subject, not a white).
    static func brightAchromatic(_ samples: [SIMD3<Float>], backdrop: Bool) -> LogChroma? {
        let unclipped = samples.filter { $0.max() < 0.98 && luminance($0) > 0.05 }
        guard unclipped.count >= 200 else { return nil }
        var lum = unclipped.map(luminance)
        let threshold = Float(LinearMeasure.quantile(&lum, backdrop ? 0.8 : 0.98))
        let bright = unclipped.filter { luminance($0) >= threshold }
        let mean = LogChroma(LinearMeasure.minkowski(bright, p: 1))
        guard mean.magnitude < 0.5 else { return nil }
        let close = bright.count { LogChroma(SIMD3<Double>($0)).distance(to: mean) < 0.1 }
        return Double(close) / Double(bright.count) >= 0.6 ? mean : nil
    }

    /// Radius of a chromaticity cluster (log units): pixels of one neutral surface under noise and shading.
    static let clusterRadius = 0.08
    /// The largest cast corrected (log units, about a 0.5 shift of log R/B on each side of green).
    public static let maximumCast = 0.6

    /// Chromaticities of mid-tone pixels (luminance 0.03…0.9, unclipped): dark pixels are noisy, bright ones clip.
    static func midtoneChromas(_ samples: [SIMD3<Float>]) -> [LogChroma] {
        samples.compactMap { s in
            let y = luminance(s)
            guard y > 0.03, y < 0.9, s.max() < 0.98 else { return nil }
            return LogChroma(SIMD3<Double>(s))
        }
    }

    /// Mean of the chromaticities within `radius` of `centre`, or nil when fewer than 1 % are.
    static func meanNear(_ chromas: [LogChroma], _ centre: LogChroma, radius: Double) -> LogChroma? {
        var r = 0.0, b = 0.0, n = 0
        for c in chromas where c.distance(to: centre) < radius {
            r += c.red
            b += c.blue
            n += 1
        }
        guard n > 0, n * 100 >= chromas.count else { return nil }
        return LogChroma(red: r / Double(n), blue: b / Double(n))
    }

    /// Share of the chromaticities within `clusterRadius` of `centre`.
    static func share(_ chromas: [LogChroma], near centre: LogChroma) -> Double {
        chromas.isEmpty ? 0 : Double(chromas.count { $0.distance(to: centre) < clusterRadius }) / Double(chromas.count)
    }

    static func matrix(for cast: LogChroma) -> Matrix3 {
        cast == .neutral ? .identity : ColorScience.adaptation(from: cast.rgb)
    }

    private mutating func planLevels(_ samples: [SIMD3<Float>], keepWhite: Bool) {
        var mins = samples.map { $0.min() }, maxs = samples.map { $0.max() }
        levels.measuredBlack = LinearMeasure.quantile(&mins, 0.005)
        levels.measuredWhite = LinearMeasure.quantile(&maxs, keepWhite ? 0.9 : 0.995)
        let strength = min(2, settings.levels / 100)
        // Photos that span the range have a 0.5 % black below 0.01 (sRGB code 25) and a 99.5 % white above 0.9;
        // only a range compressed beyond that (haze, fade, under-exposure) is stretched, jointly, so channel
        // ratios above black stay as they were. At most 0.5 % of pixels clip at either end, by construction.
        // A lifted black is a veil only when the darkest pixels are greyish (their mean's smallest channel at
        // least 0.3…0.6 of its largest): a product shot on white has no blacks, and its darkest pixels are the
        // product's saturated colour, which must not be subtracted.
        var lums = samples.map(luminance)
        let darkLimit = Float(LinearMeasure.quantile(&lums, 0.01))
        let dark = LinearMeasure.minkowski(samples.filter { luminance($0) <= darkLimit }, p: 1)
        levels.darkGreyness = dark.max() > 0 ? dark.min() / dark.max() : 1
        let unclipped = samples.filter { $0.max() < 0.98 }
        var unclippedMaxs = unclipped.map { $0.max() }
        let brightLimit = Float(LinearMeasure.quantile(&unclippedMaxs, 0.99))
        let bright = LinearMeasure.minkowski(unclipped.filter { $0.max() >= brightLimit }, p: 1)
        levels.brightGreyness = bright.max() > 0 ? bright.min() / bright.max() : 1
        // A veil adds light and leaves white near white; under-exposure scales light and leaves black near black.
        // An image with both a raised black and a low white is a low-contrast subject (a wall, fog, fur), not a
        // fault of either kind, and is left alone: the black point acts only while white is above 0.7…0.85, the
        // white point only while black is below 0.015…0.03.
        let veil = Self.ramp(levels.measuredWhite, from: 0.7, to: 0.85)
        let blackGate = Self.ramp(levels.measuredBlack, from: 0.01, to: 0.03)
            * Self.ramp(levels.darkGreyness, from: 0.3, to: 0.6) * veil
        levels.black = min(levels.measuredBlack, levels.measuredBlack * blackGate * strength)
        let white = max(levels.measuredWhite, 0.05)
        if white > 1 {
            levels.white = white
        } else if keepWhite {
            levels.white = 1 + (white - 1) * min(1, strength)
        } else {
            // Many good photos never reach white (a cat's fur, a misty morning), so missing highlights alone are
            // no fault: under-exposure is missing highlights (white below 0.9) AND a key below 0.09, the geometric
            // middle of good photos' keys (0.04…0.17). The gain stops at whichever comes first: white reaching 1 or
            // the key reaching 0.09, so a second pass finds nothing left to do. At most 2 stops: beyond that the stretch
            // mostly amplifies noise.
            let b = levels.black
            let key = LinearMeasure.key(b == 0 ? samples : samples.map { ($0 - Float(b)).replacing(with: 0, where: $0 .< Float(b)) })
            // A cast scales red and blue against green. Near-neutral highlights keep their largest channel (green
            // stays), but a coloured highlight's largest channel (a flame's red) moves by the cast's full gain
            // while luminance barely moves: a cool cast on an orange subject reads as under-exposure. Good photos'
            // brightest 1 % measure 0.8…1 in greyness when they are whites, skies or skin, and 0.1…0.6 when they
            // are a coloured subject; from 0.8 down to 0.6 the key the gain may reach falls from 0.09 to 0.035, below
            // every good photo's key, so with a coloured highlight only a key darker than any good photo's
            // (luminance: a cast barely moves it) counts as under-exposure.
            let trusted = Self.ramp(levels.brightGreyness, from: 0.6, to: 0.8)
            let keyLimit = Self.keyFloor * pow(Self.keyTarget / Self.keyFloor, trusted)
            // Whatever the highlight, the white still counts for the part of its shortfall no plausible cast
            // explains: a cast left in a photo moves a highlight's largest channel by at most its largest gain.
            var gain = 1.0
            if white < 0.9 && key > 0 {
                gain = max(1, min(1 / white, keyLimit / key, 4),
                           min(1 / (white * Self.largestCastGain), Self.keyTarget / key, 4))
            }
            // A key below 0.01…0.02 is night or space, not a stop's error: one stop below the darkest good photos'
            // keys (0.04) is 0.02.
            let scaled = Self.ramp(levels.measuredBlack, from: 0.03, to: 0.015) * Self.ramp(key, from: 0.01, to: 0.02)
            // Without a clipped white (the anchors found none) a missing white is an uncertain cue: good photos'
            // whites range from 0.6 to 1, so only 0.85 of the gain (in stops) is applied. A cast that turns a warm
            // highlight neutral (eagle.jpg under a 30 % cool cast) otherwise reads as a stop of under-exposure.
            levels.white = 1 / pow(gain, 0.85 * min(1, strength) * scaled)
        }
        if levels.white - levels.black < 0.05 { levels.black = 0; levels.white = 1 }
        if abs(levels.white - 1) < 1e-4 { levels.white = 1 }
        if levels.black < 1e-5 { levels.black = 0 }
    }

    private mutating func planExposure(_ samples: [SIMD3<Float>], faces: [SIMD3<Float>]) {
        exposure.key = LinearMeasure.key(samples)
        let faceKey = faces.count >= 50 ? LinearMeasure.key(faces) : nil
        exposure.faceKey = faceKey
        let strength = min(2, settings.exposure / 100)
        var stops = 0.0
        if let faceKey {
            // Faces decide: bring a face outside the natural range half-way (in stops) to its edge.
            let r = Self.naturalFaceKey
            if faceKey < r.lowerBound { stops = 0.5 * log2(r.lowerBound / faceKey) }
            if faceKey > r.upperBound { stops = 0.5 * log2(r.upperBound / faceKey) }
        } else {
            // A low or a high key alone is a low-key or high-key photo, no fault (a dark key with missing
            // highlights is handled by the white point; a beach photo's key is 0.55). Many clipped pixels (good
            // photos: at most 2 %) with a bright key is over-exposure, but neither says by how much: a photo full of
            // near-whites clips 10 % at +0.25 EV, another 5 % at +1 EV (reading the amount from the clipped share
            // through a typical photo's highlights over-corrected +0.5 EV; pulling the key to 0.09 took a beach at
            // +0.25 EV a stop down, and letting a fifth of the image clipped allow a full stop took a sky photo at
            // +0.25 EV 0.37 of its distance further). So the pull, towards a key of 0.09, is half a stop at most:
            // every over-exposure from +0.25 EV up ends no further from its original than it started.
            let clipped = Self.ramp(exposure.clippedShare, from: 0.02, to: 0.10)
            if exposure.key > 0.09 && clipped > 0 { stops = -clipped * min(0.5, log2(exposure.key / 0.09)) }
            // A white backdrop is meant to be bright.
            if settings.keepWhite { stops = max(0, stops) }
        }
        exposure.stops = abs(stops * strength) < 0.01 ? 0 : max(-1.5, min(1.5, stops * strength))
    }

    private mutating func planContrast(_ samples: [SIMD3<Float>]) {
        // Only where a veil was found: a flat subject (fur, a wall, fog) is meant to be flat.
        let veil = levels.black > 0 || anchors.black != SIMD3(0, 0, 0) ? 1.0 : 0
        var logs = samples.map { log2(max(1e-4, luminance($0))) }
        let lo = LinearMeasure.quantile(&logs, 0.05), hi = LinearMeasure.quantile(&logs, 0.95)
        contrast.spreadStops = hi - lo
        // Good photos span 2.5 stops or more between their 5th and 95th percentiles (a cat's fur: 2.9; most 4…13);
        // a veiled image still flatter after its black point gets a gentle S-curve, at most slope 1.15 at mid-grey.
        let amount = 0.15 * Self.ramp(contrast.spreadStops, from: 2.5, to: 1.5) * min(2, settings.contrast / 100) * veil
        contrast.amount = amount < 0.005 ? 0 : amount
    }

    private mutating func planVibrance(_ samples: [SIMD3<Float>]) {
        var sum = 0.0, n = 0
        for s in samples where s.max() > 0.02 {
            let e = SIMD3(ColorScience.srgb(fromLinear: Double(s.x)), ColorScience.srgb(fromLinear: Double(s.y)),
                          ColorScience.srgb(fromLinear: Double(s.z)))
            sum += (e.max() - e.min()) / e.max()
            n += 1
        }
        vibrance.meanSaturation = n == 0 ? 0 : sum / Double(n)
        vibrance.protectSkin = settings.protectSkin
        // Colour photos average 0.2…0.5 saturation; a washed-out one (0.05…0.15) gets up to +30 % on its least
        // saturated colours. Below 0.03 the image is (nearly) black and white and is left so.
        let washed = Self.ramp(vibrance.meanSaturation, from: 0.15, to: 0.07)
        let colour = Self.ramp(vibrance.meanSaturation, from: 0.02, to: 0.04)
        // Only where a veil was found, as for contrast: a grey beach or a misty morning is meant to be muted.
        let veil = levels.black > 0 || anchors.black != SIMD3(0, 0, 0) ? 1.0 : 0
        let amount = 0.3 * washed * colour * min(2, settings.vibrance / 100) * veil
        vibrance.amount = amount < 0.005 ? 0 : amount
    }

    /// 0 at `from`, 1 at `to`, linear between and clamped (either direction).
    static func ramp(_ x: Double, from a: Double, to b: Double) -> Double {
        min(1, max(0, (x - a) / (b - a)))
    }
}

// MARK: - The transform

extension AutoCorrection {
    /// Corrects one encoded sRGB colour (0…1); the result is clamped to 0…1.
    public func apply(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        guard !isIdentity else { return rgb }
        var c = SIMD3(Double(ColorScience.linear(fromSRGB: Double(rgb.x))),
                      ColorScience.linear(fromSRGB: Double(rgb.y)), ColorScience.linear(fromSRGB: Double(rgb.z)))
        c = anchorMapD(c)
        if whiteBalance.corrected != .neutral { c = matrix.apply(c) }
        c = levelsMapD(c)
        c = exposureMapD(c)
        c = contrastMapD(c)
        c = vibranceMapD(c)
        c = c.clamped(lowerBound: .zero, upperBound: SIMD3(1, 1, 1))
        return SIMD3(Float(ColorScience.srgb(fromLinear: c.x)), Float(ColorScience.srgb(fromLinear: c.y)),
                     Float(ColorScience.srgb(fromLinear: c.z)))
    }

    /// The transform as a cube of `size`³ entries.
    public func cube(size: Int = Corrector.defaultCubeSize) throws -> ColorCube {
        try ColorCube(size: size) { apply($0) }
    }

    func anchorMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(anchorMapD(SIMD3<Double>(c))) }
    func levelsMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(levelsMapD(SIMD3<Double>(c))) }

    /// Each channel's black anchor to 0 and white anchor to 1.
    private func anchorMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard !anchors.isIdentity else { return c }
        let d = (c - anchors.black) / (anchors.white - anchors.black)
        return d.replacing(with: 0, where: d .< 0)
    }
    func exposureMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(exposureMapD(SIMD3<Double>(c))) }
    func contrastMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(contrastMapD(SIMD3<Double>(c))) }

    private func levelsMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard levels.black != 0 || levels.white != 1 else { return c }
        let b = levels.black, scale = 1 / (levels.white - levels.black)
        guard b > 0 else { return c * scale }
        // Around black (±25 %) a quadratic toe (value and slope continuous) takes the place of a hard corner, so
        // the cube has no kink to interpolate.
        let t = 0.25 * b
        func map(_ x: Double) -> Double {
            x >= b + t ? (x - b) * scale : x <= b - t ? 0 : (x - b + t) * (x - b + t) / (4 * t) * scale
        }
        return SIMD3(map(c.x), map(c.y), map(c.z))
    }

    /// Scales the colour by f(Y)/Y. Brighter: f(Y) = gY / (1 + (g − 1)Y), slope g at black and 1 at white, so
    /// nothing clips. Darker (over-exposure): the gain g itself up to Y = 0.9, then a straight shoulder to (1 + g)/2
    /// at white. What clipped was brighter than 1/g before the fault, so a clipped white is put half-way between
    /// that and white; the curve that kept white at 1 recovered 0.5…0.6 of a known +0.5…+1 EV, the gain 0.8…0.9.
    private func exposureMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard exposure.stops != 0 else { return c }
        let g = pow(2, exposure.stops)
        let y = Self.luminanceD(c)
        guard y > 1e-9 else { return c * g }
        let yc = min(y, 1)
        guard g < 1 else { return c * (g / (1 + (g - 1) * yc)) }
        let knee = 0.9, top = (1 + g) / 2
        let f = yc < knee ? g * yc : knee * g + (yc - knee) / (1 - knee) * (top - knee * g)
        return c * (f / yc)
    }

    /// S-curve on encoded luminance, v − a·sin(2πv)/(2π): slope 1 + a at mid-grey, 1 − a at the ends.
    private func contrastMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard contrast.amount != 0 else { return c }
        let y = Self.luminanceD(c)
        guard y > 1e-9 else { return c }
        let v = ColorScience.srgb(fromLinear: min(1, y))
        let v2 = v - contrast.amount * sin(2 * .pi * v) / (2 * .pi)
        return c * (ColorScience.linear(fromSRGB: v2) / min(1, y))
    }

    private func vibranceMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard vibrance.amount != 0 else { return c }
        let hi = c.max(), lo = c.min()
        guard hi > 1e-9, hi > lo else { return c }
        let sat = (hi - lo) / hi
        var weight = 1 - sat
        if vibrance.protectSkin {
            // Skin hues (about 10°…50° in HSV hue, red towards yellow, red the largest channel) get no boost.
            let hue = c.x == hi ? 60 * (c.y - c.z) / (hi - lo) : 90
            weight *= 1 - Self.ramp(hue, from: 0, to: 10) * Self.ramp(hue, from: 60, to: 40)
        }
        let y = Self.luminanceD(c)
        return y + (c - y) * (1 + vibrance.amount * weight)
    }

    static func luminanceD(_ c: SIMD3<Double>) -> Double { ColorScience.luma(c) }
}

extension Matrix3 {
    /// M·v in single precision (for the analysis samples).
    func applyFloat(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(apply(SIMD3<Double>(v))) }
}

extension AutoCorrection.Anchors {
    /// True when the anchors change nothing.
    public var isIdentity: Bool { white == SIMD3(1, 1, 1) && black == SIMD3(0, 0, 0) }
}

// MARK: - Explanation

extension AutoCorrection {
    /// One line per correction: its measured inputs and the amount chosen (`correct --explain`).
    public var explanation: [String] {
        guard settings.enabled else { return ["auto correction: off"] }
        func c(_ v: LogChroma?) -> String { v.map { String(format: "(%+.3f, %+.3f)", $0.red, $0.blue) } ?? "none" }
        let wb = whiteBalance, s = settings
        let a = anchors
        return [
            String(format: "clip anchors %.0f%%: top codes (%d, %d, %d), pile %.3f%% → trust %.2f; white (%.3f, %.3f, "
                   + "%.3f), black (%.4f, %.4f, %.4f)", s.levels, a.topCodes.x, a.topCodes.y, a.topCodes.z,
                   100 * a.pileShare, a.trust, a.white.x, a.white.y, a.white.z, a.black.x, a.black.y, a.black.z),
            String(format: "white balance %.0f%%: log(R/G, B/G) grey-world %@, shades-of-grey %@, grey-edge %@, "
                   + "bright achromatic %@, skin %@ → estimate %@; agreement %.2f, support %.3f (neutral %.3f), "
                   + "confidence %.2f → corrected %@", s.whiteBalance, c(wb.greyWorld), c(wb.shadesOfGrey),
                   c(wb.greyEdge), c(wb.brightAchromatic), c(wb.skin), c(wb.estimate), wb.agreement, wb.support,
                   wb.neutralSupport, wb.confidence, c(wb.corrected)),
            String(format: "levels %.0f%%: black p0.5 %.4f (dark greyness %.2f) → %.4f; white p99.5 %.3f "
                   + "(bright greyness %.2f) → %.3f", s.levels, levels.measuredBlack, levels.darkGreyness,
                   levels.black, levels.measuredWhite, levels.brightGreyness, levels.white),
            String(format: "exposure %.0f%%: key %.3f, faces %@, clipped %.1f%% → %+.2f EV", s.exposure, exposure.key,
                   exposure.faceKey.map { String(format: "key %.3f", $0) } ?? "none", 100 * exposure.clippedShare,
                   exposure.stops),
            String(format: "contrast %.0f%%: spread %.1f stops → S-curve %.3f", s.contrast, contrast.spreadStops,
                   contrast.amount),
            String(format: "vibrance %.0f%%: mean saturation %.3f → %+.3f%@", s.vibrance, vibrance.meanSaturation,
                   vibrance.amount, vibrance.protectSkin ? " (skin protected)" : ""),
        ]
    }
}
