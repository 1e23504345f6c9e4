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
    static func estimate(width: Int, height: Int, sample: (Int, Int) -> (fitted: SIMD3<Float>, after: SIMD3<Float>))
        -> RadialGain? {
        let rings = 16
        var ratios = [[Float]](repeating: [], count: rings)
        let step = max(1, Int((Double(width * height) / 60_000).squareRoot().rounded(.up)))
        let unit = RadialGain(a: 1, b: 0, width: width, height: height)
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) {
                let (f, t) = sample(x, y)
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
