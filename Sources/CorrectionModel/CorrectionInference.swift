import Dispatch
import Foundation
import LookCore

/// What the model reads from one photo and how much of it the correction applies.
public struct CorrectionEstimate: Sendable, Equatable, Codable {
    /// Veil removed first (linear light): x → (x − veil × airlight) / (1 − veil).
    public var veil = 0.0
    /// The veil's colour, its smallest channel 1: grey for one photo's veil, the shoot's light for a shared one.
    public var airlight = SIMD3<Double>(1, 1, 1)
    /// The cast found, as the log-chroma shift (log G/R, log G/B) it caused.
    public var cast = SIMD2<Double>(0, 0)
    /// Posterior spread of the cast (log units): the lower, the surer.
    public var castSpread = 0.0
    /// Share of the cast removed (0…1), from the spread through the calibrated ramp.
    public var castAmount = 0.0
    /// Linear-light channel gains that remove `castAmount` of the cast (green 1).
    public var gains = SIMD3<Double>(1, 1, 1)
    /// Exposure correction found (stops, after the cast gains).
    public var exposure = 0.0
    /// Posterior spread of the exposure (stops).
    public var exposureSpread = 0.0
    /// Share of the exposure correction applied (0…1).
    public var exposureAmount = 0.0
    /// Stops applied: exposureAmount × exposure.
    public var stops = 0.0
}

extension CorrectionModel {
    /// Box-averages interleaved linear RGB (`width` × `height`) by the integer factor that brings the long side
    /// to at most the model's `long_side`, as training did.
    public func downscale(linear: [Float], width: Int, height: Int) -> (pixels: [SIMD3<Float>], count: Int) {
        precondition(linear.count >= width * height * 3, "linear buffer smaller than width × height × 3")
        let factor = BoxAverage.factor(width: width, height: height, longSide: header.long_side)
        let out = linear.withUnsafeBufferPointer { src in
            BoxAverage.downscale(width: width, height: height, factor: factor) { i in
                SIMD3(src[3 * i], src[3 * i + 1], src[3 * i + 2])
            }
        }
        return (out, out.count)
    }

    /// Analyses interleaved linear RGB (any size; downscaled here) and returns estimate, confidence and amount.
    public func analyse(linear: [Float], width: Int, height: Int) -> CorrectionEstimate {
        analyse(small: downscale(linear: linear, width: width, height: height).pixels)
    }

    /// Analyses an already downscaled linear copy.
    public func analyse(small: [SIMD3<Float>]) -> CorrectionEstimate {
        analysis(small: small).estimate
    }

    /// The estimate, and the black it read the veil from (the 0.5th percentile of each pixel's smallest channel;
    /// 0 for an empty copy), which a shoot needs too.
    func analysis(small: [SIMD3<Float>]) -> (estimate: CorrectionEstimate, black: Double) {
        var result = CorrectionEstimate()
        guard !small.isEmpty else { return (result, 0) }
        let h = header
        var mins = small.map { Double(min($0.x, $0.y, $0.z)) }
        let black = Self.quantile(&mins, 0.005)
        result.veil = max(0, black - h.veil_threshold)
        let v = result.veil
        let pixels = small.map { v > 0 ? (SIMD3<Double>($0) - v) / (1 - v) : SIMD3<Double>($0) }

        let (cast, castSpread, used) = castPosterior(pixels)
        result.cast = cast
        result.castSpread = castSpread
        result.castAmount = used >= 64 ? Self.ramp(castSpread, h.chroma_ramp) : 0
        result.gains = SIMD3(exp(result.castAmount * cast.x), 1, exp(result.castAmount * cast.y))

        let (exposure, exposureSpread) = exposurePosterior(pixels, gains: result.gains)
        result.exposure = exposure
        result.exposureSpread = exposureSpread
        result.exposureAmount = Self.ramp(exposureSpread, h.luma_ramp)
        result.stops = result.exposureAmount * exposure
        return (result, black)
    }

    /// The `p`-quantile of `values` (not empty) with linear interpolation between the two order statistics around
    /// position p·(n − 1), as numpy's `percentile` (the training mirror) computes it; found by selection, not a
    /// full sort. Reorders `values`.
    static func quantile(_ values: inout [Double], _ p: Double) -> Double {
        let position = p * Double(values.count - 1)
        let k = Int(position)
        let below = values.withUnsafeMutableBufferPointer { Selection.kthSmallest($0, k) }
        guard k + 1 < values.count else { return below }
        let above = values[(k + 1)...].min() ?? below
        return below + (above - below) * (position - Double(k))
    }

    static func ramp(_ spread: Double, _ r: [Double]) -> Double { min(1, max(0, (r[1] - spread) / (r[1] - r[0]))) }

    /// The cast's likelihood alone (the learned filter without the prior over casts) for a linear copy: the part
    /// that is equivariant by construction; tests check that a cast translates it.
    public func castLikelihoodEstimate(small: [SIMD3<Float>]) -> (cast: SIMD2<Double>, spread: Double) {
        let (cast, spread, _) = castPosterior(small.map { SIMD3<Double>($0) }, prior: false)
        return (cast, spread)
    }

    /// The cast's posterior mean (wrap-aware, around the peak), its spread and how many pixels voted.
    func castPosterior(_ pixels: [SIMD3<Double>], prior: Bool = true) -> (SIMD2<Double>, Double, Int) {
        let (hist, used) = castHistogram(pixels)
        guard used > 0 else { return (.zero, .infinity, 0) }
        let logits = castResponse(hist, used: used, prior: prior)
        let (mean, spread) = castSummary(logits)
        return (mean, spread, used)
    }

    /// The log-chroma histogram's counts (u = log G/R, v = log G/B, wrapped) and how many pixels voted.
    func castHistogram(_ pixels: [SIMD3<Double>]) -> ([Double], Int) {
        let n = header.n_uv, step = header.duv
        var hist = [Double](repeating: 0, count: n * n)
        var used = 0
        for p in pixels where min(p.x, p.y, p.z) > header.dark && max(p.x, p.y, p.z) < header.bright {
            let i = Self.wrap(Int((log(p.y / p.x) / step + 0.5).rounded(.down)), n)
            let j = Self.wrap(Int((log(p.y / p.z) / step + 0.5).rounded(.down)), n)
            hist[i * n + j] += 1
            used += 1
        }
        return (hist, used)
    }

    /// The cast's logits over offsets, Σx H(x) F(x − L) for the histogram `hist` of `used` pixels, plus the prior B
    /// when `prior`. Without the prior it is one photo's log-likelihood: what adds across the photos of a shoot.
    func castResponse(_ hist: [Double], used: Int, prior: Bool) -> [Double] {
        let n = header.n_uv
        var logits = prior ? chromaBias.map(Double.init) : [Double](repeating: 0, count: n * n)
        guard used > 0 else { return logits }
        let occupied = hist.indices.filter { hist[$0] > 0 }
        // Z(L) = Σx H(x) F(x − L): a cast translates the histogram and with it the response. Each occupied bin
        // adds its weight times the filter read backwards from it; `wideFilter` repeats each filter row twice so
        // the wrapped column needs no modulo.
        let total = Double(used)
        let votes = occupied.map { (weight: hist[$0] / total, i: $0 / n, j: $0 % n) }
        // Rows of offsets on every core; each logit still adds the bins in the same order, so the sums are the
        // same on any number of cores.
        wideFilter.withUnsafeBufferPointer { f in
            logits.withUnsafeMutableBufferPointer { z in
                nonisolated(unsafe) let filter = f, rows = z
                let chunks = min(8, n)
                DispatchQueue.concurrentPerform(iterations: chunks) { k in
                    for li in (n * k / chunks)..<(n * (k + 1) / chunks) {
                        let out = rows.baseAddress! + li * n
                        for vote in votes {
                            let row = filter.baseAddress! + Self.wrap(vote.i - li, n) * 2 * n + vote.j + n
                            for lj in 0..<n { out[lj] += vote.weight * Double(row[-lj]) }
                        }
                    }
                }
            }
        }
        return logits
    }

    /// Posterior mean (wrap-aware, around the peak) and spread sqrt(var u + var v) of cast logits.
    func castSummary(_ logits: [Double]) -> (SIMD2<Double>, Double) {
        let n = header.n_uv, step = header.duv
        let p = Self.softmax(logits)
        let peak = p.indices.max { p[$0] < p[$1] }!
        let (i0, j0) = (peak / n, peak % n)
        var pu = [Double](repeating: 0, count: n), pv = [Double](repeating: 0, count: n)
        for i in 0..<n {
            for j in 0..<n {
                pu[i] += p[i * n + j]
                pv[j] += p[i * n + j]
            }
        }
        let offset = { (k: Int, k0: Int) in Double(Self.wrap(k - k0 + n / 2, n) - n / 2) * step }
        var mu = 0.0, mv = 0.0
        for k in 0..<n {
            mu += pu[k] * offset(k, i0)
            mv += pv[k] * offset(k, j0)
        }
        var variance = 0.0
        for k in 0..<n {
            variance += pu[k] * pow(offset(k, i0) - mu, 2) + pv[k] * pow(offset(k, j0) - mv, 2)
        }
        let grid = { (k: Int) in Double(Self.wrap(k + n / 2, n) - n / 2) * step }
        return (SIMD2(grid(i0) + mu, grid(j0) + mv), variance.squareRoot())
    }

    /// The exposure correction's posterior mean and spread (stops), read after the cast gains.
    func exposurePosterior(_ pixels: [SIMD3<Double>], gains: SIMD3<Double>) -> (Double, Double) {
        exposureSummary(exposureResponse(exposureHistogram(pixels, gains: gains), total: Double(pixels.count),
                                         prior: true))
    }

    /// The log2-luminance histogram's counts, read after `gains`.
    func exposureHistogram(_ pixels: [SIMD3<Double>], gains: SIMD3<Double>) -> [Double] {
        let h = header
        var hist = [Double](repeating: 0, count: h.n_y)
        let floor = pow(2.0, h.y_low)
        for p in pixels {
            let y = min(1, max(floor, ColorScience.luma(p * gains)))
            let k = Int(((log2(y) - h.y_low) / h.dy).rounded(.down))
            hist[min(h.n_y - 1, max(0, k))] += 1
        }
        return hist
    }

    /// The exposure's logits over corrections, Σx H(x) F(x + c) for the counts `hist` of `total` pixels, plus the
    /// prior when `prior`.
    func exposureResponse(_ hist: [Double], total: Double, prior: Bool) -> [Double] {
        let h = header
        var logits = [Double](repeating: 0, count: h.n_c)
        for j in 0..<h.n_c {
            var z = prior ? Double(lumaBias[j]) : 0
            for x in 0..<h.n_y where hist[x] > 0 { z += hist[x] / total * Double(lumaFilter[x + j]) }
            logits[j] = z
        }
        return logits
    }

    /// Posterior mean and spread (stops) of exposure logits.
    func exposureSummary(_ logits: [Double]) -> (Double, Double) {
        let h = header
        let p = Self.softmax(logits)
        var mean = 0.0
        for j in 0..<h.n_c { mean += p[j] * (h.c_min + Double(j) * h.dy) }
        var variance = 0.0
        for j in 0..<h.n_c { variance += p[j] * pow(h.c_min + Double(j) * h.dy - mean, 2) }
        return (mean, variance.squareRoot())
    }

    static func wrap(_ k: Int, _ n: Int) -> Int { ((k % n) + n) % n }

    static func softmax(_ z: [Double]) -> [Double] {
        let top = z.max() ?? 0
        let e = z.map { exp($0 - top) }
        let sum = e.reduce(0, +)
        return e.map { $0 / sum }
    }
}

extension CorrectionEstimate {
    /// The correction of one linear-light pixel: veil removed, cast gains, exposure; not clipped.
    @inline(__always)
    public func apply(_ linear: SIMD3<Double>) -> SIMD3<Double> {
        let x = veil > 0 ? (linear - veil * airlight) / (1 - veil) : linear
        return x * gains * pow(2, stops)
    }
}
