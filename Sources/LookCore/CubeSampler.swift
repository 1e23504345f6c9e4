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
        let x = rgb.clamped(lowerBound: .zero, upperBound: .one) * Float(n - 1)
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

    /// Replaces every RGB triple in `rgb` by the cube's value there.
    public func apply(toFloatRGB rgb: UnsafeMutableBufferPointer<Float>, interpolation: Interpolation) {
        var i = 0
        while i + 2 < rgb.count {
            let o = sample(SIMD3(rgb[i], rgb[i + 1], rgb[i + 2]), interpolation: interpolation)
            rgb[i] = o.x
            rgb[i + 1] = o.y
            rgb[i + 2] = o.z
            i += 3
        }
    }

    /// Tetrahedral interpolation in the cell at `base`; the tetrahedron is chosen by ordering the fractions.
    @inlinable @inline(__always)
    static func tetrahedral(
        _ t: UnsafeBufferPointer<SIMD4<Float>>, base: Int, dr: Int, dg: Int, db: Int, fr: Float, fg: Float, fb: Float
    ) -> SIMD4<Float> {
        let c000 = t[base], c111 = t[base + dr + dg + db]
        if fr > fg {
            if fg > fb {
                let c100 = t[base + dr], c110 = t[base + dr + dg]
                return c000 + fr * (c100 - c000) + fg * (c110 - c100) + fb * (c111 - c110)
            } else if fr > fb {
                let c100 = t[base + dr], c101 = t[base + dr + db]
                return c000 + fr * (c100 - c000) + fb * (c101 - c100) + fg * (c111 - c101)
            } else {
                let c001 = t[base + db], c101 = t[base + dr + db]
                return c000 + fb * (c001 - c000) + fr * (c101 - c001) + fg * (c111 - c101)
            }
        } else {
            if fb > fg {
                let c001 = t[base + db], c011 = t[base + dg + db]
                return c000 + fb * (c001 - c000) + fg * (c011 - c001) + fr * (c111 - c011)
            } else if fb > fr {
                let c010 = t[base + dg], c011 = t[base + dg + db]
                return c000 + fg * (c010 - c000) + fb * (c011 - c010) + fr * (c111 - c011)
            } else {
                let c010 = t[base + dg], c110 = t[base + dr + dg]
                return c000 + fg * (c010 - c000) + fr * (c110 - c010) + fb * (c111 - c110)
            }
        }
    }

    /// Trilinear interpolation: three rounds of linear blends over the cell's eight corners.
    @inlinable @inline(__always)
    static func trilinear(
        _ t: UnsafeBufferPointer<SIMD4<Float>>, base: Int, dr: Int, dg: Int, db: Int, fr: Float, fg: Float, fb: Float
    ) -> SIMD4<Float> {
        let c000 = t[base], c100 = t[base + dr], c010 = t[base + dg], c110 = t[base + dr + dg]
        let c001 = t[base + db], c101 = t[base + dr + db], c011 = t[base + dg + db], c111 = t[base + dr + dg + db]
        let c00 = c000 + fr * (c100 - c000), c10 = c010 + fr * (c110 - c010)
        let c01 = c001 + fr * (c101 - c001), c11 = c011 + fr * (c111 - c011)
        let c0 = c00 + fg * (c10 - c00), c1 = c01 + fg * (c11 - c01)
        return c0 + fb * (c1 - c0)
    }
}
