/// The one way to look up a whole interleaved-RGB Float buffer in a cube: composer steps, composed cubes,
/// colour-managed looks.
///
/// Tetrahedral lookups run in one tight loop with the same arithmetic as `CubeSampler` (inputs clamped, grid
/// points snapped so they return entries exactly, the branch-free tetrahedron choice), but with scalar clamps and
/// no per-sample closure: `CubeSampler.sample` took ~40 ns per colour here (10.5 ms per look step at 64³), this
/// loop ~8 ns. Trilinear lookups go through `CubeSampler.sample`.
public struct BatchSampler: Sendable {
    /// Entries per axis of the cube sampled.
    public let size: Int
    /// How colours between grid points are interpolated.
    public let interpolation: Interpolation
    private let table: [SIMD4<Float>]
    private let trilinear: CubeSampler?

    /// A sampler over `cube`, its entries laid out once for aligned loads.
    public init(_ cube: ColorCube, interpolation: Interpolation = .tetrahedral) {
        size = cube.size
        self.interpolation = interpolation
        if interpolation == .tetrahedral {
            let v = cube.values
            table = (0..<cube.entryCount).map { SIMD4(v[3 * $0], v[3 * $0 + 1], v[3 * $0 + 2], 0) }
            trilinear = nil
        } else {
            table = []
            trilinear = CubeSampler(cube)
        }
    }

    /// Replaces every RGB triple of `rgb` by the cube's value there.
    public func apply(inPlace rgb: UnsafeMutableBufferPointer<Float>) { apply(rgb, into: rgb) }

    /// Writes the cube's value at every RGB triple of `input` to the same place in `output` (which may be `input`:
    /// each triple is read whole before it is written).
    public func apply(_ input: UnsafeMutableBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        if let trilinear {
            var i = 0
            while i + 2 < input.count {
                let o = trilinear.sample(SIMD3(input[i], input[i + 1], input[i + 2]), interpolation: interpolation)
                output[i] = o.x
                output[i + 1] = o.y
                output[i + 2] = o.z
                i += 3
            }
            return
        }
        let n = size
        let last = Float(n - 1)
        table.withUnsafeBufferPointer { t in
            var i = 0
            while i + 2 < input.count {
                let (r0, fr, dr) = BatchSampler.axis(input[i], last: last, n: n, step: 1)
                let (g0, fg, dg) = BatchSampler.axis(input[i + 1], last: last, n: n, step: n)
                let (b0, fb, db) = BatchSampler.axis(input[i + 2], last: last, n: n, step: n * n)
                let base = r0 + n * (g0 + n * b0)
                // Sort the fractions largest first, carrying their grid steps: the walk c000 → cA → cB → c111.
                let f1a = Swift.max(fr, fg), f2a = Swift.min(fr, fg)
                let swap1 = fg > fr
                let s1a = swap1 ? dg : dr, s2a = swap1 ? dr : dg
                let f2b = Swift.max(f2a, fb), f3 = Swift.min(f2a, fb)
                let swap2 = fb > f2a
                let s2b = swap2 ? db : s2a, s3 = swap2 ? s2a : db
                let f1 = Swift.max(f1a, f2b), f2 = Swift.min(f1a, f2b)
                let swap3 = f2b > f1a
                let s1 = swap3 ? s2b : s1a, s2 = swap3 ? s1a : s2b
                let c000 = t[base], ca = t[base + s1], cb = t[base + s1 + s2], c111 = t[base + s1 + s2 + s3]
                let o = c000 + f1 * (ca - c000) + f2 * (cb - ca) + f3 * (c111 - cb)
                output[i] = o.x
                output[i + 1] = o.y
                output[i + 2] = o.z
                i += 3
            }
        }
    }

    /// Cell index, fraction and grid step along one axis; the step is 0 at the top so 1.0 returns the last entry.
    @inline(__always)
    private static func axis(_ value: Float, last: Float, n: Int, step: Int) -> (Int, Float, Int) {
        // Written so that NaN clamps to 0, as the plugins' clamp does.
        var x = (value > 0 ? (value < 1 ? value : 1) : 0) * last
        let nearest = Float(Int(x + 0.5))  // x ≥ 0: same as rounded(), without a libm call
        if Swift.abs(x - nearest) <= 4 * nearest.ulp { x = nearest }
        let cell = Swift.min(Int(x), n - 1)
        return (cell, x - Float(cell), cell < n - 1 ? step : 0)
    }
}
