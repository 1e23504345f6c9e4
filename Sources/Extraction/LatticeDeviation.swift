import Foundation
import LookCore

/// The lattice's deviation from identity as the rounds carry it: the global model's part at the nodes, samples with
/// that part taken away, a deviation resampled to another lattice, and the look a deviation makes.
extension LookExtractor {
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
}
