import ColorManagement
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
            throw ExtractionError.sizeOutOfRange(settings.size, allowed: 3...ColorCube.sizeRange.upperBound)
        }
        for p in pairs where p.before.width != p.after.width || p.before.height != p.after.height {
            throw ExtractionError.invalidInput("a pair's images must have one size (use PairGeometry.aligned)")
        }
        var rounds = try FitRounds(pairs: pairs, settings: settings)
        let shown = try rounds.fitPlainly(workingSpace: workingSpace, progress: progress)
        while try rounds.refit(progress: progress) {}
        var cube = rounds.cube
        let monotone = try enforceMonotoneGrey(&cube, greySamples: shown.greySamples)
        let heldOut = try heldOutError(pairs: pairs, cube: cube, settings: settings, workingSpace: workingSpace)
        var (pairFits, warnings) = try pairReports(rounds, cube: cube, names: names, workingSpace: workingSpace)
        if shown.typicalCoverage < thinCoverage {
            warnings.append(String(format: "the pairs show the colours of only %.0f %% of a typical photo's pixels; "
                + "the look is extrapolated for the rest, so on other photos it may stray from the edit — add a "
                + "second pair with other colours (skin, foliage, sky, saturated reds)", shown.typicalCoverage * 100))
        }
        var fit = LookFit(cube: cube, settings: settings, heldOut: heldOut, coverage: shown.coverage,
                          typicalCoverage: shown.typicalCoverage, shownColours: shown.shownColours,
                          observedCells: shown.observed, pairs: pairFits, greyAxisMonotone: monotone,
                          warnings: warnings)
        fit.unseenHues = unseenHues(observed: shown.observed, size: settings.size)
        return fit
    }

    /// Each pair's residuals under the final `cube`, with what the rounds modelled (its vignette, its compression),
    /// and the warnings about it: a vignette or another local edit, a lossy after image.
    static func pairReports(_ rounds: FitRounds, cube: ColorCube, names: [String],
                            workingSpace: ColorProfile) throws -> (fits: [PairFit], warnings: [String]) {
        var pairFits: [PairFit] = []
        var warnings: [String] = []
        for (k, p) in rounds.pairs.enumerated() {
            var fit = try residuals(before: p.before, after: p.after, cube: cube, settings: rounds.settings,
                                    workingSpace: workingSpace)
            let gain = rounds.gains[k], subsampled = rounds.subsampled[k] != nil
            fit.vignetteCornerGain = gain.map { Double($0.corner) }
            fit.compressionModel = rounds.compressed[k] != nil ? .jpeg : subsampled ? .chroma420 : nil
            fit.compressedIn = rounds.compressed[k] == nil ? nil : p.after.compressedIn?.file.description
            pairFits.append(fit)
            let name = k < names.count ? names[k] : "pair \(k + 1)"
            if let gain {
                warnings.append(String(format: "%@: a vignette (corners %.0f %% %@) — a local edit a look cannot "
                    + "carry; it was modelled as a radial gain and left out of the fit", name,
                    abs(1 - gain.corner) * 100, gain.corner < 1 ? "darker" : "brighter"))
            } else if let w = spatialWarning(fit.regions, name: name) {
                warnings.append(w)
            }
            if let w = lossyWarning(p.after, subsampled: subsampled, name: name) { warnings.append(w) }
        }
        return (pairFits, warnings)
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

    /// Chunks of rows for the pixel passes: one per core, at most 4 (each holds a full set of bin sums).
    static var chunkCount: Int { min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

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
}
