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
///     minimise Σ_s w_s ‖W_s·D − (y_s − x_s)‖² + λ (Σ_axes ‖∂²_axis D‖² + 2 Σ_planes ‖∂²_mixed D‖²)
///
/// where W_s are the interpolation weights `apply` uses at the sample's before colour x_s (so the cube reproduces
/// the pair through apply, and identity interpolates to x_s exactly), ∂²_axis is the lattice's second difference
/// along red, green or blue at interior nodes and ∂²_mixed the mixed difference over each cell's face in the
/// red–green, red–blue and green–blue planes: together the Hessian's squared norm (thin-plate energy), which only
/// an affine deviation (a global matrix or offset) escapes, so beyond the pair's colours the fit extrapolates
/// linearly, never back to identity. The axis terms alone let every multilinear twist (red × green, …) pass free,
/// so a twist the pair shows among its own colours grew unchecked towards the cube's far corners (docs/EXTRACT.md,
/// "Curvature across the axes"). The normal equations are solved by conjugate gradients, three channels at once
/// (they share the matrix), with the matrix-vector product split over cores, preconditioned on two levels: Jacobi
/// scaling plus a coarse 9³ lattice's exact solve (`CoarseCorrection`).
struct LatticeSolver {
    let size: Int
    let interpolation: Interpolation
    /// Data part of the normal matrix: for node i, 27 coefficients for the neighbours at offsets {−1, 0, 1}³
    /// (every pair of nodes sharing a lattice cell, which is all an interpolation stencil touches).
    private var matrix: [Double]
    private var rhs: [SIMD4<Double>]
    private let lambda: Double
    private let neighbour: [Int]
    /// The samples, for the two-level preconditioner's coarse lattice (built in `solve` when it is needed).
    private let samples: [FitSample]
    private let twoLevel: Bool

    /// Assembles the normal equations for `samples`; `smoothness` is λ relative to the mean data weight of an
    /// observed node, so it means the same whatever the number of pixels or bins (`lambda` sets λ itself).
    init(size n: Int, interpolation: Interpolation, samples: [FitSample], smoothness: Double,
         lambda given: Double? = nil, twoLevel: Bool = true) {
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
        lambda = given ?? smoothness * (observed > 0 ? diagonalSum / Double(observed) : 1)
        self.matrix = matrix
        self.rhs = rhs
        self.samples = samples
        self.twoLevel = twoLevel && n > CoarseCorrection.size
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
        // The second differences' scratch (three axis and three mixed per node), reused by every product (a fresh
        // array per product, 7 MB at 33³, cost page faults and zeroing on each of up to 400 iterations).
        var second = [SIMD4<Double>](repeating: .zero, count: 6 * count)
        multiply(x, into: &ax, ridge: ridge, scratch: &second)
        var r = (0..<count).map { rhs[$0] - ax[$0] }
        let bNorm = dot(rhs, rhs)
        let stop = SIMD4<Double>(repeating: tolerance * tolerance) * bNorm.replacing(with: 1, where: bNorm .== 0)
        // A start that already solves the system (a later round whose weights hardly moved) needs no coarse lattice.
        let coarse = twoLevel && !all(dot(r, r) .<= stop)
            ? CoarseCorrection(fineSize: size, interpolation: interpolation, samples: samples, lambda: lambda) : nil
        var z = (0..<count).map { inverseDiagonal[$0] * r[$0] }
        coarse?.add(to: &z, residual: r)
        var p = z
        var rz = dot(r, z)
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
            coarse?.add(to: &z, residual: r)
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

    /// Diagonal of the curvature term: per axis 4 from a node's own second difference and 1 from each interior
    /// neighbour's; per plane the mixed weight once for every cell the node is a corner of.
    private func regularisationDiagonal() -> [Double] {
        let n = size
        func along(_ c: Int) -> Double {
            var d = 0.0
            if c >= 1 && c <= n - 2 { d += 4 }
            if c - 1 >= 1 && c - 1 <= n - 2 { d += 1 }
            if c + 1 >= 1 && c + 1 <= n - 2 { d += 1 }
            return d
        }
        // Cells of one plane that hold a node: 1, 2 or 4 (fewer on the lattice's faces).
        func cells(_ c: Int) -> Double { Double((c >= 1 ? 1 : 0) + (c <= n - 2 ? 1 : 0)) }
        let mu = LatticeSolver.mixedWeight
        return (0..<(n * n * n)).map { i in
            let r = i % n, g = (i / n) % n, b = i / (n * n)
            return along(r) + along(g) + along(b)
                + mu * (cells(r) * cells(g) + cells(r) * cells(b) + cells(g) * cells(b))
        }
    }

    /// The matrix product, for `CoarseCorrection` to assemble a small lattice's matrix column by column.
    fileprivate func multiplyForCoarse(_ x: [SIMD4<Double>], into out: inout [SIMD4<Double>], ridge: Double,
                                       scratch: inout [SIMD4<Double>]) {
        multiply(x, into: &out, ridge: ridge, scratch: &scratch)
    }

    /// out = (A_data + λ·(Σ ∂²ᵀ∂² + 2 Σ ∂²_mixedᵀ∂²_mixed) + ridge)·x, by slices of blue over cores; every term
    /// is a gather, so slices never write the same node.
    private func multiply(_ x: [SIMD4<Double>], into out: inout [SIMD4<Double>], ridge: Double,
                          scratch second: inout [SIMD4<Double>]) {
        let n = size, plane = n * n
        // Second differences along each axis at interior nodes and mixed ones at each cell's base node (zero
        // elsewhere: those entries are never written, so the scratch keeps its zeros), gathered first.
        x.withUnsafeBufferPointer { xs in
            second.withUnsafeMutableBufferPointer { sd in
                nonisolated(unsafe) let xp = xs, sp = sd
                DispatchQueue.concurrentPerform(iterations: n) { b in
                    for i in (b * plane)..<((b + 1) * plane) {
                        let r = i % n, g = (i / n) % n
                        if r >= 1 && r <= n - 2 { sp[6 * i] = xp[i - 1] - 2 * xp[i] + xp[i + 1] }
                        if g >= 1 && g <= n - 2 { sp[6 * i + 1] = xp[i - n] - 2 * xp[i] + xp[i + n] }
                        if b >= 1 && b <= n - 2 { sp[6 * i + 2] = xp[i - plane] - 2 * xp[i] + xp[i + plane] }
                        if r <= n - 2 && g <= n - 2 {
                            sp[6 * i + 3] = xp[i] - xp[i + 1] - xp[i + n] + xp[i + 1 + n]
                        }
                        if r <= n - 2 && b <= n - 2 {
                            sp[6 * i + 4] = xp[i] - xp[i + 1] - xp[i + plane] + xp[i + 1 + plane]
                        }
                        if g <= n - 2 && b <= n - 2 {
                            sp[6 * i + 5] = xp[i] - xp[i + n] - xp[i + plane] + xp[i + n + plane]
                        }
                    }
                }
            }
        }
        let lambda = self.lambda, mu = LatticeSolver.mixedWeight
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
                                    var twist = SIMD4<Double>()
                                    LatticeSolver.gatherMixed(&twist, sp, i, slot: 3, a: coords.0, stepA: 1,
                                                              b: coords.1, stepB: n, n: n)
                                    LatticeSolver.gatherMixed(&twist, sp, i, slot: 4, a: coords.0, stepA: 1,
                                                              b: coords.2, stepB: plane, n: n)
                                    LatticeSolver.gatherMixed(&twist, sp, i, slot: 5, a: coords.1, stepA: n,
                                                              b: coords.2, stepB: plane, n: n)
                                    op[i] = acc + lambda * (reg + mu * twist)
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
        if coord >= 1 && coord <= n - 2 { reg -= 2 * s[6 * i + axis] }
        if coord - 1 >= 1 { reg += s[6 * (i - step) + axis] }
        if coord + 1 <= n - 2 { reg += s[6 * (i + step) + axis] }
    }

    /// Adds node i's row of the transposed mixed difference in one plane (coordinates a and b): the node is a
    /// corner of up to four cells, with sign + at a cell's base and far corner and − at the other two.
    @inline(__always)
    private static func gatherMixed(_ reg: inout SIMD4<Double>, _ s: UnsafeBufferPointer<SIMD4<Double>>, _ i: Int,
                                    slot: Int, a: Int, stepA: Int, b: Int, stepB: Int, n: Int) {
        if a <= n - 2 && b <= n - 2 { reg += s[6 * i + slot] }
        if a >= 1 && b <= n - 2 { reg -= s[6 * (i - stepA) + slot] }
        if a <= n - 2 && b >= 1 { reg -= s[6 * (i - stepB) + slot] }
        if a >= 1 && b >= 1 { reg += s[6 * (i - stepA - stepB) + slot] }
    }

    /// Weight of each mixed second difference against the axis ones: 2, as in the Hessian's squared Frobenius norm
    /// (∂²_rg and ∂²_gr are one entry counted twice), the one curvature measure that no rotation of the colour
    /// axes changes.
    static let mixedWeight = 2.0
}

/// The coarse half of a two-level preconditioner, M⁻¹ = D⁻¹ + P·A_c⁻¹·Pᵀ: P interpolates a 9³ lattice onto the fine
/// one (trilinearly) and A_c is the same fit's normal matrix on that 9³ lattice, with the fine λ, factorised once.
///
/// Why: the curvature penalty makes the slowest modes of the fine system the smooth ones far from the data (the
/// extrapolation), whose eigenvalues fall with the fourth power of the lattice size; Jacobi scaling does nothing
/// for them and conjugate gradients ran into their 400-iteration cap on noisy pairs. A coarse lattice represents
/// exactly those modes, and 729 unknowns factorise densely in milliseconds (docs/EXTRACT.md, "Speed").
struct CoarseCorrection {
    static let size = 9
    /// Cholesky factor L (row-major, lower triangle) of A_c.
    private var factor: [Double]
    /// Per fine node: its 8 coarse neighbours and their trilinear weights.
    private let nodes: [SIMD8<Int32>]
    private let weights: [SIMD8<Double>]

    init(fineSize n: Int, interpolation: Interpolation, samples: [FitSample], lambda: Double) {
        let c = CoarseCorrection.size, m = c * c * c
        let system = LatticeSolver(size: c, interpolation: interpolation, samples: samples, smoothness: 0,
                                   lambda: lambda, twoLevel: false)
        var dense = [Double](repeating: 0, count: m * m)
        var unit = [SIMD4<Double>](repeating: .zero, count: m), column = unit
        var scratch = [SIMD4<Double>](repeating: .zero, count: 6 * m)
        let ridge = 1e-6 * lambda + 1e-12
        // The channels share the matrix, so each product yields four columns: unit vectors in the four lanes.
        for j in stride(from: 0, to: m, by: 4) {
            let lanes = min(4, m - j)
            for l in 0..<lanes { unit[j + l][l] = 1 }
            system.multiplyForCoarse(unit, into: &column, ridge: ridge, scratch: &scratch)
            for l in 0..<lanes {
                unit[j + l][l] = 0
                for i in 0..<m { dense[i * m + j + l] = column[i][l] }
            }
        }
        // Cholesky, in place: A_c is symmetric positive definite (data Gram matrix + curvature + ridge). Rows are
        // contiguous, so each entry is one dot product of two row prefixes.
        dense.withUnsafeMutableBufferPointer { a in
            for j in 0..<m {
                let rowJ = a.baseAddress! + j * m
                let d = rowJ[j] - CoarseCorrection.dot(rowJ, rowJ, j)
                let root = d > 0 ? d.squareRoot() : 1e-300
                rowJ[j] = root
                for i in (j + 1)..<max(j + 1, m) {
                    let rowI = a.baseAddress! + i * m
                    rowI[j] = (rowI[j] - CoarseCorrection.dot(rowI, rowJ, j)) / root
                }
            }
        }
        factor = dense
        var nodes: [SIMD8<Int32>] = [], weights: [SIMD8<Double>] = []
        let step = Double(c - 1) / Double(n - 1)
        nodes.reserveCapacity(n * n * n)
        weights.reserveCapacity(n * n * n)
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    let x = SIMD3(Double(r), Double(g), Double(b)) * step
                    let low = SIMD3<Int>(min(Int(x.x), c - 2), min(Int(x.y), c - 2), min(Int(x.z), c - 2))
                    let f = x - SIMD3(Double(low.x), Double(low.y), Double(low.z))
                    var ns = SIMD8<Int32>(), ws = SIMD8<Double>()
                    for k in 0..<8 {
                        let dr = k & 1, dg = (k >> 1) & 1, db = k >> 2
                        ns[k] = Int32((low.x + dr) + c * (low.y + dg) + c * c * (low.z + db))
                        ws[k] = (dr == 1 ? f.x : 1 - f.x) * (dg == 1 ? f.y : 1 - f.y) * (db == 1 ? f.z : 1 - f.z)
                    }
                    nodes.append(ns)
                    weights.append(ws)
                }
            }
        }
        self.nodes = nodes
        self.weights = weights
    }

    /// Σ a[k]·b[k] for k < n, four lanes at a time (the factorisation's inner loop).
    @inline(__always)
    private static func dot(_ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, _ n: Int) -> Double {
        var lanes = SIMD4<Double>(), k = 0
        while k + 4 <= n {
            lanes += UnsafeRawPointer(a + k).loadUnaligned(as: SIMD4<Double>.self)
                * UnsafeRawPointer(b + k).loadUnaligned(as: SIMD4<Double>.self)
            k += 4
        }
        var sum = lanes.sum()
        while k < n {
            sum += a[k] * b[k]
            k += 1
        }
        return sum
    }

    /// Adds P·A_c⁻¹·Pᵀ·residual to `z` (the three channels at once). Restriction and prolongation run on all
    /// cores: with the triangular solves they cost about as much as a fine matrix product, once per iteration.
    func add(to z: inout [SIMD4<Double>], residual: [SIMD4<Double>]) {
        let c = CoarseCorrection.size, m = c * c * c
        let count = residual.count, parts = LookExtractor.chunkCount
        // Pᵀ·residual: each part scatters its share of fine nodes into its own coarse vector, then they are summed.
        var partial = [[SIMD4<Double>]](repeating: [], count: parts)
        residual.withUnsafeBufferPointer { rs in nodes.withUnsafeBufferPointer { ns in
            weights.withUnsafeBufferPointer { ws in partial.withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let r = rs, n = ns, w = ws, o = out
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    var y = [SIMD4<Double>](repeating: .zero, count: m)
                    for i in (count * part / parts)..<(count * (part + 1) / parts) {
                        let near = n[i], weight = w[i], v = r[i]
                        for k in 0..<8 { y[Int(near[k])] += weight[k] * v }
                    }
                    o[part] = y
                }
            } }
        } }
        var y = partial[0]
        for part in 1..<parts { for j in 0..<m { y[j] += partial[part][j] } }
        // L·Lᵀ·u = y: forward, then back substitution.
        factor.withUnsafeBufferPointer { l in y.withUnsafeMutableBufferPointer { u in
            for i in 0..<m {
                var v = u[i]
                for k in 0..<i { v -= l[i * m + k] * u[k] }
                u[i] = v / l[i * m + i]
            }
            // Lᵀ·u = y column by column, so L is still read along its rows.
            for i in stride(from: m - 1, through: 0, by: -1) {
                u[i] /= l[i * m + i]
                let value = u[i]
                for k in 0..<i { u[k] -= l[i * m + k] * value }
            }
        } }
        y.withUnsafeBufferPointer { us in nodes.withUnsafeBufferPointer { ns in weights.withUnsafeBufferPointer { ws in
            z.withUnsafeMutableBufferPointer { zs in
                nonisolated(unsafe) let u = us, n = ns, w = ws, out = zs
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    for i in (count * part / parts)..<(count * (part + 1) / parts) {
                        let near = n[i], weight = w[i]
                        var v = SIMD4<Double>()
                        for k in 0..<8 { v += weight[k] * u[Int(near[k])] }
                        out[i] += v
                    }
                }
            }
        } } }
    }
}
