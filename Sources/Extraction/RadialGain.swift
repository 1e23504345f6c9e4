import Foundation
import LookCore

/// A vignette: the after image's brightness scaled by g(r) = 1 + a·r² + b·r⁴, r the distance from the frame's centre
/// relative to its corner. The commonest local edit; modelled rather than only down-weighted because the colours a
/// photo shows only near its corners would otherwise be fitted darkened, with nothing elsewhere to contradict them.
struct RadialGain: Sendable, Equatable {
    var a: Float
    var b: Float
    let width: Int
    let height: Int

    /// The gain at pixel (x, y) (`lsfit_bin` computes it the same way in C).
    @inline(__always)
    func factor(x: Int, y: Int) -> Float {
        let cx = Float(width - 1) / 2, cy = Float(height - 1) / 2
        let dx = Float(x) - cx, dy = Float(y) - cy
        let r2 = (dx * dx + dy * dy) / (cx * cx + cy * cy + 1e-6)
        return 1 + a * r2 + b * r2 * r2
    }

    /// The gain in the corners (r = 1).
    var corner: Float { 1 + a + b }

    /// A gain smaller than this at the corners (2 %, under one ΔE00 of lightness) is not called a vignette: the fit's
    /// own noise leaves rings that far from 1.
    static let threshold: Float = 0.02

    /// Estimates the gain of `after` over `fitted` (the look applied to the before image): the log luma ratio
    /// split into a ring effect and a colour effect, ratio ≈ γ(ring) + h(colour), over 16 rings and 32³ bins of the
    /// before colour; then γ fitted by c + a·r² + b·r⁴ (weighted by ring population) and divided by c. Nil when the
    /// corners stay within `threshold` of 1.
    ///
    /// Why two effects: the look is fitted to the darkened after image, so it absorbs the vignette colour by colour
    /// — a colour seen mostly near the corners is fitted darker (h), and pooled ratios per ring then say the vignette
    /// is weaker than it is (the first estimator settled at 37–38 % for 40 % and crept by under 0.005 a round).
    /// Within one colour the ratio still follows the whole radial profile, so comparing each colour with itself
    /// across rings finds the gain from any look the rounds have fitted. Cells whose residual stands out (a colour
    /// the look fits badly, a brushed area) are down-weighted by Tukey's biweight before the final solve.
    ///
    /// `before`, `fitted` and `after` are RGB at the pixels `strided(_:width:height:)` picks.
    static func estimate(width: Int, height: Int, before: [Float], fitted: [Float], after: [Float]) -> RadialGain? {
        let ratios = RingRatios(width: width, height: height, before: before, fitted: fitted, after: after)
        let cells = ratios.cells()
        guard cells.colours > 0 else { return nil }
        let (gamma, weights) = ringEffects(cells.list, colours: cells.colours)
        var ringWeight = [Double](repeating: 0, count: rings)
        for (k, c) in cells.list.enumerated() { ringWeight[c.ring] += weights[k] }
        // Weighted least squares of exp(γ) ≈ c + a·r² + b·r⁴ over the rings, then divided by c: the centre is the
        // reference (g(0) = 1).
        var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0.0, 0.0]
        for k in 0..<rings where ringWeight[k] >= 4 && ratios.moments[k].z > 0 {
            let y = exp(gamma[k])
            let moments = ratios.moments[k]
            let basis = [1, moments.x / moments.z, moments.y / moments.z], w = ringWeight[k]
            for i in 0..<3 {
                v[i] += w * basis[i] * y
                for j in 0..<3 { m[i][j] += w * basis[i] * basis[j] }
            }
        }
        guard let solution = solve3(m, v), solution[0] > 0.1 else { return nil }
        let gain = RadialGain(a: Float(solution[1] / solution[0]), b: Float(solution[2] / solution[0]),
                              width: width, height: height)
        return abs(gain.corner - 1) >= threshold ? gain : nil
    }

    /// Rings from the centre to the corners, and colour bins (32 per channel of the before colour).
    static let rings = 16, bins = 32 * 32 * 32

    /// One (colour bin, ring) cell: its mean log luma ratio and its weight.
    struct Cell {
        /// The colour's index among the colours seen in two rings or more.
        var colour: Int
        var ring: Int
        var value: Double
        var weight: Double
    }

    /// The log luma ratios of after over fitted, summed per (colour bin, ring), and each ring's radial moments.
    struct RingRatios {
        /// Per (colour bin, ring): Σ log ratio and count.
        var sums: [Double], counts: [Double]
        /// Per ring: Σ r², Σ r⁴ and count of its pixels. The outer rings exist only in the corners, where their
        /// pixels crowd towards the inner edge, so a ring's mid-radius overstates its pixels' distance (with it, the
        /// true look's own ratios gave a 40 % vignette as 39 %).
        var moments: [SIMD3<Double>]

        init(width: Int, height: Int, before: [Float], fitted: [Float], after: [Float]) {
            let step = sampleStep(width: width, height: height), columns = (width + step - 1) / step
            let unit = RadialGain(a: 1, b: 0, width: width, height: height)
            sums = [Double](repeating: 0, count: bins * rings)
            counts = sums
            moments = [SIMD3<Double>](repeating: .zero, count: rings)
            for k in 0..<(before.count / 3) {
                let x = k % columns * step, y = k / columns * step, i = 3 * k
                let b = SIMD3(before[i], before[i + 1], before[i + 2])
                let f = SIMD3(fitted[i], fitted[i + 1], fitted[i + 2])
                let t = SIMD3(after[i], after[i + 1], after[i + 2])
                let lf = ColorScience.luma(f), lt = ColorScience.luma(t)
                // Near black a ratio is noise; near white the after image may be clipped.
                guard lf > 0.05, lf < 0.95, lt > 0.02, lt < 0.98 else { continue }
                let q = (b * 32).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 31))
                let bin = Int(q.x) + 32 * (Int(q.y) + 32 * Int(q.z))
                let r2 = unit.factor(x: x, y: y) - 1
                let ring = min(rings - 1, Int(r2.squareRoot() * Float(rings)))
                sums[bin * rings + ring] += Double(log(lt / lf))
                counts[bin * rings + ring] += 1
                moments[ring] += SIMD3(Double(r2), Double(r2 * r2), 1)
            }
        }

        /// The cells of colours seen in at least two rings (the others only say what h is), and how many colours
        /// those are.
        func cells() -> (list: [Cell], colours: Int) {
            var cells: [Cell] = []
            var used = 0
            for bin in 0..<bins {
                let present = (0..<rings).filter { counts[bin * rings + $0] > 0 }
                guard present.count >= 2 else { continue }
                for ring in present {
                    let n = counts[bin * rings + ring]
                    // A large area counts no more than a small patch many times over (as the fit's own bins).
                    cells.append(Cell(colour: used, ring: ring, value: sums[bin * rings + ring] / n,
                                      weight: n / (n + 4)))
                }
                used += 1
            }
            return (cells, used)
        }
    }

    /// The ring effect γ and each cell's final weight: two-way least squares of value ≈ γ(ring) + h(colour) by
    /// alternating means (exact coordinate descent), twice: plain, then with the cells that stand out down-weighted
    /// by Tukey's biweight.
    static func ringEffects(_ cells: [Cell], colours: Int) -> (gamma: [Double], weights: [Double]) {
        var weights = cells.map { $0.weight }
        var gamma = [Double](repeating: 0, count: rings), h = [Double](repeating: 0, count: colours)
        for pass in 0..<2 {
            if pass == 1 {
                let residuals = cells.indices.map { abs(cells[$0].value - gamma[cells[$0].ring] - h[cells[$0].colour]) }
                let scale = max(1.4826 * residuals.sorted()[residuals.count / 2], 0.005)
                for k in cells.indices {
                    let u = residuals[k] / (4.685 * scale)
                    weights[k] = u < 1 ? cells[k].weight * (1 - u * u) * (1 - u * u) : 0
                }
            }
            for _ in 0..<200 {
                var hs = [Double](repeating: 0, count: colours), hw = hs
                for (k, c) in cells.enumerated() {
                    hs[c.colour] += weights[k] * (c.value - gamma[c.ring])
                    hw[c.colour] += weights[k]
                }
                for b in 0..<colours { h[b] = hw[b] > 0 ? hs[b] / hw[b] : 0 }
                var gs = [Double](repeating: 0, count: rings), gw = gs
                for (k, c) in cells.enumerated() {
                    gs[c.ring] += weights[k] * (c.value - h[c.colour])
                    gw[c.ring] += weights[k]
                }
                var moved = 0.0
                for r in 0..<rings where gw[r] > 0 {
                    let next = gs[r] / gw[r]
                    moved = max(moved, abs(next - gamma[r]))
                    gamma[r] = next
                }
                if moved < 1e-6 { break }
            }
        }
        return (gamma, weights)
    }

    /// The estimate reads every `step`-th pixel of every `step`-th row: about 120 000 pixels, plenty for 16 rings.
    static func sampleStep(width: Int, height: Int) -> Int {
        max(1, Int((Double(width * height) / 120_000).squareRoot().rounded(.up)))
    }

    /// The RGB of a whole image's pixels that the estimate reads, row by row.
    static func strided(_ rgb: [Float], width: Int, height: Int) -> [Float] {
        let step = sampleStep(width: width, height: height)
        var out: [Float] = []
        out.reserveCapacity(3 * ((width + step - 1) / step) * ((height + step - 1) / step))
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) {
                let i = 3 * (y * width + x)
                out.append(contentsOf: rgb[i..<(i + 3)])
            }
        }
        return out
    }

    /// Cramer's rule for a 3×3 system; nil when it is singular (too few populated rings).
    private static func solve3(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-12 else { return nil }
        return (0..<3).map { c in
            var a = m
            for r in 0..<3 { a[r][c] = v[r] }
            return det(a) / d
        }
    }
}
