/// A vignette: the after image's brightness scaled by g(r) = 1 + a·r² + b·r⁴, r the distance from the frame's centre
/// relative to its corner. The commonest local edit; modelled rather than only down-weighted because the colours a
/// photo shows only near its corners would otherwise be fitted darkened, with nothing elsewhere to contradict them.
struct RadialGain: Sendable, Equatable {
    var a: Float
    var b: Float
    let width: Int
    let height: Int

    /// The gain at pixel (x, y).
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

    /// Estimates the gain of `after` over `fitted` (the look applied to the before image), from the median luma
    /// ratio in 16 rings (medians ignore colours the look fits badly), least squares in r², r⁴ weighted by ring
    /// population; nil when the corners stay within `threshold` of 1.
    ///
    /// Only colours the centre of the frame also shows count (16³ bins of the before colour, the inner half of the
    /// radius): a colour seen only near the corners was fitted to the darkened after image, so its ratio says the
    /// vignette is weaker than it is, and with it in the medians the estimate settles short of the true gain.
    static func estimate(width: Int, height: Int,
                         sample: (Int, Int) -> (before: SIMD3<Float>, fitted: SIMD3<Float>, after: SIMD3<Float>))
        -> RadialGain? {
        let rings = 16
        var ratios = [[Float]](repeating: [], count: rings)
        let step = max(1, Int((Double(width * height) / 60_000).squareRoot().rounded(.up)))
        let unit = RadialGain(a: 1, b: 0, width: width, height: height)
        func bin(_ c: SIMD3<Float>) -> Int {
            let q = (c * 16).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 15))
            return Int(q.x) + 16 * (Int(q.y) + 16 * Int(q.z))
        }
        var central = [Bool](repeating: false, count: 16 * 16 * 16)
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) where unit.factor(x: x, y: y) - 1 < 0.25 {
                central[bin(sample(x, y).before)] = true
            }
        }
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) {
                let (b, f, t) = sample(x, y)
                guard central[bin(b)] else { continue }
                let lf = 0.2126 * f.x + 0.7152 * f.y + 0.0722 * f.z, lt = 0.2126 * t.x + 0.7152 * t.y + 0.0722 * t.z
                // Near black a ratio is noise; near white the after image may be clipped.
                guard lf > 0.05, lf < 0.95, lt < 0.98 else { continue }
                let r2 = unit.factor(x: x, y: y) - 1
                ratios[min(rings - 1, Int(r2.squareRoot() * Float(rings)))].append(lt / lf)
            }
        }
        // Weighted least squares of median ≈ c + a·r² + b·r⁴ over the rings, then divided by c: the centre is the
        // reference (g(0) = 1), and the look, fitted darker everywhere while the vignette was in it, does not bias
        // the shape.
        var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0.0, 0.0]
        for (k, var values) in ratios.enumerated() where values.count >= 8 {
            values.sort()
            let y = Double(values[values.count / 2])
            let r = (Double(k) + 0.5) / Double(rings), basis = [1, r * r, r * r * r * r], w = Double(values.count)
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

/// Steffensen's acceleration of the vignette's fixed-point iteration: each round's estimate, made against a look
/// fitted with the previous one, closes only part of the gap to the true gain (measured: 37–38 % found for 40 % after
/// the planned rounds, creeping by under 0.005 a round). Three successive estimates x0, x1 = F(x0), x2 = F(x1) of a
/// geometric sequence give its limit, x2 + (x2 − x1)·ρ/(1 − ρ) with ρ = (x2 − x1)/(x1 − x0); the iteration then
/// restarts from that limit.
struct VignetteChain {
    private var values: [RadialGain] = []

    /// Records `estimate` and returns the gain to fit with next: the estimate itself, or the extrapolated limit
    /// once three estimates converge geometrically (0 < ρ < 0.9, measured on the corner gain).
    mutating func append(_ estimate: RadialGain) -> RadialGain {
        values.append(estimate)
        guard values.count == 3 else { return estimate }
        let (x0, x1, x2) = (values[0], values[1], values[2])
        values = []
        let d1 = x1.corner - x0.corner, d2 = x2.corner - x1.corner
        guard d1 != 0 else { return estimate }
        let rho = d2 / d1
        guard rho > 0, rho < 0.9 else { return estimate }
        let s = rho / (1 - rho)
        let limit = RadialGain(a: x2.a + (x2.a - x1.a) * s, b: x2.b + (x2.b - x1.b) * s, width: x2.width,
                               height: x2.height)
        values = [limit]
        return limit
    }
}
