/// Interpolates a `ColorCube` at arbitrary colours in Float; used by composition and the Float pixel path.
///
/// The sampler keeps a padded copy of the entries (`SIMD4` per entry, so one load per corner).
public struct CubeSampler: Sendable {
    /// Entries per axis.
    public let size: Int
    @usableFromInline let table: [SIMD4<Float>]

    /// Prepares `cube` for sampling.
    public init(_ cube: ColorCube) {
        size = cube.size
        let v = cube.values
        table = (0..<cube.entryCount).map { SIMD4(v[3 * $0], v[3 * $0 + 1], v[3 * $0 + 2], 0) }
    }

    /// The cube's value at `rgb`; inputs are clamped to 0…1, grid points are returned exactly.
    @inlinable
    public func sample(_ rgb: SIMD3<Float>, interpolation: Interpolation) -> SIMD3<Float> {
        let n = size
        var x = rgb.clamped(lowerBound: .zero, upperBound: .one) * Float(n - 1)
        // A grid colour i/(N−1) times (N−1) can land a few ulps off i; snapping keeps grid points exact.
        for c in 0..<3 {
            let nearest = x[c].rounded()
            if Swift.abs(x[c] - nearest) <= 4 * nearest.ulp { x[c] = nearest }
        }
        // At the top of an axis the step is 0, so 1.0 returns the last entry exactly instead of c + 1·(c' − c).
        let r0 = Swift.min(Int(x.x), n - 1), g0 = Swift.min(Int(x.y), n - 1), b0 = Swift.min(Int(x.z), n - 1)
        let fr = x.x - Float(r0), fg = x.y - Float(g0), fb = x.z - Float(b0)
        let base = r0 + n * (g0 + n * b0)
        let dr = r0 < n - 1 ? 1 : 0, dg = g0 < n - 1 ? n : 0, db = b0 < n - 1 ? n * n : 0
        return table.withUnsafeBufferPointer { t -> SIMD3<Float> in
            let out: SIMD4<Float>
            switch interpolation {
            case .tetrahedral:
                out = CubeSampler.tetrahedral(t, base: base, dr: dr, dg: dg, db: db, fr: fr, fg: fg, fb: fb)
            case .trilinear:
                out = CubeSampler.trilinear(t, base: base, dr: dr, dg: dg, db: db, fr: fr, fg: fg, fb: fb)
            }
            return SIMD3(out.x, out.y, out.z)
        }
    }

    /// Tetrahedral interpolation in the cell at `base`, without data-dependent branches.
    ///
    /// The six tetrahedra are the six orderings of the fractions: sorting (fr, fg, fb) largest first, with their grid
    /// steps, gives the walk c000 → cA → cB → c111 with weights f1, f2, f3. Grainy photographs pick a tetrahedron
    /// almost at random per pixel, so a six-way branch mispredicts often; selects measured 115 vs 83 Mpix/s.
    @inlinable @inline(__always)
    static func tetrahedral(
        _ t: UnsafeBufferPointer<SIMD4<Float>>, base: Int, dr: Int, dg: Int, db: Int, fr: Float, fg: Float, fb: Float
    ) -> SIMD4<Float> {
        // Ternaries, not Swift.max/min: those keep IEEE NaN rules and compile to a four-instruction blend.
        let swap1 = fg > fr
        let f1a = swap1 ? fg : fr, f2a = swap1 ? fr : fg
        let s1a = select(swap1, dg, dr), s2a = select(swap1, dr, dg)
        let swap2 = fb > f2a
        let f2b = swap2 ? fb : f2a, f3 = swap2 ? f2a : fb
        let s2b = select(swap2, db, s2a), s3 = select(swap2, s2a, db)
        let swap3 = f2b > f1a
        let f1 = swap3 ? f2b : f1a, f2 = swap3 ? f1a : f2b
        let s1 = select(swap3, s2b, s1a), s2 = select(swap3, s1a, s2b)
        let c000 = t[base], ca = t[base &+ s1], cb = t[base &+ s1 &+ s2], c111 = t[base &+ s1 &+ s2 &+ s3]
        return c000 + f1 * (ca - c000) + f2 * (cb - ca) + f3 * (c111 - cb)
    }

    /// `condition ? a : b` by masking, so the compiler cannot turn it into a branch.
    @inlinable @inline(__always)
    static func select(_ condition: Bool, _ a: Int, _ b: Int) -> Int {
        let mask = 0 &- Int(unsafeBitCast(condition, to: UInt8.self))
        return b ^ ((a ^ b) & mask)
    }

    /// Trilinear interpolation: three rounds of linear blends over the cell's eight corners.
    @inlinable @inline(__always)
    static func trilinear(
        _ t: UnsafeBufferPointer<SIMD4<Float>>, base: Int, dr: Int, dg: Int, db: Int, fr: Float, fg: Float, fb: Float
    ) -> SIMD4<Float> {
        let c000 = t[base], c100 = t[base &+ dr], c010 = t[base &+ dg], c110 = t[base &+ dr &+ dg]
        let c001 = t[base &+ db], c101 = t[base &+ dr &+ db], c011 = t[base &+ dg &+ db]
        let c111 = t[base &+ dr &+ dg &+ db]
        let c00 = c000 + fr * (c100 - c000), c10 = c010 + fr * (c110 - c010)
        let c01 = c001 + fr * (c101 - c001), c11 = c011 + fr * (c111 - c011)
        let c0 = c00 + fg * (c10 - c00), c1 = c01 + fg * (c11 - c01)
        return c0 + fb * (c1 - c0)
    }
}
