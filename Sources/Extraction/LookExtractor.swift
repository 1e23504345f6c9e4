import CFitKernels
import ColorManagement
import Dispatch
import Foundation
import LookCore

/// Fits a look (a 3D cube) to one or more before/after pairs: binned samples, robust reweighting, a smooth lattice.
public enum LookExtractor {
    /// A typical coverage (`LookFit.typicalCoverage`) below this draws a warning: two thirds of a typical photo's
    /// colours are then extrapolated. A judgement on when a warning is worth its noise, not a fitted value: a
    /// single rich photo (a portrait, a landscape with sky) shows about half (docs/EXTRACT.md, "Coverage").
    public static let thinCoverage = 1.0 / 3
    /// Cells per axis of the lattice coverage is measured on, whatever the look's size: a 33³ look's. A share of
    /// a finer lattice's cells would fall with its size (at 129³ a photo covers under 0.5 %) while the colours the
    /// pairs show stay the same.
    public static let coverageCells = 32

    /// Fits a look to `pairs` (each already aligned to one size) in `workingSpace`. `names` label the pairs in
    /// warnings.
    public static func fit(pairs: [(before: PairImage, after: PairImage)], names: [String] = [],
                           settings: ExtractionSettings = ExtractionSettings(),
                           workingSpace: ColorProfile = ColorProfile(.sRGB),
                           progress: (@Sendable (_ round: Int, _ planned: Int) -> Void)? = nil) throws -> LookFit {
        guard !pairs.isEmpty else { throw ExtractionError.invalidInput("extracting a look needs at least one pair") }
        guard ColorCube.sizeRange.contains(settings.size), settings.size >= 3 else {
            throw ExtractionError.invalidInput("--size must be 3…256, got \(settings.size)")
        }
        for p in pairs where p.before.width != p.after.width || p.before.height != p.after.height {
            throw ExtractionError.invalidInput("a pair's images must have one size (use PairGeometry.aligned)")
        }
        let n = settings.size
        var sizes = [n]
        while let s = sizes.first, s > 9 { sizes.insert((s + 1) / 2, at: 0) }

        var deviation: [SIMD4<Double>]? = nil
        var cube = try ColorCube.identity(size: n)
        var observed: [Bool] = []
        var coverage = 0.0, typicalCoverage = 0.0
        var shownColours = ShownColours(cells: [])
        var greySamples: [FitSample] = []
        var gains = [RadialGain?](repeating: nil, count: pairs.count)
        var previousCorners: [Float?] = gains.map { _ in nil }
        var round = 0
        // The pairs as fitted: a lossy after image with its loss (a JPEG file's own compression, or 4:2:0 chroma
        // found in the pixels) undone by the current look.
        var working = pairs
        var subsampled = [ChromaSubsampling.Upsampling?](repeating: nil, count: pairs.count)
        let compressed = pairs.map { settings.jpegModel ? $0.after.compression : nil }
        let jpegPixels = zip(pairs, compressed).reduce(0) { $0 + ($1.1 == nil ? 0 : $1.0.before.rgb.count / 3) }
        let planned = settings.robustIterations
            + Self.jpegRounds(settings.jpegExtraRounds, pixels: jpegPixels)
        var fits: [[SIMD4<Double>]] = []
        // The before colours the vignette estimate reads, the same every round.
        let vignetteColours = pairs.map { RadialGain.strided($0.before.rgb, width: $0.before.width,
                                                             height: $0.before.height) }
        var predictions = [JPEGLoss.Prediction?](repeating: nil, count: pairs.count)
        let spaces = try zip(pairs, compressed).map { p, modelled throws(ExtractionError) in
            modelled == nil ? nil : try p.after.compressedIn.map { c throws(ExtractionError) in
                try JPEGLoss.FileSpace(c)
            }
        }
        while true {
            defer { round += 1 }
            if round > 0 {
                for k in pairs.indices {
                    guard let compression = compressed[k] else { continue }
                    // Last round's codes go before this round's are made (36 MB at 12 MP).
                    predictions[k] = nil
                    predictions[k] = try JPEGLoss.restore(&working[k].after, before: pairs[k].before,
                                                          after: pairs[k].after, cube: cube,
                                                          interpolation: settings.interpolation,
                                                          compression: compression,
                                                          space: spaces[k],
                                                          relaxation: settings.jpegRelaxation)
                }
            }
            if round > 0 && settings.chromaSubsamplingModel {
                for k in pairs.indices where compressed[k] == nil && (round == 1 || subsampled[k] != nil) {
                    if round == 1 {
                        // Decided on a central window (2×2 blocks stay aligned): a full 12 MP pass costs 0.5 s.
                        let before = pairs[k].before.centralWindow(512), after = pairs[k].after.centralWindow(512)
                        // A file from a codec that subsamples chroma needs less evidence than a PNG that was
                        // once a JPEG: only that S(P) explains some of the residual rather than adding to it.
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
            if round > 0 {
                for k in working.indices {
                    gains[k] = vignette(before: working[k].before, colours: vignetteColours[k],
                                        after: working[k].after, cube: cube, settings: settings)
                }
            }
            // A vignette is estimated against the look of the round before, which the next fit improves; past the
            // planned rounds, go on (at most `vignetteRounds` more) while its estimate still moves.
            let corners = gains.map { $0?.corner }
            if round > max(0, planned) {
                let moving = zip(corners, previousCorners).contains { now, before in
                    guard let now, let before else { return now != nil || before != nil }
                    return abs(now - before) > 0.0005
                }
                if !moving || round > planned + vignetteRounds { break }
            }
            progress?(round + 1, planned + 1)
            // The robust weights judge each pixel against the round before's look; when a vignette is first found
            // that look still carries it colour by colour (the corners' colours fitted darker), so the corners,
            // divided by the vignette now, would look like outliers to it and be cut for good (a redescending
            // weight never lets them back). That round is fitted plainly again, as the first was.
            let appeared = zip(corners, previousCorners).contains { now, before in now != nil && before == nil }
            previousCorners = corners
            let plain = round == 0 || appeared
            let cutoff = plain ? nil : tukeyCutoff(pairs: working, cube: cube, gains: gains, settings: settings)
            let spatial = plain ? nil : working.indices.map { k in
                spatialWeights(before: working[k].before, after: working[k].after, gain: gains[k], cube: cube,
                               settings: settings)
            }
            // Noisier after images (JPEG) need more pixels for a bin's mean to be as sure: the half-weight count
            // grows with the residual variance over that of 8-bit rounding (cutoff / 3 is the robust scale,
            // floored at one code), and λ keeps its noise-free reference so sparse noisy bins yield to smoothness.
            let scale = Double(cutoff ?? 3 / 255) / 3 * 255
            let halfWeight = settings.binHalfWeightPixels * (settings.noiseWeighting ? scale * scale : 1)
            let (samples, cells) = binnedSamples(pairs: working, cube: plain ? nil : cube, cutoff: cutoff,
                                                 halfWeight: halfWeight, spatial: spatial, gains: gains,
                                                 predictions: predictions, settings: settings)
            guard !samples.isEmpty else { throw ExtractionError.nothingToFit }
            if round == 0 {
                observed = cells
                coverage = Self.coverage(of: samples)
                let pixels = try TypicalCoverage.cellPixels(of: samples, workingSpace: workingSpace)
                typicalCoverage = TypicalCoverage.share(cellPixels: pixels, halfWeight: settings.binHalfWeightPixels)
                shownColours = ShownColours(cells: pixels.map { $0 >= settings.binHalfWeightPixels })
                greySamples = samples.filter { s in
                    max(s.before.x, s.before.y, s.before.z) - min(s.before.x, s.before.y, s.before.z) < 0.03
                }
            }
            // λ relative to the data weight the bins would have with clean 8-bit data (the noise scaling above
            // lowers the weights, not the curvature penalty).
            let reference = samples.reduce(0.0) { $0 + $1.pixels / ($1.pixels + settings.binHalfWeightPixels) }
            let smoothness = settings.smoothness * reference / max(1e-12, samples.reduce(0.0) { $0 + $1.weight })
            // The lattice fits the deviation from a global model, which it follows beyond the pair's colours.
            let useGlobal = settings.globalModel
            let model = useGlobal ? AdditiveModel.fit(samples, smoothness: smoothness) : .identity
            // The first round climbs coarse to fine so the curvature penalty's slow modes (extrapolation far
            // from data) start near their answer; later rounds start from the previous fit.
            for size in (round == 0 ? sizes : [n]) {
                let global = nodeDeviation(model, size: size)
                let solver = LatticeSolver(size: size, interpolation: settings.interpolation,
                                           samples: useGlobal ? residualSamples(samples, global: global, size: size,
                                                                                settings: settings) : samples,
                                           smoothness: smoothness)
                let start = deviation.map { d in
                    zip(resample(d, from: deviationSize(d), to: size), global).map { $0 - $1 }
                }
                deviation = zip(solver.solve(initial: start), global).map { $0 + $1 }
            }
            if compressed.contains(where: { $0 != nil }), round >= 1, let latest = deviation {
                fits.append(latest)
                if fits.count == 3 {
                    deviation = JPEGLoss.extrapolated(fits) ?? latest
                    fits.removeAll()
                }
            }
            cube = try cubeFrom(deviation!, size: n)
        }
        let monotone = try enforceMonotoneGrey(&cube, greySamples: greySamples)
        let heldOut = try heldOutError(pairs: pairs, cube: cube, settings: settings, workingSpace: workingSpace)
        var pairFits: [PairFit] = []
        var warnings: [String] = []
        for (k, p) in pairs.enumerated() {
            var fit = try residuals(before: p.before, after: p.after, cube: cube, settings: settings,
                                    workingSpace: workingSpace)
            fit.vignetteCornerGain = gains[k].map { Double($0.corner) }
            fit.compressionModel = compressed[k] != nil ? .jpeg : subsampled[k] != nil ? .chroma420 : nil
            fit.compressedIn = compressed[k] == nil ? nil : p.after.compressedIn?.file.description
            pairFits.append(fit)
            let name = k < names.count ? names[k] : "pair \(k + 1)"
            if let gain = gains[k] {
                warnings.append(String(format: "%@: a vignette (corners %.0f %% %@) — a local edit a look cannot "
                    + "carry; it was modelled as a radial gain and left out of the fit", name,
                    abs(1 - gain.corner) * 100, gain.corner < 1 ? "darker" : "brighter"))
            } else if let w = spatialWarning(fit.regions, name: name) {
                warnings.append(w)
            }
            if let w = lossyWarning(p.after, subsampled: subsampled[k] != nil, name: name) { warnings.append(w) }
        }
        if typicalCoverage < thinCoverage {
            warnings.append(String(format: "the pairs show the colours of only %.0f %% of a typical photo's pixels; "
                + "the look is extrapolated for the rest, so on other photos it may stray from the edit — add a "
                + "second pair with other colours (skin, foliage, sky, saturated reds)", typicalCoverage * 100))
        }
        var fit = LookFit(cube: cube, settings: settings, heldOut: heldOut, coverage: coverage,
                          typicalCoverage: typicalCoverage, shownColours: shownColours,
                          observedCells: observed, pairs: pairFits, greyAxisMonotone: monotone, warnings: warnings)
        fit.unseenHues = unseenHues(observed: observed, size: n)
        return fit
    }

    /// The share of a `coverageCells`³ lattice's cells that hold a sample's before colour.
    static func coverage(of samples: [FitSample]) -> Double {
        let n = coverageCells
        var cells = [Bool](repeating: false, count: n * n * n)
        for s in samples {
            let c = (s.before * Float(n)).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: Float(n - 1)))
            cells[Int(c.x) + n * (Int(c.y) + n * Int(c.z))] = true
        }
        return Double(cells.filter { $0 }.count) / Double(cells.count)
    }

    /// Below this JPEG quality an after image's loss is worth a word to the user.
    static let lossyQuality = 95

    /// A note for an after image that went through lossy compression (a JPEG below `lossyQuality`, a lossy WebP,
    /// HEIC or AVIF, or 4:2:0 chroma found in its pixels), saying what of the loss the fit modelled: the colours the
    /// photo shows in few pixels rest on a few noisy samples, and a look from a JPEG q85 pair lands about twice as
    /// far from the true look on other photos as one from a lossless export (docs/EXTRACT.md, "How much of the JPEG
    /// rows' error is noise").
    static func lossyWarning(_ after: PairImage, subsampled: Bool, name: String) -> String? {
        let described: String, modelled: String
        if let quality = after.compression?.quality {
            guard quality < lossyQuality else { return nil }
            (described, modelled) = ("a JPEG of quality about \(quality)", "its compression was modelled, but")
        } else if let codec = after.lossyCodec {
            modelled = subsampled ? "its half-resolution chroma was modelled, the rest of its compression not, and"
                : "its compression is not modelled, and"
            described = codec.rawValue
        } else if subsampled {
            (described, modelled) = ("JPEG-compressed (its chroma is subsampled)", "its compression was modelled, but")
        } else {
            return nil
        }
        return "\(name): the edited image is \(described); \(modelled) colours it shows in only a few pixels are "
            + "less certain (about twice the error of a lossless export on other photos) — export the edit as PNG "
            + "or TIFF for the most faithful look"
    }

    /// The six hue sectors (60° each, centred on the primaries and secondaries) in which no observed cell holds a
    /// saturated colour: cell centres whose max − min is at least 0.35 with max at least 0.35.
    static func unseenHues(observed: [Bool], size n: Int) -> [String] {
        let names = ["red", "yellow", "green", "cyan", "blue", "magenta"]
        var seen = [Bool](repeating: false, count: 6)
        let cells = n - 1
        for (index, isObserved) in observed.enumerated() where isObserved {
            let c = SIMD3(Float(index % cells), Float((index / cells) % cells), Float(index / (cells * cells)))
            let v = (c + 0.5) / Float(cells)
            let high = v.max(), low = v.min(), chroma = high - low
            guard chroma >= 0.35, high >= 0.35 else { continue }
            var hue: Float
            if high == v.x {
                hue = (v.y - v.z) / chroma
            } else if high == v.y {
                hue = 2 + (v.z - v.x) / chroma
            } else {
                hue = 4 + (v.x - v.y) / chroma
            }
            hue = (hue * 60 + 360).truncatingRemainder(dividingBy: 360)
            seen[Int((hue + 30) / 60) % 6] = true
        }
        return names.indices.filter { !seen[$0] }.map { names[$0] }
    }

    /// The global model's deviation at every node of an `size`³ lattice.
    static func nodeDeviation(_ model: AdditiveModel, size: Int) -> [SIMD4<Double>] {
        let last = Float(size - 1)
        return (0..<(size * size * size)).map { i in
            model.deviation(at: SIMD3(Float(i % size), Float((i / size) % size), Float(i / (size * size))) / last)
        }
    }

    /// Samples whose after colour has the lattice's interpolation of `global` taken away: the lattice then fits the
    /// deviation from the global model, and the sum reproduces the samples exactly as a fit of the whole would.
    static func residualSamples(_ samples: [FitSample], global: [SIMD4<Double>], size: Int,
                                settings: ExtractionSettings) -> [FitSample] {
        samples.map { s in
            let stencil = CubeSampler.stencil(s.before, size: size, interpolation: settings.interpolation)
            var g = SIMD4<Double>()
            for k in 0..<stencil.count { g += Double(stencil.weights[k]) * global[stencil.nodes[k]] }
            var r = s
            r.after -= SIMD3<Float>(Float(g.x), Float(g.y), Float(g.z))
            return r
        }
    }

    /// Extra reweighting rounds, at most, while a vignette's estimate converges.
    static let vignetteRounds = 10

    /// Rounds the JPEG model adds for `pixels` of JPEG after images: `base` for a 12 MP pair, and for smaller pairs
    /// as many multiples of `base` (up to three) as fit in the time a 12 MP pair's rounds take. A round costs its
    /// solves plus work per pixel; measured, a 12 MP round took 0.6 s and a 4 MP round 0.3 s (0.30 s and 0.15 s
    /// once the solver and the binning went to C), so the solves weigh as much as 4 MP of pixels. Rounds go in
    /// threes because every third fit is extrapolated (`JPEGLoss.extrapolated`); on the development subset 3 → 9
    /// rounds took the JPEG other-photo mean from 1.24 to 1.13 and 15 gave 1.14 (docs/EXTRACT.md).
    static func jpegRounds(_ base: Int, pixels: Int) -> Int {
        guard pixels > 0, base > 0 else { return 0 }
        let solves = 4_000_000
        return base * min(3, max(1, (12_000_000 + solves) / (pixels + solves)))
    }

    static func deviationSize(_ d: [SIMD4<Double>]) -> Int { Int(cbrt(Double(d.count)).rounded()) }

    /// A deviation on an `from`³ lattice sampled trilinearly at the grid of a `to`³ one.
    static func resample(_ d: [SIMD4<Double>], from: Int, to: Int) -> [SIMD4<Double>] {
        if from == to { return d }
        let values = d.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        guard let coarse = try? ColorCube(size: from, values: values) else { return [] }
        let last = Float(to - 1)
        return CubeSampler(coarse).withUnsafeTable { table in
            (0..<(to * to * to)).map { i in
                let g = SIMD3(Float(i % to), Float((i / to) % to), Float(i / (to * to))) / last
                let v = table.sample(g, interpolation: .trilinear)
                return SIMD4(Double(v.x), Double(v.y), Double(v.z), 0)
            }
        }
    }

    /// Identity plus `d`, clamped to 0…1.
    static func cubeFrom(_ d: [SIMD4<Double>], size n: Int) throws -> ColorCube {
        let last = Double(n - 1)
        var values = [Float](repeating: 0, count: 3 * n * n * n)
        for i in 0..<(n * n * n) {
            let g = SIMD3(Double(i % n), Double((i / n) % n), Double(i / (n * n))) / last
            for c in 0..<3 { values[3 * i + c] = Float(min(max(g[c] + d[i][c], 0), 1)) }
        }
        return try ColorCube(size: n, values: values)
    }

    /// Chunks of rows for the pixel passes: one per core, at most 4 (each holds a full set of bin sums).
    static var chunkCount: Int { min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Tukey's biweight cutoff, 3 robust standard deviations (tighter than the 4.685 of 95 % Gaussian efficiency:
    /// the outliers here are local edits, often mild, rather than rare gross errors), from the median residual of a
    /// strided sample of fitted pixels; never under one 8-bit code, so clean pairs do not reject their own rounding.
    static func tukeyCutoff(pairs: [(before: PairImage, after: PairImage)], cube: ColorCube,
                            gains: [RadialGain?], settings: ExtractionSettings) -> Float {
        let interpolation = settings.interpolation
        var residuals: [Float] = []
        CubeSampler(cube).withUnsafeTable { table in for (k, p) in pairs.enumerated() {
            let count = p.before.width * p.before.height
            let stride = max(1, count / 50_000)
            var i = 0
            while i < count {
                let b = SIMD3(p.before.rgb[3 * i], p.before.rgb[3 * i + 1], p.before.rgb[3 * i + 2])
                var a = SIMD3(p.after.rgb[3 * i], p.after.rgb[3 * i + 1], p.after.rgb[3 * i + 2])
                if let g = gains[k] { a /= g.factor(x: i % p.before.width, y: i / p.before.width) }
                let r = a - table.sample(b, interpolation: interpolation)
                residuals.append((r * r).sum().squareRoot())
                i += stride
            }
        } }
        residuals.sort()
        let median = residuals.isEmpty ? 0 : residuals[residuals.count / 2]
        return 3 * max(1.4826 * median, 1 / 255)
    }

    /// The pair's vignette under `cube`, if any; `colours` are the before image's pixels the estimate reads
    /// (`RadialGain.strided`).
    static func vignette(before: PairImage, colours: [Float], after: PairImage, cube: ColorCube,
                         settings: ExtractionSettings) -> RadialGain? {
        let (w, h) = (before.width, before.height)
        var fitted = [Float](repeating: 0, count: colours.count)
        colours.withUnsafeBufferPointer { source in fitted.withUnsafeMutableBufferPointer { target in
            BatchSampler(cube, interpolation: settings.interpolation).applyOnAllCores(source, into: target)
        } }
        return RadialGain.estimate(width: w, height: h, before: colours, fitted: fitted,
                                   after: RadialGain.strided(after.rgb, width: w, height: h))
    }

    /// Weights of a pair's image cells, row-major: 1 where the fit's residual is like the rest of the image's, falling
    /// to 0 where the cell's mean residual stands out (a vignette's corners, a brushed sky).
    struct SpatialWeights {
        let columns: Int
        let rows: Int
        let values: [Float]
        /// Each image column's cell column, the map every binning pass reads (`lsfit_bin`'s `column_cells`).
        let columnCells: [Int]

        init(columns: Int, rows: Int, width: Int, values: [Float]) {
            self.columns = columns
            self.rows = rows
            self.values = values
            columnCells = (0..<width).map { $0 * columns / width }
        }
    }

    /// Spatial reweighting: a local edit puts residuals in one place, and colours seen only there cannot be told
    /// from the look by the per-pixel weights (the fit simply follows them). Cells of a 12×12 grid whose mean RGB
    /// residual exceeds four times the median cell's (and 3/255, so rounding noise never counts) get Tukey weights
    /// towards 0, so the colours they alone hold are continued from the rest of the photo instead.
    static func spatialWeights(before: PairImage, after: PairImage, gain: RadialGain?, cube: ColorCube,
                               settings: ExtractionSettings) -> SpatialWeights {
        let grid = 12, w = before.width, h = before.height
        let columns = min(grid, w), rows = min(grid, h)
        let interpolation = settings.interpolation
        let step = max(1, Int((Double(w * h) / 100_000).squareRoot().rounded(.up)))
        var sums = [Double](repeating: 0, count: columns * rows), counts = sums
        CubeSampler(cube).withUnsafeTable { table in for y in stride(from: 0, to: h, by: step) {
            for x in stride(from: 0, to: w, by: step) {
                let i = y * w + x
                let b = SIMD3(before.rgb[3 * i], before.rgb[3 * i + 1], before.rgb[3 * i + 2])
                var a = SIMD3(after.rgb[3 * i], after.rgb[3 * i + 1], after.rgb[3 * i + 2])
                if let gain { a /= gain.factor(x: x, y: y) }
                let r = a - table.sample(b, interpolation: interpolation)
                let c = (y * rows / h) * columns + x * columns / w
                sums[c] += Double((r * r).sum().squareRoot())
                counts[c] += 1
            }
        } }
        let means = (0..<(columns * rows)).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
        let median = means.sorted()[means.count / 2]
        let cutoff = max(4 * median, 3.0 / 255)
        return SpatialWeights(columns: columns, rows: rows, width: w, values: means.map { m in
            let u = max(0, 1 - (m / cutoff) * (m / cutoff))
            return Float(u * u)
        })
    }

    /// Aggregates every non-held-out pixel into colour bins by its before colour, weighted by Tukey's biweight of
    /// its residual under `cube` (all weight 1 without a cube); returns one sample per occupied bin and which
    /// lattice cells the bins occupy. A pair's `predictions` entry, when present, holds `cube` applied to its
    /// before image in the form `JPEGLoss.restore` left it.
    static func binnedSamples(pairs: [(before: PairImage, after: PairImage)], cube: ColorCube?, cutoff: Float?,
                              halfWeight: Double, spatial: [SpatialWeights]? = nil, gains: [RadialGain?] = [],
                              predictions: [JPEGLoss.Prediction?] = [],
                              settings: ExtractionSettings) -> ([FitSample], [Bool]) {
        let bins = settings.binsPerAxis, binCount = bins * bins * bins
        let chunks = chunkCount
        // Per chunk: Σw, Σw·before (3), Σw·after (3), pixel count.
        var sums = [[Double]](repeating: [], count: chunks)
        let sampler = cube.map { BatchSampler($0, interpolation: settings.interpolation) }
        for (pairIndex, p) in pairs.enumerated() {
            let prediction = sampler == nil || pairIndex >= predictions.count ? nil : predictions[pairIndex]
            let edited = prediction?.after ?? [], squeezed = prediction?.squeezed ?? []
            let count = p.before.width * p.before.height
            let results = p.before.rgb.withUnsafeBufferPointer { before in
                p.after.rgb.withUnsafeBufferPointer { after in
                edited.withUnsafeBufferPointer { edited in squeezed.withUnsafeBufferPointer { squeezed in
                    let pass = BinningPass(
                        before: before, after: after, edited: edited, squeezed: squeezed, width: p.before.width,
                        height: p.before.height, gain: pairIndex < gains.count ? gains[pairIndex] : nil,
                        cellWeights: spatial?[pairIndex], sampler: sampler, relaxation: prediction?.relaxation,
                        bins: bins, holdOutStride: settings.holdOutStride, cutoff: cutoff)
                    nonisolated(unsafe) var partial = [[Double]](repeating: [], count: chunks)
                    partial.withUnsafeMutableBufferPointer { part in
                        nonisolated(unsafe) let parts = part
                        DispatchQueue.concurrentPerform(iterations: chunks) { k in
                            var acc = [Double](repeating: 0, count: 8 * binCount)
                            acc.withUnsafeMutableBufferPointer {
                                pass.accumulate(count * k / chunks, count * (k + 1) / chunks, into: $0)
                            }
                            parts[k] = acc
                        }
                    }
                    return partial
                } }
            } }
            for k in 0..<chunks {
                if sums[k].isEmpty { sums[k] = results[k] } else {
                    for j in 0..<(8 * binCount) { sums[k][j] += results[k][j] }
                }
            }
        }
        var total = sums[0]
        for k in 1..<chunks where !sums[k].isEmpty { for j in 0..<(8 * binCount) { total[j] += sums[k][j] } }
        var samples: [FitSample] = []
        let n = settings.size
        var cells = [Bool](repeating: false, count: (n - 1) * (n - 1) * (n - 1))
        for bin in 0..<binCount where total[8 * bin] > 0 {
            let o = 8 * bin, w = total[o]
            let before = SIMD3(Float(total[o + 1] / w), Float(total[o + 2] / w), Float(total[o + 3] / w))
            let after = SIMD3(Float(total[o + 4] / w), Float(total[o + 5] / w), Float(total[o + 6] / w))
            samples.append(FitSample(before: before, after: after, weight: w / (w + halfWeight), pixels: w))
            let c = (before * Float(n - 1)).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: Float(n - 2)))
            cells[Int(c.x) + (n - 1) * (Int(c.y) + (n - 1) * Int(c.z))] = true
        }
        return (samples, cells)
    }

    /// One pair's pixels as a binning pass reads them (the buffers are borrowed for the pass), with what weighs each
    /// pixel: the robust cutoff against the current fit (or the JPEG model's prediction), the vignette and the
    /// spatial weights; held-out pixels are skipped.
    struct BinningPass: @unchecked Sendable {
        let before, after, edited: UnsafeBufferPointer<Float>
        let squeezed: UnsafeBufferPointer<UInt8>
        let width, height: Int
        let gain: RadialGain?
        let cellWeights: SpatialWeights?
        /// The current fit; nil in the first round (every pixel weighs 1).
        let sampler: BatchSampler?
        /// ω of the JPEG model when its prediction is read back (P = target − ω·(after − S(P))) instead of sampling.
        let relaxation: Float?
        let bins, holdOutStride: Int
        let cutoff: Float?

        /// Adds pixels `lo..<hi` into `a`: per colour bin Σw, Σw·before (3), Σw·after (3) and the pixel count
        /// (`lsfit_bin`, fed the fit's prediction a block at a time from the vector sampler when there is one).
        func accumulate(_ lo: Int, _ hi: Int, into a: UnsafeMutableBufferPointer<Double>) {
            let block = 4096, sampling = sampler != nil && relaxation == nil
            var modelled = [Float](repeating: 0, count: sampling ? 3 * block : 0)
            let values = cellWeights?.values ?? [], columnCells = cellWeights?.columnCells ?? []
            values.withUnsafeBufferPointer { weights in columnCells.withUnsafeBufferPointer { cells in
                modelled.withUnsafeMutableBufferPointer { m in
                    var pass = lsfit_binning(
                        before: before.baseAddress, after: after.baseAddress, edited: edited.baseAddress,
                        squeezed: relaxation == nil ? nil : squeezed.baseAddress, relaxation: relaxation ?? 0,
                        weighted: sampler == nil ? 0 : 1, cutoff2: cutoff.map { $0 * $0 } ?? 0,
                        has_gain: gain == nil ? 0 : 1, gain_a: gain?.a ?? 0, gain_b: gain?.b ?? 0,
                        cell_weights: cellWeights == nil ? nil : weights.baseAddress,
                        column_cells: cells.baseAddress, cell_columns: cellWeights?.columns ?? 0,
                        cell_rows: cellWeights?.rows ?? 0, width: width, height: height, bins: bins,
                        hold_out_stride: holdOutStride)
                    guard let sampler, sampling else {
                        lsfit_bin(&pass, lo, hi, nil, a.baseAddress)
                        return
                    }
                    var start = lo
                    while start < hi {
                        let end = Swift.min(hi, start + block)
                        sampler.apply(UnsafeMutableBufferPointer(mutating: UnsafeBufferPointer(
                                          rebasing: before[(3 * start)..<(3 * end)])),
                                      into: UnsafeMutableBufferPointer(rebasing: m[0..<(3 * (end - start))]))
                        lsfit_bin(&pass, start, end, m.baseAddress, a.baseAddress)
                        start = end
                    }
                }
            } }
        }
    }

    /// When the pair's own grey axis rises monotonically, makes the fitted diagonal's luma non-decreasing too (a
    /// running maximum, shifting each diagonal entry's RGB equally); returns whether the diagonal is monotone.
    static func enforceMonotoneGrey(_ cube: inout ColorCube, greySamples: [FitSample]) throws -> Bool {
        let n = cube.size
        var bins = [(sum: Double, weight: Double)](repeating: (0, 0), count: 16)
        for s in greySamples {
            let k = min(15, Int(ColorScience.luma(s.before) * 16))
            bins[k].sum += s.weight * Double(ColorScience.luma(s.after))
            bins[k].weight += s.weight
        }
        let observed = bins.filter { $0.weight > 0 }.map { $0.sum / $0.weight }
        let pairMonotone = observed.count >= 2 && zip(observed, observed.dropFirst()).allSatisfy { $0 <= $1 + 1e-3 }
        var values = cube.values
        var running = -Float.infinity
        var monotone = true
        for i in 0..<n {
            let index = 3 * (i + n * (i + n * i))
            let v = SIMD3(values[index], values[index + 1], values[index + 2])
            let y = ColorScience.luma(v)
            if y < running - 1e-4 {
                monotone = false
                if pairMonotone {
                    for c in 0..<3 { values[index + c] = min(1, values[index + c] + (running - y)) }
                }
            }
            running = max(running, ColorScience.luma(SIMD3(values[index], values[index + 1], values[index + 2])))
        }
        if !monotone && pairMonotone {
            cube = try ColorCube(size: n, values: values)
            return true
        }
        return monotone
    }

    /// ΔE00 between the after image and the fitted look on the held-out pixels (at most about 200,000 of them).
    static func heldOutError(pairs: [(before: PairImage, after: PairImage)], cube: ColorCube,
                             settings: ExtractionSettings, workingSpace: ColorProfile) throws -> ErrorSummary {
        let stride = max(1, settings.holdOutStride)
        let total = pairs.reduce(0) { $0 + $1.before.width * $1.before.height } / stride
        let every = max(1, total / 200_000)
        var colours: [Float] = [], target: [Float] = []
        colours.reserveCapacity(3 * (total / every + pairs.count))
        target.reserveCapacity(3 * (total / every + pairs.count))
        for p in pairs {
            p.before.rgb.withUnsafeBufferPointer { before in p.after.rgb.withUnsafeBufferPointer { after in
                var i = stride / 2
                while i < before.count / 3 {
                    for c in 0..<3 {
                        colours.append(before[3 * i + c])
                        target.append(after[3 * i + c])
                    }
                    i += stride * every
                }
            } }
        }
        return ErrorSummary(try ColorAccuracy.differences(
            fitted(colours, cube: cube, interpolation: settings.interpolation), target, in: workingSpace))
    }

    /// `cube` applied to RGB triples through the vector sampler.
    static func fitted(_ colours: [Float], cube: ColorCube, interpolation: Interpolation) -> [Float] {
        var out = [Float](repeating: 0, count: colours.count)
        colours.withUnsafeBufferPointer { source in out.withUnsafeMutableBufferPointer { target in
            BatchSampler(cube, interpolation: interpolation).applyOnAllCores(source, into: target)
        } }
        return out
    }

    /// The residual map (about 96 cells wide) and the 3×3 region means of one pair, from a strided sample of at most
    /// about 150,000 pixels.
    static func residuals(before: PairImage, after: PairImage, cube: ColorCube, settings: ExtractionSettings,
                          workingSpace: ColorProfile) throws -> PairFit {
        let w = before.width, h = before.height
        let step = max(1, Int((Double(w * h) / 150_000).squareRoot().rounded(.up)))
        let mw = min(96, w), mh = max(1, Int((Double(h) * Double(mw) / Double(w)).rounded()))
        var colours: [Float] = [], target: [Float] = [], where_: [(Int, Int)] = []
        before.rgb.withUnsafeBufferPointer { b in after.rgb.withUnsafeBufferPointer { a in
            for y in stride(from: 0, to: h, by: step) {
                for x in stride(from: 0, to: w, by: step) {
                    for c in 0..<3 {
                        colours.append(b[3 * (y * w + x) + c])
                        target.append(a[3 * (y * w + x) + c])
                    }
                    where_.append((x, y))
                }
            }
        } }
        let differences = try ColorAccuracy.differences(
            fitted(colours, cube: cube, interpolation: settings.interpolation), target, in: workingSpace)
        var cells = [Double](repeating: 0, count: mw * mh), cellCount = [Double](repeating: 0, count: mw * mh)
        var regions = [Double](repeating: 0, count: 9), regionCount = [Double](repeating: 0, count: 9)
        for (k, (x, y)) in where_.enumerated() {
            let c = (y * mh / h) * mw + x * mw / w
            cells[c] += differences[k]
            cellCount[c] += 1
            let r = (y * 3 / h) * 3 + x * 3 / w
            regions[r] += differences[k]
            regionCount[r] += 1
        }
        let map = ResidualMap(width: mw, height: mh, values: (0..<(mw * mh)).map {
            cellCount[$0] > 0 ? Float(cells[$0] / cellCount[$0]) : 0
        })
        return PairFit(width: w, height: h, residuals: map, vignetteCornerGain: nil,
                       regions: (0..<9).map { regionCount[$0] > 0 ? regions[$0] / regionCount[$0] : 0 })
    }

    static let regionNames = ["top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom",
                              "bottom-right"]

    /// A warning when one region's residual stands out: at least 1.5 ΔE00 (visible side by side) and 2.5× the
    /// median region, i.e. a local edit the global colour change cannot carry. Corners raised on average against
    /// the centre (same thresholds) read as a vignette and are named together.
    static func spatialWarning(_ regions: [Double], name: String) -> String? {
        let centre = regions[4]
        let corners = [0, 2, 6, 8].map { regions[$0] }.reduce(0, +) / 4
        if corners >= 1.5 && corners >= 2.5 * max(centre, 0.2) {
            return String(format: "%@: corners: residual %.1f dE00 vs %.1f in the centre — looks like a vignette, "
                + "a local edit a look cannot carry; it was down-weighted in the fit", name, corners, centre)
        }
        let median = regions.sorted()[4]
        let raised = (0..<9).filter { regions[$0] >= 1.5 && regions[$0] >= 2.5 * max(median, 0.2) }
        guard !raised.isEmpty else { return nil }
        let reference = raised.contains(4) ? median : centre
        let place = raised.contains(4) ? "in the median region" : "in the centre"
        let worst = raised.max { regions[$0] < regions[$1] }!
        return String(format: "%@: %@: residual %.1f dE00 vs %.1f %@ — a local edit (brush, gradient, text) a look "
            + "cannot carry; it was down-weighted in the fit", name, regionNames[worst], regions[worst], reference,
            place)
    }
}
