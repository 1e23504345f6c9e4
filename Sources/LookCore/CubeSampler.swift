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
        withUnsafeTable { $0.sample(rgb, interpolation: interpolation) }
    }

    /// Runs `body` with the padded entries, for loops that sample many colours: `Table.sample` is this sampler's
    /// arithmetic with no array access or reference counting per call. The table is valid only inside `body`.
    @inlinable
    public func withUnsafeTable<R>(_ body: (Table) throws -> R) rethrows -> R {
        try table.withUnsafeBufferPointer { try body(Table(entries: $0, size: size)) }
    }

    /// A borrowed view of a sampler's entries (`SIMD4` per entry, red fastest), read-only.
    public struct Table {
        /// The padded entries, `size³` of them.
        public let entries: UnsafeBufferPointer<SIMD4<Float>>
        /// Entries per axis.
        public let size: Int

        /// Wraps `entries` of an `size`³ cube laid out as `CubeSampler` lays them out.
        @inlinable
        public init(entries: UnsafeBufferPointer<SIMD4<Float>>, size: Int) {
            self.entries = entries
            self.size = size
        }

        /// The cube's value at `rgb`, exactly as `CubeSampler.sample` computes it.
        @inlinable @inline(__always)
        public func sample(_ rgb: SIMD3<Float>, interpolation: Interpolation) -> SIMD3<Float> {
            let c = CubeSampler.Cell(rgb, size: size)
            let out: SIMD4<Float>
            switch interpolation {
            case .tetrahedral:
                out = CubeSampler.tetrahedral(entries, base: c.base, dr: c.dr, dg: c.dg, db: c.db, fr: c.fr, fg: c.fg,
                                              fb: c.fb)
            case .trilinear:
                out = CubeSampler.trilinear(entries, base: c.base, dr: c.dr, dg: c.dg, db: c.db, fr: c.fr, fg: c.fg,
                                            fb: c.fb)
            }
            return SIMD3(out.x, out.y, out.z)
        }
    }

    /// The lattice cell a colour falls in: its first entry, the grid steps to the next entry along each axis (0 at the
    /// top of an axis) and the fractions within the cell.
    @usableFromInline
    struct Cell {
        @usableFromInline let base: Int, dr: Int, dg: Int, db: Int
        @usableFromInline let fr: Float, fg: Float, fb: Float

        @inlinable @inline(__always)
        init(_ rgb: SIMD3<Float>, size n: Int) {
            let last = Float(n - 1)
            let r = Cell.axis(rgb.x, last: last, n: n, step: 1)
            let g = Cell.axis(rgb.y, last: last, n: n, step: n)
            let b = Cell.axis(rgb.z, last: last, n: n, step: n * n)
            base = r.cell + n * (g.cell + n * b.cell)
            fr = r.fraction
            fg = g.fraction
            fb = b.fraction
            dr = r.step
            dg = g.step
            db = b.step
        }

        /// Cell index, fraction and grid step along one axis; the step is 0 at the top so 1.0 returns the last
        /// entry exactly instead of c + 1·(c' − c).
        @inlinable @inline(__always)
        static func axis(_ value: Float, last: Float, n: Int, step: Int) -> (cell: Int, fraction: Float, step: Int) {
            // Scalar ternaries, not SIMD `clamped` and `rounded()`: those compiled to calls (generic pointwise
            // min/max, libm's roundf) that cost a tenth of a look extraction. Written so that NaN clamps to 0.
            var x = (value > 0 ? (value < 1 ? value : 1) : 0) * last
            // A grid colour i/(N−1) times (N−1) can land a few ulps off i; snapping keeps grid points exact.
            let nearest = Float(Int(x + 0.5))  // x ≥ 0: the same as rounded() wherever the snap can apply
            if Swift.abs(x - nearest) <= 4 * nearest.ulp { x = nearest }
            let cell = Swift.min(Int(x), n - 1)
            return (cell, x - Float(cell), cell < n - 1 ? step : 0)
        }
    }

    /// The entries and weights the interpolation at `rgb` combines (4 for tetrahedral, 8 for trilinear; unused lanes
    /// weigh 0): `sample` is Σ weights[k]·entry[nodes[k]] up to rounding. For fitting a cube, whose unknowns are
    /// the entries, by the same interpolation `apply` uses.
    @inlinable @inline(__always)
    public static func stencil(_ rgb: SIMD3<Float>, size: Int, interpolation: Interpolation) -> Stencil {
        let c = Cell(rgb, size: size)
        switch interpolation {
        case .tetrahedral:
            // The walk of `tetrahedral`: largest fraction first, ties keep red, then green.
            let swap1 = c.fg > c.fr
            let f1a = swap1 ? c.fg : c.fr, f2a = swap1 ? c.fr : c.fg
            let s1a = swap1 ? c.dg : c.dr, s2a = swap1 ? c.dr : c.dg
            let swap2 = c.fb > f2a
            let f2b = swap2 ? c.fb : f2a, f3 = swap2 ? f2a : c.fb
            let s2b = swap2 ? c.db : s2a, s3 = swap2 ? s2a : c.db
            let swap3 = f2b > f1a
            let f1 = swap3 ? f2b : f1a, f2 = swap3 ? f1a : f2b
            let s1 = swap3 ? s2b : s1a, s2 = swap3 ? s1a : s2b
            let a = c.base &+ s1, b = a &+ s2
            return Stencil(count: 4, nodes: SIMD8(c.base, a, b, b &+ s3, 0, 0, 0, 0),
                           weights: SIMD8(1 - f1, f1 - f2, f2 - f3, f3, 0, 0, 0, 0))
        case .trilinear:
            let r = SIMD8<Float>(1 - c.fr, c.fr, 1 - c.fr, c.fr, 1 - c.fr, c.fr, 1 - c.fr, c.fr)
            let g = SIMD8<Float>(1 - c.fg, 1 - c.fg, c.fg, c.fg, 1 - c.fg, 1 - c.fg, c.fg, c.fg)
            let b = SIMD8<Float>(1 - c.fb, 1 - c.fb, 1 - c.fb, 1 - c.fb, c.fb, c.fb, c.fb, c.fb)
            let nodes = SIMD8(repeating: c.base) &+ SIMD8(0, c.dr, c.dg, c.dr &+ c.dg, c.db, c.dr &+ c.db, c.dg &+ c.db,
                                                          c.dr &+ c.dg &+ c.db)
            return Stencil(count: 8, nodes: nodes, weights: r * g * b)
        }
    }

    /// Lattice entries and interpolation weights at one colour (see `stencil`).
    public struct Stencil: Sendable, Equatable {
        /// Entries used: 4 (tetrahedral) or 8 (trilinear).
        public var count: Int
        /// Entry indices (red fastest); lanes past `count` are 0.
        public var nodes: SIMD8<Int>
        /// Weights summing to 1; lanes past `count` are 0.
        public var weights: SIMD8<Float>

        /// A stencil of `count` entries.
        @inlinable
        public init(count: Int, nodes: SIMD8<Int>, weights: SIMD8<Float>) {
            self.count = count
            self.nodes = nodes
            self.weights = weights
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
