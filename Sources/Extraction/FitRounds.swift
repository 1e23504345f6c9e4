import ColorManagement
import ImageIO
import LookCore

/// The rounds of `LookExtractor.fit`: what carries from one round to the next, and each round's steps.
///
/// The first round bins every pixel with weight 1 and solves the lattice coarse to fine. Each later round undoes
/// the after images' modelled loss under the current look (a JPEG file's compression, 4:2:0 chroma), estimates
/// each pair's vignette, bins the pixels weighted against the current look and solves again from the last fit.
struct FitRounds {
    /// The pairs as given.
    let pairs: [(before: PairImage, after: PairImage)]
    let settings: ExtractionSettings
    /// Each after image's JPEG compression, where the JPEG model applies to it.
    let compressed: [JPEGCompression?]
    /// The space each modelled JPEG was compressed in, where its samples were converted from it.
    let spaces: [JPEGLoss.FileSpace?]
    /// The before colours the vignette estimate reads, the same every round.
    let vignetteColours: [[Float]]
    /// Rounds planned after the first: the robust iterations and the JPEG model's extra rounds.
    let planned: Int
    /// The lattice sizes the first round climbs, ending at the look's.
    let sizes: [Int]

    /// Rounds done.
    var round = 0
    /// The pairs as fitted: a lossy after image with its loss (a JPEG file's own compression, or 4:2:0 chroma
    /// found in the pixels) undone by the current look.
    var working: [(before: PairImage, after: PairImage)]
    /// The current look.
    var cube: ColorCube
    /// The lattice deviation from identity the current look was made from; nil before the first solve.
    var deviation: [SIMD4<Double>]?
    /// Each pair's vignette under the look of the round before.
    var gains: [RadialGain?]
    /// The vignettes' corner gains as the last round found them.
    var previousCorners: [Float?]
    /// A lossless after image's chroma upsampling, where its pixels show 4:2:0 chroma (decided in round 1).
    var subsampled: [ChromaSubsampling.Upsampling?]
    /// The JPEG model's prediction of each compressed after image under the current look.
    var predictions: [JPEGLoss.Prediction?]
    /// The JPEG rounds' fits since the last extrapolation.
    var fits: [[SIMD4<Double>]] = []

    /// Rounds for `pairs` (each already aligned to one size), none done yet.
    init(pairs: [(before: PairImage, after: PairImage)], settings: ExtractionSettings) throws {
        self.pairs = pairs
        self.settings = settings
        let compressed = pairs.map { settings.jpegModel ? $0.after.compression : nil }
        self.compressed = compressed
        spaces = try zip(pairs, compressed).map { p, modelled throws(ExtractionError) in
            modelled == nil ? nil : try p.after.compressedIn.map { c throws(ExtractionError) in
                try JPEGLoss.FileSpace(c)
            }
        }
        let jpegPixels = zip(pairs, compressed).reduce(0) { $0 + ($1.1 == nil ? 0 : $1.0.before.rgb.count / 3) }
        planned = settings.robustIterations
            + LookExtractor.jpegRounds(settings.jpegExtraRounds, pixels: jpegPixels)
        vignetteColours = pairs.map { RadialGain.strided($0.before.rgb, width: $0.before.width,
                                                         height: $0.before.height) }
        var sizes = [settings.size]
        while let s = sizes.first, s > 9 { sizes.insert((s + 1) / 2, at: 0) }
        self.sizes = sizes
        working = pairs
        cube = try ColorCube.identity(size: settings.size)
        gains = [RadialGain?](repeating: nil, count: pairs.count)
        previousCorners = [Float?](repeating: nil, count: pairs.count)
        subsampled = [ChromaSubsampling.Upsampling?](repeating: nil, count: pairs.count)
        predictions = [JPEGLoss.Prediction?](repeating: nil, count: pairs.count)
    }

    /// The first round: every pixel weighs 1 (there is no look yet to judge it by) and the lattice climbs coarse to
    /// fine. Returns what the pairs' colours cover, measured on its samples.
    mutating func fitPlainly(workingSpace: ColorProfile,
                             progress: (@Sendable (_ round: Int, _ planned: Int) -> Void)?) throws -> PairCoverage {
        progress?(round + 1, planned + 1)
        let (samples, cells) = try binnedSamples(plain: true)
        let coverage = try PairCoverage(samples: samples, cells: cells, settings: settings,
                                        workingSpace: workingSpace)
        try solve(samples)
        round += 1
        return coverage
    }

    /// One reweighting round after the first; false, having changed nothing but the after images' restoration and
    /// the vignettes, when the rounds are done.
    mutating func refit(progress: (@Sendable (_ round: Int, _ planned: Int) -> Void)?) throws -> Bool {
        try restoreAfterImages()
        estimateVignettes()
        let corners = gains.map { $0?.corner }
        if finished(corners: corners) { return false }
        progress?(round + 1, planned + 1)
        // The robust weights judge each pixel against the round before's look; when a vignette is first found
        // that look still carries it colour by colour (the corners' colours fitted darker), so the corners,
        // divided by the vignette now, would look like outliers to it and be cut for good (a redescending
        // weight never lets them back). That round is fitted plainly again, as the first was.
        let appeared = zip(corners, previousCorners).contains { now, before in now != nil && before == nil }
        previousCorners = corners
        try solve(try binnedSamples(plain: appeared).samples)
        round += 1
        return true
    }

    /// Undoes each after image's modelled loss under the current look: a JPEG file's compression and, in a
    /// lossless file, 4:2:0 chroma its pixels show.
    mutating func restoreAfterImages() throws {
        for k in pairs.indices {
            guard let compression = compressed[k] else { continue }
            // Last round's codes go before this round's are made (36 MB at 12 MP).
            predictions[k] = nil
            predictions[k] = try JPEGLoss.restore(&working[k].after, before: pairs[k].before, after: pairs[k].after,
                                                  cube: cube, interpolation: settings.interpolation,
                                                  compression: compression, space: spaces[k],
                                                  relaxation: settings.jpegRelaxation)
        }
        guard settings.chromaSubsamplingModel else { return }
        for k in pairs.indices where compressed[k] == nil && (round == 1 || subsampled[k] != nil) {
            if round == 1 {
                // Decided on a central window (2×2 blocks stay aligned): a full 12 MP pass costs 0.5 s.
                let before = pairs[k].before.centralWindow(512), after = pairs[k].after.centralWindow(512)
                // A file from a codec that subsamples chroma needs less evidence than a PNG that was once a
                // JPEG: only that S(P) explains some of the residual rather than adding to it.
                subsampled[k] = ChromaSubsampling.upsampling(
                    after: after, prediction: before.applying(cube, interpolation: settings.interpolation),
                    ratio: pairs[k].after.lossyCodec == nil ? 0.8 : 0.95)
            }
            if let upsampling = subsampled[k] {
                let prediction = pairs[k].before.applying(cube, interpolation: settings.interpolation)
                working[k].after = ChromaSubsampling.restored(after: pairs[k].after, prediction: prediction,
                                                              upsampling: upsampling)
            }
        }
    }

    /// Each pair's vignette under the current look.
    mutating func estimateVignettes() {
        for k in working.indices {
            gains[k] = LookExtractor.vignette(before: working[k].before, colours: vignetteColours[k],
                                              after: working[k].after, cube: cube, settings: settings)
        }
    }

    /// Whether the rounds are done. A vignette is estimated against the look of the round before, which the next
    /// fit improves; past the planned rounds, they go on (at most `vignetteRounds` more) while its estimate still
    /// moves.
    func finished(corners: [Float?]) -> Bool {
        guard round > max(0, planned) else { return false }
        let moving = zip(corners, previousCorners).contains { now, before in
            guard let now, let before else { return now != nil || before != nil }
            return abs(now - before) > 0.0005
        }
        return !moving || round > planned + LookExtractor.vignetteRounds
    }

    /// The round's samples and the lattice cells they occupy: every pixel weighing 1 when `plain`, else weighed
    /// against the current look.
    func binnedSamples(plain: Bool) throws -> (samples: [FitSample], cells: [Bool]) {
        let cutoff = plain ? nil : LookExtractor.tukeyCutoff(pairs: working, cube: cube, gains: gains,
                                                             settings: settings)
        let spatial = plain ? nil : working.indices.map { k in
            LookExtractor.spatialWeights(before: working[k].before, after: working[k].after, gain: gains[k],
                                         cube: cube, settings: settings)
        }
        // Noisier after images (JPEG) need more pixels for a bin's mean to be as sure: the half-weight count
        // grows with the residual variance over that of 8-bit rounding (cutoff / 3 is the robust scale,
        // floored at one code), and λ keeps its noise-free reference so sparse noisy bins yield to smoothness.
        let scale = Double(cutoff ?? 3 / 255) / 3 * 255
        let halfWeight = settings.binHalfWeightPixels * (settings.noiseWeighting ? scale * scale : 1)
        let (samples, cells) = LookExtractor.binnedSamples(pairs: working, cube: plain ? nil : cube, cutoff: cutoff,
                                                           halfWeight: halfWeight, spatial: spatial, gains: gains,
                                                           predictions: predictions, settings: settings)
        guard !samples.isEmpty else { throw ExtractionError.nothingToFit }
        return (samples, cells)
    }

    /// Fits the lattice to `samples` and makes it the current look. Every third fit of a JPEG pair's rounds is
    /// extrapolated from the last three (`JPEGLoss.extrapolated`).
    mutating func solve(_ samples: [FitSample]) throws {
        // λ relative to the data weight the bins would have with clean 8-bit data (the noise scaling lowers the
        // weights, not the curvature penalty).
        let reference = samples.reduce(0.0) { $0 + $1.pixels / ($1.pixels + settings.binHalfWeightPixels) }
        let smoothness = settings.smoothness * reference / max(1e-12, samples.reduce(0.0) { $0 + $1.weight })
        var latest = latticeDeviation(samples, smoothness: smoothness)
        if compressed.contains(where: { $0 != nil }), round >= 1 {
            fits.append(latest)
            if fits.count == 3 {
                latest = JPEGLoss.extrapolated(fits) ?? latest
                fits.removeAll()
            }
        }
        deviation = latest
        cube = try LookExtractor.cubeFrom(latest, size: settings.size)
    }

    /// The lattice's deviation from identity fitted to `samples`. The lattice fits the deviation from a global
    /// model, which it follows beyond the pairs' colours. The first round climbs coarse to fine so the curvature
    /// penalty's slow modes (extrapolation far from data) start near their answer; later rounds start from the
    /// previous fit.
    func latticeDeviation(_ samples: [FitSample], smoothness: Double) -> [SIMD4<Double>] {
        let useGlobal = settings.globalModel
        let model = useGlobal ? AdditiveModel.fit(samples, smoothness: smoothness) : .identity
        var solved = deviation
        var latest: [SIMD4<Double>] = []
        for size in (round == 0 ? sizes : [settings.size]) {
            let global = LookExtractor.nodeDeviation(model, size: size)
            let solver = LatticeSolver(size: size, interpolation: settings.interpolation,
                                       samples: useGlobal ? LookExtractor.residualSamples(samples, global: global,
                                                                                          size: size,
                                                                                          settings: settings)
                                                          : samples,
                                       smoothness: smoothness)
            let start = solved.map { d in
                zip(LookExtractor.resample(d, from: LookExtractor.deviationSize(d), to: size), global).map { $0 - $1 }
            }
            latest = zip(solver.solve(initial: start), global).map { $0 + $1 }
            solved = latest
        }
        return latest
    }
}

/// What the pairs' colours cover, measured once, on the first round's samples (every pixel weighing 1).
struct PairCoverage {
    /// The look's lattice cells holding a sample.
    var observed: [Bool]
    /// The share of a `LookExtractor.coverageCells`³ lattice's cells holding a sample.
    var coverage: Double
    /// The share of a typical photo's pixels whose colours the pairs show (`TypicalCoverage`).
    var typicalCoverage: Double
    /// Which colours the pairs show in enough pixels.
    var shownColours: ShownColours
    /// The samples on the grey axis, which the fitted diagonal is checked against.
    var greySamples: [FitSample]

    /// The coverage of `samples`, which occupy `cells` of the look's lattice.
    init(samples: [FitSample], cells: [Bool], settings: ExtractionSettings, workingSpace: ColorProfile) throws {
        observed = cells
        coverage = LookExtractor.coverage(of: samples)
        let pixels = try TypicalCoverage.cellPixels(of: samples, workingSpace: workingSpace)
        typicalCoverage = TypicalCoverage.share(cellPixels: pixels, halfWeight: settings.binHalfWeightPixels)
        shownColours = ShownColours(cells: pixels.map { $0 >= settings.binHalfWeightPixels })
        greySamples = samples.filter { s in
            max(s.before.x, s.before.y, s.before.z) - min(s.before.x, s.before.y, s.before.z) < 0.03
        }
    }
}
