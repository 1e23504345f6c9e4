import CFitKernels
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
    /// The whole normal matrix, data, curvature and ridge, as a stencil: node i's row holds `coefficients[width·i + s]`
    /// for the node at i + `offsets[s]`. Offsets no row uses are dropped: 27 remain for tetrahedral interpolation
    /// (its 15 with the curvature's 25), 33 for trilinear. One pass over one array per product: the curvature
    /// applied as differences of differences instead took a second pass through a 7 MB scratch at 33³, and the
    /// data rows' zero tests a branch per coefficient (the product cost 1.6× as much).
    private let coefficients: [Double]
    private let offsets: [Int]
    private let width: Int
    /// The farthest any offset reaches in the flat index: the zeros a product's padded input carries at each end.
    private let reach: Int
    private let rhs: [SIMD4<Double>]
    private let lambda: Double
    /// The samples, for the two-level preconditioner's coarse lattice (built in `solve` when it is needed).
    private let samples: [FitSample]
    private let twoLevel: Bool

    /// Assembles the normal equations for `samples`; `smoothness` is λ relative to the mean data weight of an
    /// observed node, so it means the same whatever the number of pixels or bins (`lambda` sets λ itself).
    init(size n: Int, interpolation: Interpolation, samples: [FitSample], smoothness: Double,
         lambda given: Double? = nil, twoLevel: Bool = true) {
        size = n
        self.interpolation = interpolation
        let count = n * n * n, plane = n * n, slots = LatticeSolver.slotOffsets.count
        var full = [Double](repeating: 0, count: slots * count)
        var rhs = [SIMD4<Double>](repeating: .zero, count: count)
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
                    full[slots * i + LatticeSolver.slot(from: i, to: nodes[b], size: n)] += wa * weights[b]
                }
            }
        }
        var diagonalSum = 0.0, observed = 0
        for i in 0..<count where full[slots * i + LatticeSolver.centre] > 0 {
            diagonalSum += full[slots * i + LatticeSolver.centre]
            observed += 1
        }
        let lambda = given ?? smoothness * (observed > 0 ? diagonalSum / Double(observed) : 1)
        // A tiny ridge keeps the system definite where neither data nor curvature pins a node (a data-free
        // lattice); 1e-6 of λ moves an observed node by far less than a 16-bit code.
        let ridge = 1e-6 * lambda + 1e-12
        // Each difference's (weights ⊗ weights) added to the rows of the nodes it reads: ∂ᵀ∂ entry by entry.
        // A difference's nodes step by fixed offsets, so its entries' slots are the same at every node.
        let units = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        let steps = units.map { Offset($0).flat(size: n) }
        // Per axis (u, v) and per plane (corner u, corner v): the slot of v seen from u, and the weights' product.
        let axisSlots = units.flatMap { e in (0..<9).map { Offset((($0 % 3) - $0 / 3) &* e).slot } }
        let axisProducts: [Double] = (0..<9).map { [1.0, -2, 1][$0 / 3] * [1.0, -2, 1][$0 % 3] }
        let planes = [(0, 1), (0, 2), (1, 2)]
        let cornerOffsets = planes.map { a, b in [SIMD3<Int>(), units[a], units[b], units[a] &+ units[b]] }
        let corners = cornerOffsets.map { c in c.map { Offset($0).flat(size: n) } }
        let planeSlots = cornerOffsets.flatMap { c in (0..<16).map { Offset(c[$0 % 4] &- c[$0 / 4]).slot } }
        let planeProducts: [Double] = (0..<16).map { [1.0, -1, -1, 1][$0 / 4] * [1.0, -1, -1, 1][$0 % 4] }
        let mixed = lambda * LatticeSolver.mixedWeight
        full.withUnsafeMutableBufferPointer { f in
            for i in 0..<count {
                let coords = SIMD3(i % n, (i / n) % n, i / plane)
                for axis in 0..<3 where coords[axis] >= 1 && coords[axis] <= n - 2 {
                    for k in 0..<9 {
                        let row: Int = slots * (i + (k / 3 - 1) * steps[axis])
                        f[row + axisSlots[9 * axis + k]] += lambda * axisProducts[k]
                    }
                }
                for (p, (a, b)) in planes.enumerated() where coords[a] <= n - 2 && coords[b] <= n - 2 {
                    for k in 0..<16 {
                        let row: Int = slots * (i + corners[p][k / 4])
                        f[row + planeSlots[16 * p + k]] += mixed * planeProducts[k]
                    }
                }
                f[slots * i + LatticeSolver.centre] += ridge
            }
        }
        let used = (0..<slots).filter { k in (0..<count).contains { full[slots * $0 + k] != 0 } }
        offsets = used.map { LatticeSolver.slotOffsets[$0].flat(size: n) }
        width = used.count
        reach = offsets.map(abs).max() ?? 0
        var packed = [Double](repeating: 0, count: used.count * count)
        for i in 0..<count {
            for (k, slot) in used.enumerated() { packed[used.count * i + k] = full[slots * i + slot] }
        }
        coefficients = packed
        self.lambda = lambda
        self.rhs = rhs
        self.samples = samples
        self.twoLevel = twoLevel && n > CoarseCorrection.size
    }

    /// A node's neighbour at a lattice offset (red, green, blue steps).
    fileprivate struct Offset {
        let r, g, b: Int
        func flat(size n: Int) -> Int { r + n * g + n * n * b }
        /// Its index in `slotOffsets`: one of the 27 sharing a cell, or two steps along one axis.
        var slot: Int {
            if abs(r) <= 1 && abs(g) <= 1 && abs(b) <= 1 { return (r + 1) + 3 * (g + 1) + 9 * (b + 1) }
            return 27 + (r != 0 ? 0 : g != 0 ? 2 : 4) + (r + g + b > 0 ? 1 : 0)
        }
    }

    /// The offsets a row may use: every neighbour sharing a cell ({−1, 0, 1}³, which is all an interpolation stencil
    /// touches), then two steps along each axis (the axis curvature's reach).
    private static let slotOffsets: [Offset] = (0..<27).map { Offset(r: $0 % 3 - 1, g: ($0 / 3) % 3 - 1, b: $0 / 9 - 1) }
        + [Offset(r: -2, g: 0, b: 0), Offset(r: 2, g: 0, b: 0), Offset(r: 0, g: -2, b: 0), Offset(r: 0, g: 2, b: 0),
           Offset(r: 0, g: 0, b: -2), Offset(r: 0, g: 0, b: 2)]
    /// The node itself among `slotOffsets`.
    private static let centre = Offset(r: 0, g: 0, b: 0).slot

    /// Index in `slotOffsets` of node `j` seen from node `i`.
    private static func slot(from i: Int, to j: Int, size n: Int) -> Int {
        Offset(r: j % n - i % n, g: (j / n) % n - (i / n) % n, b: j / (n * n) - i / (n * n)).slot
    }

    /// The deviation D minimising the objective, starting from `initial` (nil: identity, D = 0).
    ///
    /// The residual is relative to the right-hand side: 1e-4 moves no entry by a visible amount (measured: the
    /// fitted cube changes by < 1e-4 between 1e-4 and 1e-6), while CG plateaus near 1e-6 on this system.
    func solve(initial: [SIMD4<Double>]?, tolerance: Double = 1e-4, maxIterations: Int = 400) -> [SIMD4<Double>] {
        let count = size * size * size
        var x = initial ?? [SIMD4<Double>](repeating: .zero, count: count)
        var inverseDiagonal = [SIMD4<Double>](repeating: .zero, count: count)
        let centre = offsets.firstIndex(of: 0)!
        for i in 0..<count { inverseDiagonal[i] = SIMD4(repeating: 1 / coefficients[width * i + centre]) }
        let ax = product(x)
        var r = (0..<count).map { rhs[$0] - ax[$0] }
        let bNorm = dot(rhs, rhs)
        let stop = SIMD4<Double>(repeating: tolerance * tolerance) * bNorm.replacing(with: 1, where: bNorm .== 0)
        // A start that already solves the system (a later round whose weights hardly moved) needs no coarse lattice.
        let coarse = twoLevel && !all(dot(r, r) .<= stop)
            ? CoarseCorrection(fineSize: size, interpolation: interpolation, samples: samples, lambda: lambda) : nil
        var z = (0..<count).map { inverseDiagonal[$0] * r[$0] }
        coarse?.add(to: &z, residual: r)
        // The search direction lives inside its product's padding, so no iteration copies it.
        var padded = [SIMD4<Double>](repeating: .zero, count: count + 2 * reach)
        for i in 0..<count { padded[reach + i] = z[i] }
        var rz = dot(r, z)
        var ap = [SIMD4<Double>](repeating: .zero, count: count)
        for _ in 0..<maxIterations {
            if all(dot(r, r) .<= stop) { break }
            padded.withUnsafeBufferPointer { p in ap.withUnsafeMutableBufferPointer { multiply(p, into: $0) } }
            var pap = SIMD4<Double>()
            for i in 0..<count { pap += padded[reach + i] * ap[i] }
            let alpha = (rz / pap).replacing(with: 0, where: pap .<= 0)
            for i in 0..<count {
                x[i] += alpha * padded[reach + i]
                r[i] -= alpha * ap[i]
                z[i] = inverseDiagonal[i] * r[i]
            }
            coarse?.add(to: &z, residual: r)
            let rzNew = dot(r, z)
            let beta = (rzNew / rz).replacing(with: 0, where: rz .<= 0)
            rz = rzNew
            for i in 0..<count { padded[reach + i] = z[i] + beta * padded[reach + i] }
        }
        return x
    }

    private func dot(_ a: [SIMD4<Double>], _ b: [SIMD4<Double>]) -> SIMD4<Double> {
        var s = SIMD4<Double>()
        for i in a.indices { s += a[i] * b[i] }
        return s
    }

    /// A·x (the whole normal matrix, curvature and ridge included); `vector` false takes the portable kernel.
    func product(_ x: [SIMD4<Double>], vector: Bool = true) -> [SIMD4<Double>] {
        var padded = [SIMD4<Double>](repeating: .zero, count: x.count + 2 * reach)
        padded.replaceSubrange(reach..<(reach + x.count), with: x)
        var out = [SIMD4<Double>](repeating: .zero, count: x.count)
        padded.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { multiply(p, into: $0, vector: vector) }
        }
        return out
    }

    /// out = A·x for `x` held with `reach` zeros before and after it, by slices of blue over cores
    /// (`lsfit_stencil_multiply`; `vector` false takes its portable kernel).
    private func multiply(_ x: UnsafeBufferPointer<SIMD4<Double>>, into out: UnsafeMutableBufferPointer<SIMD4<Double>>,
                          vector: Bool = true) {
        let plane = size * size, width = Int32(self.width), reach = self.reach
        coefficients.withUnsafeBufferPointer { cs in offsets.withUnsafeBufferPointer { os in
            nonisolated(unsafe) let c = cs, offset = os, xs = x, op = out
            DispatchQueue.concurrentPerform(iterations: size) { b in
                xs.baseAddress!.withMemoryRebound(to: Double.self, capacity: 4 * xs.count) { padded in
                    op.baseAddress!.withMemoryRebound(to: Double.self, capacity: 4 * op.count) { o in
                        lsfit_stencil_multiply(vector ? 1 : 0, c.baseAddress, offset.baseAddress, width,
                                               padded + 4 * reach, o, b * plane, (b + 1) * plane)
                    }
                }
            }
        } }
    }

    /// The matrix's lower triangle as a band, for `CoarseCorrection` to factorise: `bandwidth` is the farthest
    /// any row reaches, and row i holds entry (i, j) at (bandwidth + 1)·i + bandwidth − i + j for
    /// i − bandwidth ≤ j ≤ i (zeros where j would fall before the first node).
    fileprivate func lowerBand() -> (bandwidth: Int, values: [Double]) {
        let count = size * size * size, rowLength = reach + 1
        var a = [Double](repeating: 0, count: count * rowLength)
        for i in 0..<count {
            for k in 0..<width where offsets[k] <= 0 && coefficients[width * i + k] != 0 {
                a[rowLength * i + reach + offsets[k]] += coefficients[width * i + k]
            }
        }
        return (reach, a)
    }

    /// Weight of each mixed second difference against the axis ones: 2, as in the Hessian's squared Frobenius norm
    /// (∂²_rg and ∂²_gr are one entry counted twice), the one curvature measure that no rotation of the colour
    /// axes changes.
    static let mixedWeight = 2.0
}

extension LatticeSolver.Offset {
    /// The offset (red, green, blue steps) held in a vector.
    init(_ v: SIMD3<Int>) { self.init(r: v.x, g: v.y, b: v.z) }
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
    /// Cholesky factor L of A_c in single precision, stored as `lsfit_cholesky_solve` reads it: by rows of its
    /// band (A_c reaches `band` nodes either side of its diagonal, two blue steps, and L fills in only within that
    /// band), 0.48 MB where the packed triangle took 1 MB and the dense matrix 4.2 MB. The two triangular solves
    /// read it whole every iteration, and the factorisation costs a band's m·band² instead of m³.
    private let factor: [Float]
    private let band: Int
    /// Per fine coordinate along an axis: its lower coarse neighbour and the upper one's weight. Trilinear
    /// interpolation is one such step per axis, so P and Pᵀ run as three sweeps over ever larger (or smaller)
    /// arrays instead of eight weighted reads per fine node (a sixth of an iteration's time, from 3.4 MB of tables).
    private let low: [Int]
    private let upper: [Double]
    private let fine: Int

    init(fineSize n: Int, interpolation: Interpolation, samples: [FitSample], lambda: Double) {
        let c = CoarseCorrection.size, m = c * c * c
        let system = LatticeSolver(size: c, interpolation: interpolation, samples: samples, smoothness: 0,
                                   lambda: lambda, twoLevel: false)
        let banded = system.lowerBand(), b = banded.bandwidth
        var lower = banded.values
        // Cholesky, in place: A_c is symmetric positive definite (data Gram matrix + curvature + ridge), and its
        // factor keeps its band. Row i's entries sit at (i + 1)·b + column, so each entry is one dot product of two
        // contiguous stretches of rows, from the later row's first column in the band.
        lower.withUnsafeMutableBufferPointer { a in
            for j in 0..<m {
                let rowJ = a.baseAddress! + (j + 1) * b, first = max(0, j - b)
                let d = rowJ[j] - CoarseCorrection.dot(rowJ + first, rowJ + first, j - first)
                let root = d > 0 ? d.squareRoot() : 1e-300
                rowJ[j] = root
                for i in (j + 1)..<max(j + 1, min(m, j + b + 1)) {
                    let rowI = a.baseAddress! + (i + 1) * b, from = max(0, i - b)
                    rowI[j] = (rowI[j] - CoarseCorrection.dot(rowI + from, rowJ + from, j - from)) / root
                }
            }
        }
        factor = lower.map { Float($0) }
        band = b
        let step = Double(c - 1) / Double(n - 1)
        low = (0..<n).map { min(Int(Double($0) * step), c - 2) }
        upper = (0..<n).map { Double($0) * step - Double(min(Int(Double($0) * step), c - 2)) }
        fine = n
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

    /// Adds P·A_c⁻¹·Pᵀ·residual to `z` (the three channels at once); the triangular solves are
    /// `lsfit_cholesky_solve`'s (`vector` false takes its portable kernel).
    func add(to z: inout [SIMD4<Double>], residual: [SIMD4<Double>], vector: Bool = true) {
        let c = CoarseCorrection.size, m = c * c * c, n = fine
        // Pᵀ·residual, one axis at a time: red (n³ → c·n²), green (→ c²·n), blue (→ c³).
        var alongRed = [SIMD4<Double>](repeating: .zero, count: c * n * n)
        var alongGreen = [SIMD4<Double>](repeating: .zero, count: c * c * n)
        var y = [SIMD4<Double>](repeating: .zero, count: m)
        for row in 0..<(n * n) {
            for r in 0..<n {
                let v = residual[r + n * row], j = low[r] + c * row
                alongRed[j] += (1 - upper[r]) * v
                alongRed[j + 1] += upper[r] * v
            }
        }
        for b in 0..<n {
            for g in 0..<n {
                let from = c * (g + n * b), to = c * (low[g] + c * b)
                for i in 0..<c {
                    alongGreen[to + i] += (1 - upper[g]) * alongRed[from + i]
                    alongGreen[to + c + i] += upper[g] * alongRed[from + i]
                }
            }
        }
        for b in 0..<n {
            let from = c * c * b, to = c * c * low[b]
            for i in 0..<(c * c) {
                y[to + i] += (1 - upper[b]) * alongGreen[from + i]
                y[to + c * c + i] += upper[b] * alongGreen[from + i]
            }
        }
        // L·Lᵀ·u = y: forward, then back substitution.
        factor.withUnsafeBufferPointer { l in y.withUnsafeMutableBufferPointer { u in
            u.baseAddress!.withMemoryRebound(to: Double.self, capacity: 4 * m) {
                lsfit_cholesky_solve(vector ? 1 : 0, l.baseAddress, Int32(m), Int32(band), $0)
            }
        } }
        // P·u, the sweeps reversed: blue, green, then red into z.
        for b in 0..<n {
            let from = c * c * low[b], to = c * c * b
            for i in 0..<(c * c) { alongGreen[to + i] = (1 - upper[b]) * y[from + i] + upper[b] * y[from + c * c + i] }
        }
        for b in 0..<n {
            for g in 0..<n {
                let from = c * (low[g] + c * b), to = c * (g + n * b)
                for i in 0..<c {
                    alongRed[to + i] = (1 - upper[g]) * alongGreen[from + i] + upper[g] * alongGreen[from + c + i]
                }
            }
        }
        for row in 0..<(n * n) {
            for r in 0..<n {
                let j = low[r] + c * row
                z[r + n * row] += (1 - upper[r]) * alongRed[j] + upper[r] * alongRed[j + 1]
            }
        }
    }
}
