import Dispatch
import Foundation
import LookCore

/// One colour sample for the fit: a before colour, the after colour it should map to, and its weight.
struct FitSample {
    var before: SIMD3<Float>
    var after: SIMD3<Float>
    var weight: Double
    /// The (robustly weighted) pixel count behind the sample.
    var pixels: Double
}

/// Solves for a cube's deviation from identity, D = L − I, on an N³ lattice:
///
///     minimise Σ_s w_s ‖W_s·D − (y_s − x_s)‖² + λ Σ_axes ‖∂²_axis D‖²
///
/// where W_s are the interpolation weights `apply` uses at the sample's before colour x_s (so the cube reproduces
/// the pair through apply, and identity interpolates to x_s exactly), and ∂²_axis is the lattice's second difference
/// along red, green or blue at interior nodes — the three terms of the discrete Laplacian, penalised separately so
/// that an affine deviation (a global matrix or offset) costs nothing and extrapolates linearly, never back to
/// identity. The normal equations are solved by Jacobi-preconditioned conjugate gradients, three channels at once
/// (they share the matrix), with the matrix-vector product split over cores.
struct LatticeSolver {
    let size: Int
    let interpolation: Interpolation
    /// Data part of the normal matrix: for node i, 27 coefficients for the neighbours at offsets {−1, 0, 1}³
    /// (every pair of nodes sharing a lattice cell, which is all an interpolation stencil touches).
    private var matrix: [Double]
    private var rhs: [SIMD4<Double>]
    private let lambda: Double
    private let neighbour: [Int]

    /// Assembles the normal equations for `samples`; `smoothness` is λ relative to the mean data weight of an
    /// observed node, so it means the same whatever the number of pixels or bins.
    init(size n: Int, interpolation: Interpolation, samples: [FitSample], smoothness: Double) {
        size = n
        self.interpolation = interpolation
        let count = n * n * n
        var matrix = [Double](repeating: 0, count: 27 * count)
        var rhs = [SIMD4<Double>](repeating: .zero, count: count)
        neighbour = (0..<27).map { k in (k % 3 - 1) + n * ((k / 3) % 3 - 1) + n * n * (k / 9 - 1) }
        for s in samples {
            // The interpolation `apply` uses, so the fitted cube reproduces the samples through it.
            let stencil = CubeSampler.stencil(s.before, size: n, interpolation: interpolation)
            let m = stencil.count, nodes = stencil.nodes, weights = SIMD8<Double>(stencil.weights)
            let target = SIMD4<Double>(Double(s.after.x - s.before.x), Double(s.after.y - s.before.y),
                                       Double(s.after.z - s.before.z), 0)
            for a in 0..<m {
                let i = nodes[a], wa = s.weight * weights[a]
                rhs[i] += wa * target
                for b in 0..<m {
                    matrix[27 * i + LatticeSolver.offsetIndex(from: i, to: nodes[b], size: n)] += wa * weights[b]
                }
            }
        }
        var diagonalSum = 0.0, observed = 0
        for i in 0..<count where matrix[27 * i + 13] > 0 {
            diagonalSum += matrix[27 * i + 13]
            observed += 1
        }
        lambda = smoothness * (observed > 0 ? diagonalSum / Double(observed) : 1)
        self.matrix = matrix
        self.rhs = rhs
    }

    /// Index 0…26 of node `j` in node `i`'s neighbourhood.
    static func offsetIndex(from i: Int, to j: Int, size n: Int) -> Int {
        let dr = j % n - i % n, dg = (j / n) % n - (i / n) % n, db = j / (n * n) - i / (n * n)
        return (dr + 1) + 3 * (dg + 1) + 9 * (db + 1)
    }

    /// The deviation D minimising the objective, starting from `initial` (nil: identity, D = 0).
    ///
    /// The residual is relative to the right-hand side: 1e-4 moves no entry by a visible amount (measured: the
    /// fitted cube changes by < 1e-4 between 1e-4 and 1e-6), while CG plateaus near 1e-6 on this system.
    func solve(initial: [SIMD4<Double>]?, tolerance: Double = 1e-4, maxIterations: Int = 400) -> [SIMD4<Double>] {
        let count = size * size * size
        var x = initial ?? [SIMD4<Double>](repeating: .zero, count: count)
        // A tiny ridge keeps the system definite where neither data nor curvature pins a node (a data-free
        // lattice); 1e-6 of λ moves an observed node by far less than a 16-bit code.
        let ridge = 1e-6 * lambda + 1e-12
        let regDiagonal = regularisationDiagonal()
        var inverseDiagonal = [SIMD4<Double>](repeating: .zero, count: count)
        for i in 0..<count {
            inverseDiagonal[i] = SIMD4(repeating: 1 / (matrix[27 * i + 13] + lambda * regDiagonal[i] + ridge))
        }
        var ax = [SIMD4<Double>](repeating: .zero, count: count)
        // The second differences' scratch, reused by every product (a fresh 3.5 MB array per product at 33³ cost
        // page faults and zeroing on each of up to 400 iterations).
        var second = [SIMD4<Double>](repeating: .zero, count: 3 * count)
        multiply(x, into: &ax, ridge: ridge, scratch: &second)
        var r = (0..<count).map { rhs[$0] - ax[$0] }
        var z = (0..<count).map { inverseDiagonal[$0] * r[$0] }
        var p = z
        var rz = dot(r, z)
        let bNorm = dot(rhs, rhs)
        let stop = SIMD4<Double>(repeating: tolerance * tolerance) * bNorm.replacing(with: 1, where: bNorm .== 0)
        var ap = [SIMD4<Double>](repeating: .zero, count: count)
        for _ in 0..<maxIterations {
            if all(dot(r, r) .<= stop) { break }
            multiply(p, into: &ap, ridge: ridge, scratch: &second)
            let pap = dot(p, ap)
            let alpha = (rz / pap).replacing(with: 0, where: pap .<= 0)
            for i in 0..<count {
                x[i] += alpha * p[i]
                r[i] -= alpha * ap[i]
                z[i] = inverseDiagonal[i] * r[i]
            }
            let rzNew = dot(r, z)
            let beta = (rzNew / rz).replacing(with: 0, where: rz .<= 0)
            rz = rzNew
            for i in 0..<count { p[i] = z[i] + beta * p[i] }
        }
        return x
    }

    private func dot(_ a: [SIMD4<Double>], _ b: [SIMD4<Double>]) -> SIMD4<Double> {
        var s = SIMD4<Double>()
        for i in a.indices { s += a[i] * b[i] }
        return s
    }

    /// Diagonal of Σ_axes (∂²)ᵀ∂²: 4 from a node's own second difference, 1 from each interior neighbour's.
    private func regularisationDiagonal() -> [Double] {
        let n = size
        func along(_ c: Int) -> Double {
            var d = 0.0
            if c >= 1 && c <= n - 2 { d += 4 }
            if c - 1 >= 1 && c - 1 <= n - 2 { d += 1 }
            if c + 1 >= 1 && c + 1 <= n - 2 { d += 1 }
            return d
        }
        return (0..<(n * n * n)).map { i in along(i % n) + along((i / n) % n) + along(i / (n * n)) }
    }

    /// out = (A_data + λ·Σ ∂²ᵀ∂² + ridge)·x, by slices of blue over cores; every term is a gather, so slices never
    /// write the same node.
    private func multiply(_ x: [SIMD4<Double>], into out: inout [SIMD4<Double>], ridge: Double,
                          scratch second: inout [SIMD4<Double>]) {
        let n = size, plane = n * n
        // Second differences along each axis at interior nodes (zero elsewhere: those entries are never written,
        // so the scratch keeps its zeros), gathered first.
        x.withUnsafeBufferPointer { xs in
            second.withUnsafeMutableBufferPointer { sd in
                nonisolated(unsafe) let xp = xs, sp = sd
                DispatchQueue.concurrentPerform(iterations: n) { b in
                    for i in (b * plane)..<((b + 1) * plane) {
                        let r = i % n, g = (i / n) % n
                        if r >= 1 && r <= n - 2 { sp[3 * i] = xp[i - 1] - 2 * xp[i] + xp[i + 1] }
                        if g >= 1 && g <= n - 2 { sp[3 * i + 1] = xp[i - n] - 2 * xp[i] + xp[i + n] }
                        if b >= 1 && b <= n - 2 { sp[3 * i + 2] = xp[i - plane] - 2 * xp[i] + xp[i + plane] }
                    }
                }
            }
        }
        let lambda = self.lambda
        matrix.withUnsafeBufferPointer { ms in
            x.withUnsafeBufferPointer { xs in
                second.withUnsafeBufferPointer { sd in
                    out.withUnsafeMutableBufferPointer { os in
                        neighbour.withUnsafeBufferPointer { nb in
                            nonisolated(unsafe) let m = ms, xp = xs, sp = sd, op = os, offsets = nb
                            DispatchQueue.concurrentPerform(iterations: n) { b in
                                for i in (b * plane)..<((b + 1) * plane) {
                                    var acc = ridge * xp[i]
                                    let row = 27 * i
                                    for k in 0..<27 where m[row + k] != 0 {
                                        acc += m[row + k] * xp[i + offsets[k]]
                                    }
                                    let coords = (i % n, (i / n) % n, b)
                                    var reg = SIMD4<Double>()
                                    LatticeSolver.gather(&reg, sp, i, axis: 0, coord: coords.0, step: 1, n: n)
                                    LatticeSolver.gather(&reg, sp, i, axis: 1, coord: coords.1, step: n, n: n)
                                    LatticeSolver.gather(&reg, sp, i, axis: 2, coord: coords.2, step: plane, n: n)
                                    op[i] = acc + lambda * reg
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds node i's row of (∂²_axis)ᵀ times the second differences: s[i−e] − 2·s[i] + s[i+e], interior ones only.
    @inline(__always)
    private static func gather(_ reg: inout SIMD4<Double>, _ s: UnsafeBufferPointer<SIMD4<Double>>, _ i: Int,
                               axis: Int, coord: Int, step: Int, n: Int) {
        if coord >= 1 && coord <= n - 2 { reg -= 2 * s[3 * i + axis] }
        if coord - 1 >= 1 { reg += s[3 * (i - step) + axis] }
        if coord + 1 <= n - 2 { reg += s[3 * (i + step) + axis] }
    }
}
