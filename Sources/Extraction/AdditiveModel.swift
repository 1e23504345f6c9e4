import LookCore

/// A global colour change, fitted to the pair before the lattice: each output channel's deviation from identity is a
/// sum of smooth one-dimensional functions of the input's red, green, blue and luma,
///
///     G_j(x) = Σ_{c ∈ R,G,B,Y} g_jc(x_c),
///
/// which holds per-channel tone curves, any 3×3 matrix and offset, and luma-dependent toning (a split tone, a
/// saturation that follows brightness). The lattice is then fitted as a deviation *from* this model, which it follows
/// far from the pair's colours: a photo rarely shows every combination of red, green and blue, but it nearly always
/// shows most levels of each, so the one-dimensional functions are known where the lattice is not.
struct AdditiveModel: Sendable {
    /// Knots per input (hat functions on a uniform grid over 0…1): 1/8 steps, enough for a tone curve's shoulder.
    static let knots = 9
    /// Inputs: red, green, blue, luma.
    static let inputs = 4
    static var terms: Int { knots * inputs }

    /// Coefficient of each (input, knot) term, the three output channels in x, y, z.
    var coefficients: [SIMD4<Double>]

    /// The two non-zero hat functions of each input at `x`: term indices and weights.
    @inline(__always)
    static func basis(_ x: SIMD3<Float>) -> (index: SIMD8<Int>, weight: SIMD8<Double>) {
        let v = x.clamped(lowerBound: .zero, upperBound: .one)
        let inputs = SIMD4<Float>(v.x, v.y, v.z, ColorScience.luma(v))
        var index = SIMD8<Int>(), weight = SIMD8<Double>()
        let last = Float(knots - 1)
        for c in 0..<inputs.scalarCount {
            let p = min(max(inputs[c], 0), 1) * last
            let k = min(Int(p), knots - 2)
            let f = Double(p - Float(k))
            index[2 * c] = c * knots + k
            index[2 * c + 1] = c * knots + k + 1
            weight[2 * c] = 1 - f
            weight[2 * c + 1] = f
        }
        return (index, weight)
    }

    /// The model's deviation from identity at `x`.
    func deviation(at x: SIMD3<Float>) -> SIMD4<Double> {
        let (index, weight) = AdditiveModel.basis(x)
        var out = SIMD4<Double>()
        for k in 0..<8 { out += weight[k] * coefficients[index[k]] }
        return out
    }

    /// The identity (no deviation).
    static var identity: AdditiveModel {
        AdditiveModel(coefficients: [SIMD4<Double>](repeating: .zero, count: terms))
    }

    /// Weighted least squares on the samples' deviations, with `smoothness` (relative to the mean data weight of a
    /// term, as the lattice's λ) on each function's second differences, so a function continues linearly past the
    /// levels its input showed.
    static func fit(_ samples: [FitSample], smoothness: Double) -> AdditiveModel {
        let m = terms
        var a = [Double](repeating: 0, count: m * m)
        var rhs = [SIMD4<Double>](repeating: .zero, count: m)
        for s in samples {
            let (index, weight) = basis(s.before)
            let t = SIMD4<Double>(Double(s.after.x - s.before.x), Double(s.after.y - s.before.y),
                                  Double(s.after.z - s.before.z), 0)
            for p in 0..<8 {
                let wp = s.weight * weight[p]
                rhs[index[p]] += wp * t
                for q in 0..<8 { a[index[p] * m + index[q]] += wp * weight[q] }
            }
        }
        var diagonal = 0.0, used = 0
        for i in 0..<m where a[i * m + i] > 0 {
            diagonal += a[i * m + i]
            used += 1
        }
        let lambda = smoothness * (used > 0 ? diagonal / Double(used) : 1)
        for c in 0..<inputs {
            for k in 1..<(knots - 1) {
                let row = [c * knots + k - 1, c * knots + k, c * knots + k + 1], d = [1.0, -2.0, 1.0]
                for p in 0..<3 { for q in 0..<3 { a[row[p] * m + row[q]] += lambda * d[p] * d[q] } }
            }
        }
        // The four inputs' hats each sum to one, so a constant can move between them: a small ridge picks the
        // smallest coefficients and keeps the system definite.
        for i in 0..<m { a[i * m + i] += 1e-6 * lambda + 1e-12 }
        return AdditiveModel(coefficients: choleskySolve(a, rhs, size: m) ?? identity.coefficients)
    }

    /// Solves the symmetric positive definite system a·x = b (three right-hand sides in x, y, z); nil when it is not.
    static func choleskySolve(_ matrix: [Double], _ b: [SIMD4<Double>], size m: Int) -> [SIMD4<Double>]? {
        var l = matrix
        for j in 0..<m {
            var d = l[j * m + j]
            for k in 0..<j { d -= l[j * m + k] * l[j * m + k] }
            guard d > 0 else { return nil }
            let root = d.squareRoot()
            l[j * m + j] = root
            for i in (j + 1)..<m {
                var s = l[i * m + j]
                for k in 0..<j { s -= l[i * m + k] * l[j * m + k] }
                l[i * m + j] = s / root
            }
        }
        var y = b
        for i in 0..<m {
            for k in 0..<i { y[i] -= l[i * m + k] * y[k] }
            y[i] /= l[i * m + i]
        }
        for i in stride(from: m - 1, through: 0, by: -1) {
            for k in (i + 1)..<m { y[i] -= l[k * m + i] * y[k] }
            y[i] /= l[i * m + i]
        }
        return y
    }
}
