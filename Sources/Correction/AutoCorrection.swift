import Dispatch
import Foundation
import CorrectionModel
import LookCore
import LookModel

/// The automatic correction of one image: every measured input, the learned model's estimates with their
/// confidence, and every chosen amount (reported by `--explain` and `--json`), and the pointwise transform they
/// define. Stages, in linear light unless said (docs/CORRECTION.md):
/// veil (black point, measured) → white balance (von Kries channel gains: the learned cast times its calibrated
/// confidence) → exposure (the learned estimate times its confidence; faces a second cue) → contrast and
/// vibrance (only where a veil was removed).
public struct AutoCorrection: Sendable, Equatable, Codable {
    /// White balance: the model's cast estimate, its spread and confidence, the skin cue and the cast corrected.
    public struct WhiteBalance: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey {
            case estimate, spread, confidence, colour, skin, brightAchromatic = "bright_achromatic", amount
            case corrected, gains, neutral
        }

        /// The illuminant the model found, as log(R/G), log(B/G) of a neutral surface under it.
        public var estimate = LogChroma.neutral
        /// The posterior's spread around its peak (log units): the lower, the surer.
        public var spread = 0.0
        /// The model's calibrated confidence, 0…1: the share of the estimate it warrants removing.
        public var confidence = 0.0
        /// 0 for a black-and-white photo (no cast to remove), 1 for colour.
        public var colour = 1.0
        /// Skin in face boxes relative to typical skin, when there are faces (reported; see docs/CORRECTION.md).
        @NullEncoded public var skin: LogChroma? = nil
        /// Mean of the brightest unclipped pixels when they form one achromatic surface (a white backdrop).
        @NullEncoded public var brightAchromatic: LogChroma? = nil
        /// Share of the estimate removed: confidence × strength (× colour), or 1 for a kept white backdrop.
        public var amount = 0.0
        /// The illuminant actually corrected (estimate × amount).
        public var corrected = LogChroma.neutral
        /// The linear-light channel gains that correct it (green 1, except with a neutral reference, whose gains
        /// also keep or set its level).
        public var gains = SIMD3<Double>(1, 1, 1)
        /// The surface the user said is neutral, when there is one: it sets the gains instead of the model.
        @NullEncoded public var neutral: NeutralReference? = nil
    }

    /// Black and white points.
    public struct Levels: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey {
            case measuredBlack = "measured_black", veil, measuredWhite = "measured_white", black, white, kept, airlight
        }

        /// 0.5th percentile of each pixel's smallest channel (linear), on the model's copy.
        public var measuredBlack = 0.0
        /// The part of that black above good photos' blacks (the model's threshold, set on its validation split).
        public var veil = 0.0
        /// The colour of the black point (smallest channel 1; each channel's black is black × airlight): grey,
        /// except for a veil a shoot shares, which takes its light's colour, each channel at most its own 0.5th
        /// percentile.
        public var airlight = SIMD3<Double>(1, 1, 1)
        /// 99.5th percentile of each pixel's largest channel (linear).
        public var measuredWhite = 1.0
        /// Black point applied (mapped to 0), times `airlight` on each channel.
        public var black = 0.0
        /// Share of the veil, and of the contrast and vibrance that follow it, kept within the default's budget
        /// (`AutoCorrection.unvouchedBudget`); 1 when the whole fits. Under a veil the shoot shares, which its
        /// photos vouch for, the share of the contrast and vibrance alone.
        public var kept = 1.0
        /// White point applied (mapped to 1; below 1 only for a kept white backdrop).
        public var white = 1.0

        /// Whether the model found a veil and some of it is removed (a black point asked for above 100 % alone is
        /// not a veil: contrast and vibrance stay off).
        public var veilRemoved: Bool { veil > 0 && black > 0 }
    }

    /// Exposure.
    public struct Exposure: Sendable, Equatable, Codable {
        enum CodingKeys: String, CodingKey {
            case key, estimate, spread, confidence, faceKey = "face_key", faceStops = "face_stops", stops
        }

        /// Geometric-mean luminance before correction.
        public var key = 0.0
        /// The model's exposure correction (stops).
        public var estimate = 0.0
        /// The posterior's spread (stops).
        public var spread = 0.0
        /// The model's calibrated confidence, 0…1.
        public var confidence = 0.0
        /// Geometric-mean luminance of the faces' centres after the model's correction (nil: no faces).
        @NullEncoded public var faceKey: Double? = nil
        /// Stops the faces add: half-way to the natural face range when they are outside it and stand out from
        /// their frame the same way (darker than the frame below the range, brighter above it).
        public var faceStops = 0.0
        /// The faces are outside the natural range but stand out from their frame the other way (a face lit
        /// brighter than a dark stage): the light chosen, so they add nothing. `--explain` says so.
        public var facesAsLit = false
        /// Stops applied.
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
        enum CodingKeys: String, CodingKey {
            case meanSaturation = "mean_saturation", amount, protectSkin = "protect_skin"
        }

        /// Mean saturation, (max − min) / max of encoded values (after the previous stages).
        public var meanSaturation = 0.0
        /// Boost for unsaturated colours (saturation × (1 + amount·(1 − saturation))).
        public var amount = 0.0
        /// Whether skin hues are left out.
        public var protectSkin = false
    }

    /// The settings the plan was made with.
    @CorrectionPreset.Settings public var settings: CorrectionPreset
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
    /// Which model decided (SHA-256 of its parameters; nil when nothing was planned).
    @NullEncoded public var model: String? = nil
    /// With `--shoot`: the shoot's estimate this photo was corrected with, and the photo's own (nil otherwise).
    @NullEncoded public var shoot: ShootReport? = nil

    enum CodingKeys: String, CodingKey {
        case settings, model, whiteBalance = "white_balance", levels, exposure, contrast, vibrance, shoot
    }

    /// An identity plan (nothing measured, nothing corrected).
    public init(settings: CorrectionPreset = CorrectionPreset()) { self.settings = settings }

    /// True when the transform is the identity, so the stage can be left out of the cube.
    public var isIdentity: Bool {
        !settings.enabled || (whiteBalance.gains == SIMD3(1, 1, 1) && levels.black == 0 && levels.white == 1
                              && exposure.stops == 0 && contrast.amount == 0 && vibrance.amount == 0)
    }
}

// MARK: - Planning

extension AutoCorrection {
    /// Typical skin under D65 in log-chromaticity (Macbeth "light skin" and "dark skin" patches: log R/G 0.57 and
    /// 0.71, log B/G −0.31 and −0.37).
    public static let typicalSkin = LogChroma(red: 0.64, blue: -0.34)
    /// Faces of well-exposed portraits: geometric-mean linear luminance of the face centre.
    public static let naturalFaceKey = 0.10...0.50

    /// The model shipped with LookStudio, loaded once per process.
    static let shipped: Result<CorrectionModel, CorrectionModelError> = {
        do throws(CorrectionModelError) {
            return .success(try CorrectionModel.bundled())
        } catch {
            return .failure(error)
        }
    }()

    /// Plans the correction of one analysed image with `model` (nil: the shipped one): the learned cast and
    /// exposure applied as far as their confidence warrants, the measured veil, each scaled by `settings`. A
    /// `neutral` reference replaces the model's cast whole, whatever the white balance strength (the user pointed at
    /// it), and with a target level the model's exposure too.
    /// With `shoot`, the shoot's cast and exposure replace the photo's own estimates, and a veil the shoot's photos
    /// share replaces the photo's own.
    public static func plan(_ analysis: CorrectionAnalysis, settings: CorrectionPreset = CorrectionPreset(),
                            model given: CorrectionModel? = nil, neutral: NeutralReference? = nil,
                            shoot: (estimate: ShootEstimate, photo: ShootPhoto)? = nil) throws(CorrectionError)
        -> AutoCorrection {
        var plan = AutoCorrection(settings: settings)
        guard settings.enabled, !analysis.samples.isEmpty, !analysis.small.isEmpty else { return plan }
        let model = try Self.model(given)
        plan.model = model.bodyHash
        let estimate: CorrectionEstimate
        if let shoot {
            estimate = shoot.estimate.estimate(for: shoot.photo)
            plan.shoot = ShootReport(shoot: shoot.estimate, own: shoot.photo.own)
        } else {
            estimate = model.analyse(small: analysis.small)
        }
        // A veil the shoot's photos share is vouched for by them and removed whole; the contrast and vibrance that
        // follow it are not (a flat subject stays flat once its veil is gone), so they keep within the budget.
        let vouched = (shoot?.estimate.veil ?? 0) > 0
        return plan.withinBudget(samples: analysis.scattered, vouched: vouched) { base, keep in
            staged(base, analysis: analysis, estimate: estimate, neutral: neutral, keep: keep, vouched: vouched)
        }
    }

    /// Plans every stage on `base` (settings, model and shoot set); `keep` scales the veil's black (unless
    /// `vouched`), contrast and vibrance for the budget of `withinBudget`.
    private static func staged(_ base: AutoCorrection, analysis: CorrectionAnalysis, estimate: CorrectionEstimate,
                               neutral: NeutralReference?, keep: Double, vouched: Bool) -> AutoCorrection {
        var plan = base
        var samples = analysis.samples
        var faces = analysis.faceSamples
        plan.exposure.key = LinearMeasure.key(samples)
        // A backdrop is found before the white point lifts it to white (and out of the unclipped pixels).
        plan.whiteBalance.brightAchromatic = plan.settings.keepWhite ? Self.brightAchromatic(samples) : nil
        plan.levels.kept = keep
        plan.planLevels(samples, estimate: estimate, vouched: vouched)
        samples = samples.map(plan.levelsMap)
        faces = faces.map(plan.levelsMap)
        plan.planWhiteBalance(samples, faces: faces, estimate: estimate, neutral: neutral)
        let gains = SIMD3<Float>(plan.whiteBalance.gains)
        if plan.whiteBalance.gains != SIMD3(1, 1, 1) {
            samples = samples.map { $0 * gains }
            faces = faces.map { $0 * gains }
        }
        plan.planExposure(faces: faces, estimate: estimate)
        let exposureStep = plan
        samples = samples.map { exposureStep.exposureMap($0) }
        plan.planContrast(samples)
        let contrastStep = plan
        samples = samples.map { contrastStep.contrastMap($0) }
        plan.planVibrance(samples)
        return plan
    }

    /// `given`, else the shipped model (or why it could not be loaded).
    static func model(_ given: CorrectionModel?) throws(CorrectionError) -> CorrectionModel {
        switch (given, shipped) {
        case (let given?, _): return given
        case (nil, .success(let loaded)): return loaded
        case (nil, .failure(let error)): throw .model(error.description)
        }
    }

    /// What one analysed photo contributes to its shoot's estimate (`correct --shoot`).
    public static func shootPhoto(_ analysis: CorrectionAnalysis, model given: CorrectionModel? = nil)
        throws(CorrectionError) -> ShootPhoto {
        try model(given).evidence(small: analysis.small)
    }

    /// The shoot's estimate from its photos'.
    public static func shootEstimate(_ photos: [ShootPhoto], model given: CorrectionModel? = nil)
        throws(CorrectionError) -> ShootEstimate {
        try model(given).shoot(photos)
    }

    /// The share of an estimate a strength applies: up to 100 % the confidence-limited share, above it on towards
    /// the whole estimate (200 %: all of it, however unsure).
    static func share(confidence: Double, strength percent: Double) -> Double {
        let s = percent / 100
        return s <= 1 ? confidence * s : confidence + (1 - confidence) * min(1, s - 1)
    }

    private mutating func planLevels(_ samples: [SIMD3<Float>], estimate: CorrectionEstimate, vouched: Bool) {
        // The model measures the black on its own copy (the same 0.5th percentile of the smallest channel) and
        // removes up to 100 % only what lies above good photos' blacks: its veil, the share of the measured black
        // it is sure of. Above 100 % on towards the whole measured black, as the cast and exposure go on towards
        // their whole estimates: a user's dehaze for a veil too light for the model to tell from bright content.
        levels.veil = estimate.veil
        var mins = samples.map { $0.min() }, maxs = samples.map { $0.max() }
        levels.measuredBlack = LinearMeasure.quantile(&mins, 0.005)
        levels.measuredWhite = LinearMeasure.quantile(&maxs, settings.keepWhite ? 0.9 : 0.995)
        let sure = levels.measuredBlack > 0
            ? min(1, (vouched ? 1 : levels.kept) * estimate.veil / levels.measuredBlack) : 0
        levels.black = levels.measuredBlack * Self.share(confidence: sure, strength: settings.levels)
        if settings.keepWhite && levels.measuredWhite < 1 {
            // A white backdrop is meant to be white: its 90th percentile becomes white.
            levels.white = 1 + (max(levels.measuredWhite, 0.05) - 1) * min(1, settings.levels / 100)
        }
        if levels.white - levels.black < 0.05 { levels.black = 0; levels.white = 1 }
        if abs(levels.white - 1) < 1e-4 { levels.white = 1 }
        if levels.black < 1e-5 { levels.black = 0 }
        levels.airlight = SIMD3(1, 1, 1)
        if levels.black > 0, estimate.airlight != SIMD3(1, 1, 1) {
            // A channel loses no more than its own darkest 0.5 % hold: a wrong airlight colour then clips no more
            // of a channel than the grey black point clips of the smallest.
            for c in 0..<3 {
                var channel = samples.map { $0[c] }
                levels.airlight[c] = min(estimate.airlight[c],
                                         max(1, LinearMeasure.quantile(&channel, 0.005) / levels.black))
            }
        }
    }

    private mutating func planWhiteBalance(_ samples: [SIMD3<Float>], faces: [SIMD3<Float>],
                                           estimate: CorrectionEstimate, neutral: NeutralReference?) {
        var wb = WhiteBalance()
        wb.brightAchromatic = whiteBalance.brightAchromatic
        // The model reports the shift the cast caused (log G/R, log G/B); the illuminant is its opposite.
        wb.estimate = LogChroma(red: -estimate.cast.x, blue: -estimate.cast.y)
        wb.spread = estimate.castSpread
        wb.confidence = estimate.castAmount
        // A black-and-white photo has no cast: its pixels are grey whatever the model's prior says. Below 2 %
        // mean saturation (JPEG chroma noise on grey) nothing is removed, from 4 % (a muted colour photo) all.
        wb.colour = Self.ramp(Self.meanSaturation(samples), from: 0.02, to: 0.04)
        if faces.count >= 50 {
            let skin = faces.filter { luminance($0) > 0.02 && $0.max() < 0.98 }
            if skin.count >= 50 {
                let mean = LogChroma(LinearMeasure.minkowski(skin, p: 1))
                wb.skin = LogChroma(red: mean.red - Self.typicalSkin.red, blue: mean.blue - Self.typicalSkin.blue)
            }
        }
        if let neutral {
            // A point on this photo passed through this photo's black point before the gains, so it is read after
            // it; a card's gains were measured on its own photo and hold for the shoot's light as they are.
            let colour = neutral.kind == .point ? levelsMapD(neutral.measured) : neutral.measured
            wb.neutral = neutral
            wb.amount = 1
            wb.corrected = LogChroma(colour)
            wb.gains = neutral.gains(for: colour)
            whiteBalance = wb
            return
        }
        if let backdrop = wb.brightAchromatic {
            // The White Backgrounds preset: the backdrop is a white, whatever the model's prior over casts.
            wb.amount = min(1, settings.whiteBalance / 100)
            wb.corrected = backdrop.scaled(wb.amount)
        } else {
            wb.amount = Self.share(confidence: wb.confidence, strength: settings.whiteBalance) * wb.colour
            wb.corrected = wb.estimate.scaled(wb.amount)
        }
        if wb.corrected.magnitude < 1e-4 { wb.corrected = .neutral }
        wb.gains = wb.corrected == .neutral ? SIMD3(1, 1, 1) : SIMD3(exp(-wb.corrected.red), 1, exp(-wb.corrected.blue))
        whiteBalance = wb
    }

    /// Mean chromaticity of the brightest unclipped 20 % when they hold together (most within 0.1 of their mean)
    /// and are not saturated: a white backdrop under the cast.
    static func brightAchromatic(_ samples: [SIMD3<Float>]) -> LogChroma? {
        let unclipped = samples.filter { $0.max() < 0.98 && luminance($0) > 0.05 }
        guard unclipped.count >= 200 else { return nil }
        var lum = unclipped.map(luminance)
        let threshold = Float(LinearMeasure.quantile(&lum, 0.8))
        let bright = unclipped.filter { luminance($0) >= threshold }
        let mean = LogChroma(LinearMeasure.minkowski(bright, p: 1))
        guard mean.magnitude < 0.5 else { return nil }
        let close = bright.count { LogChroma(SIMD3<Double>($0)).distance(to: mean) < 0.1 }
        return Double(close) / Double(bright.count) >= 0.6 ? mean : nil
    }

    private mutating func planExposure(faces: [SIMD3<Float>], estimate: CorrectionEstimate) {
        exposure.estimate = estimate.exposure
        exposure.spread = estimate.exposureSpread
        exposure.confidence = estimate.exposureAmount
        var stops = estimate.exposure * Self.share(confidence: estimate.exposureAmount, strength: settings.exposure)
        if faces.count >= 50 {
            // Faces are a second cue: a face still outside the natural range after the model's correction is
            // brought half-way (in stops) to its edge — but only when it also stands out from its own frame that
            // way. Metering fooled by a bright background leaves the face darker than the frame, a flash lights it
            // brighter than a dark one; a face lit brighter than a dark stage or night around it, or darker than
            // snow around it, is the light the photographer chose (measured: a low-key stage photo, over-exposed,
            // was brightened by the range alone — the realistic bench's worst case, docs/CORRECTION.md).
            let own = LinearMeasure.key(faces)
            let key = own * pow(2, stops)
            exposure.faceKey = key
            let r = Self.naturalFaceKey
            var extra = 0.0
            if key < r.lowerBound && own < exposure.key { extra = 0.5 * log2(r.lowerBound / key) }
            if key > r.upperBound && own > exposure.key { extra = 0.5 * log2(r.upperBound / key) }
            exposure.facesAsLit = !r.contains(key) && extra == 0
            exposure.faceStops = extra * min(2, settings.exposure / 100)
            stops += exposure.faceStops
        }
        // A white backdrop is meant to be bright.
        if settings.keepWhite { stops = max(0, stops) }
        // A grey level asked for sets the exposure through the reference's gains.
        if whiteBalance.neutral?.target != nil { stops = 0 }
        exposure.stops = abs(stops) < 0.01 ? 0 : max(-1.5, min(2, stops))
    }

    private mutating func planContrast(_ samples: [SIMD3<Float>]) {
        // Only where a veil was found and removed: a flat subject (fur, a wall, fog) is meant to be flat.
        let veil = levels.veilRemoved ? 1.0 : 0
        var logs = samples.map { log2(max(1e-4, luminance($0))) }
        let lo = LinearMeasure.quantile(&logs, 0.05), hi = LinearMeasure.quantile(&logs, 0.95)
        contrast.spreadStops = hi - lo
        // Good photos span 2.5 stops or more between their 5th and 95th percentiles (a cat's fur: 2.9; most 4…13);
        // a veiled image still flatter after its black point gets a gentle S-curve, at most slope 1.15 at mid-grey.
        let amount = 0.15 * Self.ramp(contrast.spreadStops, from: 2.5, to: 1.5) * min(2, settings.contrast / 100) * veil
            * levels.kept
        contrast.amount = amount < 0.005 ? 0 : amount
    }

    /// Mean saturation, (max − min) / max of encoded values, over samples above near-black.
    ///
    /// The encoding rises with its input, so the encoded max and min are the encodings of the linear max and min:
    /// two encodings a sample instead of three, computed on every core, then summed in order (the same sum on any
    /// number of cores). It is on `correct`'s critical path twice per image.
    static func meanSaturation(_ samples: [SIMD3<Float>]) -> Double {
        var values = [Double](repeating: .nan, count: samples.count)
        samples.withUnsafeBufferPointer { input in values.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let s = input, v = output
            let count = s.count, chunks = Swift.max(1, Swift.min(8, count / 4096))
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                for i in (count * k / chunks)..<(count * (k + 1) / chunks) {
                    let high = s[i].max()
                    guard high > 0.02 else { continue }
                    let top = ColorScience.srgb(fromLinear: Double(high))
                    v[i] = (top - ColorScience.srgb(fromLinear: Double(s[i].min()))) / top
                }
            }
        } }
        var sum = 0.0, n = 0
        for v in values where !v.isNaN {
            sum += v
            n += 1
        }
        return n == 0 ? 0 : sum / Double(n)
    }

    private mutating func planVibrance(_ samples: [SIMD3<Float>]) {
        vibrance.meanSaturation = Self.meanSaturation(samples)
        vibrance.protectSkin = settings.protectSkin
        // Colour photos average 0.2…0.5 saturation; a washed-out one (0.05…0.15) gets up to +30 % on its least
        // saturated colours. Below 0.03 the image is (nearly) black and white and is left so.
        let washed = Self.ramp(vibrance.meanSaturation, from: 0.15, to: 0.07)
        let colour = Self.ramp(vibrance.meanSaturation, from: 0.02, to: 0.04)
        // Only where a veil was found and removed, as for contrast: a grey beach or a misty morning is meant to be
        // muted.
        let veil = levels.veilRemoved ? 1.0 : 0
        let amount = 0.3 * washed * colour * min(2, settings.vibrance / 100) * veil * levels.kept
        vibrance.amount = amount < 0.005 ? 0 : amount
    }

    /// 0 at `from`, 1 at `to`, linear between and clamped (either direction).
    static func ramp(_ x: Double, from a: Double, to b: Double) -> Double {
        min(1, max(0, (x - a) / (b - a)))
    }
}
