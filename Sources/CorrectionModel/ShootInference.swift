import Foundation

/// What one photo contributes to its shoot's estimate: its cast log-likelihood, a sample of its pixels for the
/// exposure (read after the shoot's gains), its black and its own estimate.
public struct PhotoEvidence: Sendable {
    /// The photo's own estimate, as `correct` makes it without `--shoot`.
    public let own: CorrectionEstimate
    /// Its black: the 0.5th percentile of each pixel's smallest channel on the model's copy (linear).
    let black: Double
    let castLikelihood: [Double]?
    /// Square roots of the normalised chroma histogram: two photos' dot product is their Bhattacharyya coefficient.
    let castRoots: [Double]
    let exposureSample: [SIMD3<Float>]
    /// The exposure's histogram is read from at most this many pixels of the model's copy: a 128-bin histogram of
    /// that many is as good as of all of them, and a shoot of hundreds of photos stays within a few hundred MB.
    static let exposureSampleSize = 16_384

    /// The exposure sample with `veil` of colour `airlight` removed in place of the photo's own (0: the photo's
    /// own, as sampled).
    func exposureSample(veil: Double, airlight: SIMD3<Double> = SIMD3(1, 1, 1)) -> [SIMD3<Double>] {
        let v = own.veil
        guard veil > 0, veil != v || airlight != SIMD3(1, 1, 1) else { return exposureSample.map(SIMD3<Double>.init) }
        return exposureSample.map { x in (SIMD3<Double>(x) * (1 - v) + v - veil * airlight) / (1 - veil) }
    }
}

/// One cast and one exposure for a shoot (issue 53): the photos' likelihoods added, the prior once, and a
/// confidence from the joint posterior's spread joined with the standard error of the photos' own estimates.
public struct ShootEstimate: Sendable, Equatable, Codable {
    /// The spreads (low, high) between which the confidence falls from 1 to 0, chosen on simulated shoots of the
    /// validation split as the model's single-photo ramps were, untouched shoots of crops of one photo counted
    /// (scripts/train/shoot-eval.py --calibrate; docs/design/correction.md, "Shoots"): wider ramps moved untouched
    /// held-out shoots by up to 2.5–5.9 ΔE00. The model's own ramps belong to one photo's posterior. The exposure's
    /// is off (no shoot's spread is below 0.01); it holds for shoots counting as fewer than two independent scenes.
    public static let castRamp = [0.07, 0.08], exposureRamp = [0.0, 0.01]
    /// For shoots of two or more independent scenes, the exposure's significance z = |exposure| / effective spread
    /// between which its confidence rises from 0 to 1, chosen on the validation split as the ramps were
    /// (`shoot-eval.py --calibrate`): the posterior's spread grows with its estimate, so the spread alone cannot tell
    /// a fault from none. The same rule for the cast failed when a validation unit was left out (a shared palette
    /// passes for a cast), so the cast keeps its ramp.
    public static let exposureSignificance = [0.70, 0.75]

    enum CodingKeys: String, CodingKey {
        case photos, castPhotos = "cast_photos", exposurePhotos = "exposure_photos"
        case cast, castSpread = "cast_spread", castDisagreement = "cast_disagreement"
        case castAmount = "cast_amount", exposure, exposureSpread = "exposure_spread"
        case exposureDisagreement = "exposure_disagreement", exposureAmount = "exposure_amount", veil, airlight
        case independentPhotos = "independent_photos"
    }

    /// Photos pooled.
    public var photos = 1
    /// How many independent photos they count as for the cast and for the exposure (1…photos): photos that show
    /// much the same colours or tones count as fewer.
    public var castPhotos = 1.0, exposurePhotos = 1.0
    /// How many independent photos the shoot counts as by colours and tones together, read under the largest veil
    /// its blacks allow: under 2 it is one scene (crops, a burst), whose pooled estimate is no better than one photo's.
    public var independentPhotos = 1.0
    /// The shoot's cast, as the log-chroma shift (log G/R, log G/B) it caused.
    public var cast = SIMD2<Double>(0, 0)
    /// The joint posterior's spread (log units).
    public var castSpread = 0.0
    /// Spread of the photos' own cast estimates around their mean (log units; 0 for one photo).
    public var castDisagreement = 0.0
    /// Share of the cast removed: the model's ramp at sqrt(spread² + disagreement²/n).
    public var castAmount = 0.0
    /// The shoot's exposure correction (stops), read after its cast gains.
    public var exposure = 0.0
    /// The joint exposure posterior's spread (stops).
    public var exposureSpread = 0.0
    /// Spread of the photos' own exposure estimates (stops; 0 for one photo).
    public var exposureDisagreement = 0.0
    /// Share of the exposure applied, as for the cast.
    public var exposureAmount = 0.0
    /// A veil every photo shares (linear; 0: none found): removed from each photo in place of its own, whole, as
    /// the photos vouch for it.
    public var veil = 0.0
    /// The shared veil's colour (smallest channel 1; grey without one): removed per channel as veil × airlight.
    public var airlight = SIMD3<Double>(1, 1, 1)

    /// The estimate one photo is corrected with: the shoot's cast and exposure, and its veil if it has one (else
    /// the photo's own).
    public func estimate(for photo: PhotoEvidence) -> CorrectionEstimate {
        guard photos > 1 else { return photo.own }
        var e = photo.own
        if veil > 0 { (e.veil, e.airlight) = (veil, airlight) }
        e.cast = cast
        e.castSpread = castSpread
        e.castAmount = castAmount
        e.gains = SIMD3(exp(castAmount * cast.x), 1, exp(castAmount * cast.y))
        e.exposure = exposure
        e.exposureSpread = exposureSpread
        e.exposureAmount = exposureAmount
        e.stops = exposureAmount * exposure
        return e
    }
}

extension CorrectionModel {
    /// What a photo's copy (as `analyse(small:)` takes it) contributes to its shoot.
    public func evidence(small: [SIMD3<Float>]) -> PhotoEvidence {
        let (own, black) = analysis(small: small)
        let v = own.veil
        let pixels = small.map { v > 0 ? (SIMD3<Double>($0) - v) / (1 - v) : SIMD3<Double>($0) }
        let (hist, used) = castHistogram(pixels)
        let likelihood = castResponse(hist, used: used, prior: false)
        let step = max(1, pixels.count / PhotoEvidence.exposureSampleSize)
        let sample = stride(from: 0, to: pixels.count, by: step).map { SIMD3<Float>(pixels[$0]) }
        return PhotoEvidence(own: own, black: black,
                             castLikelihood: used >= 64 ? likelihood : nil,
                             castRoots: hist.map { ($0 / Double(max(1, used))).squareRoot() }, exposureSample: sample)
    }

    /// The shoot's estimate from its photos' evidence; a shoot of one photo is that photo's own estimate.
    public func shoot(_ photos: [PhotoEvidence]) -> ShootEstimate {
        var s = ShootEstimate()
        s.photos = photos.count
        guard photos.count > 1 else {
            let own = photos.first?.own ?? CorrectionEstimate()
            (s.cast, s.castSpread, s.castAmount) = (own.cast, own.castSpread, own.castAmount)
            (s.exposure, s.exposureSpread, s.exposureAmount) = (own.exposure, own.exposureSpread, own.exposureAmount)
            return s
        }
        let independent = independentUnderVeil(photos)
        s.independentPhotos = independent
        s.veil = ShootEstimate.commonVeil(blacks: photos.map(\.black), independent: independent)
        let voting = castVotes(photos, veil: s.veil)
        var gains = SIMD3<Double>(1, 1, 1)
        if !voting.isEmpty {
            // Photos of one scene (crops, a burst) are not independent evidence: the summed likelihood counts the
            // effective number of photos, n² / Σij BC(i, j) with BC the Bhattacharyya coefficient of their chroma
            // histograms (a common cast leaves it unchanged), so eight crops of one photo weigh about one.
            let nEff = Self.effectiveCount(voting.map(\.roots))
            s.castPhotos = nEff
            var summed = [Double](repeating: 0, count: chromaBias.count)
            for photo in voting {
                for (k, z) in photo.likelihood.enumerated() { summed[k] += z }
            }
            let weight = nEff / Double(voting.count)
            (s.cast, s.castSpread) = castSummary(zip(chromaBias, summed).map { Double($0) + weight * $1 })
            // Photos of different scenes that disagree about the light lower the confidence: the standard error of
            // their own estimates joins the joint posterior's spread, then the model's calibrated ramp decides.
            let own = voting.map(\.own)
            let mean = own.reduce(SIMD2<Double>(0, 0), +) / Double(own.count)
            s.castDisagreement = (own.map { (($0 - mean) * ($0 - mean)).sum() }.reduce(0, +)
                                  / Double(own.count)).squareRoot()
            let effective = (s.castSpread * s.castSpread
                             + s.castDisagreement * s.castDisagreement / nEff).squareRoot()
            s.castAmount = Self.ramp(effective, ShootEstimate.castRamp)
            gains = SIMD3(exp(s.castAmount * s.cast.x), 1, exp(s.castAmount * s.cast.y))
        }
        if s.veil > 0 { s.airlight = ShootEstimate.airlight(cast: s.cast) }
        var summed = [Double](repeating: 0, count: lumaBias.count)
        var own = [Double](), roots = [[Double]]()
        for photo in photos {
            let hist = exposureHistogram(photo.exposureSample(veil: s.veil, airlight: s.airlight), gains: gains)
            let total = Double(max(1, photo.exposureSample.count))
            let response = exposureResponse(hist, total: total, prior: false)
            for (k, z) in response.enumerated() { summed[k] += z }
            // Each photo's own exposure is read after the shoot's gains, as the shoot's is.
            own.append(exposureSummary(zip(response, lumaBias).map { $0 + Double($1) }).0)
            roots.append(hist.map { ($0 / total).squareRoot() })
        }
        let nEff = Self.effectiveCount(roots)
        s.exposurePhotos = nEff
        let weight = nEff / Double(photos.count)
        (s.exposure, s.exposureSpread) = exposureSummary(zip(lumaBias, summed).map { Double($0) + weight * $1 })
        let mean = own.reduce(0, +) / Double(own.count)
        s.exposureDisagreement = (own.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(own.count)).squareRoot()
        let effective = (s.exposureSpread * s.exposureSpread
                         + s.exposureDisagreement * s.exposureDisagreement / nEff).squareRoot()
        s.exposureAmount = independent >= 2
            ? Self.significance(abs(s.exposure) / max(effective, 1e-9), ShootEstimate.exposureSignificance)
            : Self.ramp(effective, ShootEstimate.exposureRamp)
        return s
    }

    /// The share of an estimate applied at significance `z`: none up to `r[0]`, all from `r[1]` on.
    static func significance(_ z: Double, _ r: [Double]) -> Double {
        min(1, max(0, (z - r[0]) / (r[1] - r[0])))
    }

    /// One photo's vote on the shoot's cast: its likelihood (without the prior), its chroma histogram's square
    /// roots and its own estimate.
    struct CastVote {
        let likelihood: [Double]
        let roots: [Double]
        let own: SIMD2<Double>
    }

    /// The photos' votes on the cast, each read after its own veil, or after the veil the shoot shares: a veil
    /// pulls every colour towards its airlight and so hides part of the cast, which is what colours that airlight.
    /// Photos with too few usable pixels (64) do not vote.
    func castVotes(_ photos: [PhotoEvidence], veil: Double) -> [CastVote] {
        guard veil > 0 else {
            return photos.compactMap { photo in
                photo.castLikelihood.map { CastVote(likelihood: $0, roots: photo.castRoots, own: photo.own.cast) }
            }
        }
        return photos.compactMap { photo in
            let (hist, used) = castHistogram(photo.exposureSample(veil: veil))
            guard used >= 64 else { return nil }
            let likelihood = castResponse(hist, used: used, prior: false)
            return CastVote(likelihood: likelihood, roots: hist.map { ($0 / Double(used)).squareRoot() },
                            own: castSummary(zip(chromaBias, likelihood).map { Double($0) + $1 }).0)
        }
    }

    /// How many independent photos the shoot counts as by colours and tones together, n² / Σij BC_chroma(i, j) ·
    /// BC_luma(i, j), once the largest veil its blacks allow (the lowest of them) is removed: a veil pulls every
    /// photo's colours towards its airlight, so read under it, different scenes look alike. Photos of one source
    /// often share a palette but seldom a tonal layout too, while crops of one photo share both.
    func independentUnderVeil(_ photos: [PhotoEvidence]) -> Double {
        let lowest = photos.map(\.black).min() ?? 0
        var chroma = [[Double]](), tones = [[Double]]()
        for photo in photos {
            let sample = photo.exposureSample(veil: lowest)
            let (hist, used) = castHistogram(sample)
            chroma.append(hist.map { ($0 / Double(max(1, used))).squareRoot() })
            let luma = exposureHistogram(sample, gains: SIMD3(1, 1, 1))
            tones.append(luma.map { ($0 / Double(max(1, sample.count))).squareRoot() })
        }
        return Self.effectiveCount(chroma, tones)
    }

    /// n² / Σij ⟨a_i, a_j⟩·⟨b_i, b_j⟩ over the n photos with pixels in their square-rooted histograms a (and b,
    /// when given): n for photos with nothing in common, 1 for copies of one, and photos count as one only where
    /// both histograms agree. A photo without usable pixels is no evidence of another scene, so it is not counted.
    static func effectiveCount(_ a: [[Double]], _ b: [[Double]]? = nil) -> Double {
        guard let b else { return effectiveCount(summing: a) }
        let gramA = gram(a), gramB = gram(b)
        let rows = a.indices.filter { gramA[$0][$0] > 0 && gramB[$0][$0] > 0 }
        guard rows.count > 1 else { return Double(min(a.count, 1)) }
        var total = 0.0
        for i in rows {
            for j in rows { total += gramA[i][j] * gramB[i][j] }
        }
        return min(Double(rows.count), Double(rows.count * rows.count) / total)
    }

    /// The count from one histogram each: Σij ⟨a_i, a_j⟩ is ‖Σi a_i‖², linear in the number of photos where the
    /// product of two counts needs every pair.
    private static func effectiveCount(summing a: [[Double]]) -> Double {
        let rows = a.filter { $0.reduce(0) { $0 + $1 * $1 } > 0 }
        guard rows.count > 1, let bins = rows.first?.count else { return Double(min(a.count, 1)) }
        var sum = [Double](repeating: 0, count: bins)
        for row in rows {
            for k in row.indices { sum[k] += row[k] }
        }
        let total = sum.reduce(0) { $0 + $1 * $1 }
        return min(Double(rows.count), Double(rows.count * rows.count) / total)
    }

    /// Every pair's inner product, ⟨x_i, x_j⟩.
    private static func gram(_ x: [[Double]]) -> [[Double]] {
        var g = [[Double]](repeating: [Double](repeating: 0, count: x.count), count: x.count)
        for i in x.indices {
            for j in i..<x.count {
                var sum = 0.0
                for k in x[i].indices { sum += x[i][k] * x[j][k] }
                (g[i][j], g[j][i]) = (sum, sum)
            }
        }
        return g
    }
}

extension ShootEstimate {
    /// The chance that one good photo's black reaches the model's veil threshold, which is the highest black of
    /// the 57 validation photos.
    static let singlePhotoChance = 1.0 / 57

    /// The veil a shoot's photos share. A common veil lifts every photo's black, so it shows in the lowest of them;
    /// good photos' blacks reach a level by chance, the lowest of n independent ones only as high as all n reach
    /// together. The veil is the lowest black less the level the lowest of `independent` good photos exceeds as
    /// rarely as one good photo exceeds the model's threshold: for two independent photos about good blacks' 87th
    /// percentile, for eight their 40th. Photos that count as fewer than two are one scene, whose black may be its
    /// content (a marble floor, a white backdrop): the photo's own veil decides, as without `--shoot`.
    ///
    /// A veil also predicts what lies above the lowest black: with it removed, the photos' blacks are good photos'
    /// again. A shoot of light subjects (stone, paper, snow) has a high lowest black too, but its photos' blacks
    /// spread far above it; so the veil stands only if no more of them stay above the single-photo level than
    /// good photos would by chance (a binomial tail under that same chance).
    static func commonVeil(blacks: [Double], independent: Double) -> Double {
        guard let lowest = blacks.min(), blacks.count >= 2, independent >= 2 else { return 0 }
        let veil = max(0, lowest - veilLevel(independent: min(independent, Double(blacks.count))))
        guard veil > 0 else { return 0 }
        let level = goodBlack(atPercent: 100 * (1 - singlePhotoChance))
        let above = blacks.filter { ($0 - veil) / (1 - veil) > level }.count
        return binomialTail(above, of: blacks.count, chance: singlePhotoChance) < singlePhotoChance ? 0 : veil
    }

    /// The level the lowest black of `independent` good photos exceeds as rarely as one good photo exceeds the
    /// model's threshold; it falls as the count grows.
    static func veilLevel(independent: Double) -> Double {
        goodBlack(atPercent: 100 * (1 - pow(singlePhotoChance, 1 / independent)))
    }

    /// The colour of a shared veil's airlight: the shoot's light scattered towards the camera, so the colour the
    /// cast the photos show gives a grey (its smallest channel 1). The whole cast, however sure: the photos vouch
    /// for the veil, and the cast's confidence decides only how much of the cast the white balance removes.
    static func airlight(cast: SIMD2<Double>) -> SIMD3<Double> {
        let grey = SIMD3(exp(-cast.x), 1, exp(-cast.y))
        return grey / grey.min()
    }

    /// Good photos' black at `percent` (0…100), interpolated between the table's percentiles.
    static func goodBlack(atPercent percent: Double) -> Double {
        let p = min(100, max(0, percent)), i = min(99, Int(p)), t = p - Double(i)
        return goodBlacks[i] + t * (goodBlacks[i + 1] - goodBlacks[i])
    }

    /// P(K ≥ k) for K binomial with `n` trials of `chance`.
    static func binomialTail(_ k: Int, of n: Int, chance: Double) -> Double {
        guard k > 0 else { return 1 }
        var term = pow(1 - chance, Double(n)), below = 0.0
        for j in 0..<min(k, n + 1) {
            below += term
            term *= Double(n - j) / Double(j + 1) * chance / (1 - chance)
        }
        return max(0, 1 - below)
    }
}
