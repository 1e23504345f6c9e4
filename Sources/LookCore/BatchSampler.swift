import CLUTKernels

/// The one way to look up a whole interleaved-RGB Float buffer in a cube: composer steps, composed cubes,
/// colour-managed looks.
///
/// Tetrahedral lookups run in one tight loop with the same arithmetic as `CubeSampler` (inputs clamped, grid
/// points snapped so they return entries exactly, the branch-free tetrahedron choice), but with scalar clamps and
/// no per-sample closure, several times faster than calling `CubeSampler.sample` per colour
/// (docs/design/performance.md). On x86-64 the vector C kernel (`lslut_applyf`, AVX2 or SSE4.1, as `CubeApplier`
/// picks them) repeats that arithmetic eight or four colours at a time, bit for bit, since look extraction samples
/// a 12 MP image every round. Trilinear lookups go through `CubeSampler.sample`.
public struct BatchSampler: Sendable {
    /// Entries per axis of the cube sampled.
    public let size: Int
    /// How colours between grid points are interpolated.
    public let interpolation: Interpolation
    /// The loop in use for tetrahedral lookups (`CubeApplier.Kernel.scalar` is the Swift loop below).
    public let kernel: CubeApplier.Kernel
    private let table: [SIMD4<Float>]
    private let trilinear: CubeSampler?

    /// A sampler over `cube`, its entries laid out once for aligned loads; `kernel` nil picks
    /// `CubeApplier.Kernel.preferred`.
    public init(_ cube: ColorCube, interpolation: Interpolation = .tetrahedral, kernel: CubeApplier.Kernel? = nil) {
        size = cube.size
        self.interpolation = interpolation
        self.kernel = interpolation == .tetrahedral
            ? Swift.min(kernel ?? CubeApplier.Kernel.preferred, CubeApplier.Kernel.best) : .scalar
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

    /// `apply(_:into:)`, also writing each result as an 8-bit code to `codes` (one per sample: clamped to 0…1,
    /// rounded to nearest), in the same pass where the vector kernel runs.
    public func apply(_ input: UnsafeMutableBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>,
                      codes: UnsafeMutableBufferPointer<UInt8>) {
        precondition(codes.count >= input.count - input.count % 3, "one code per sample")
        if apply(input, into: output, vectorCodes: codes.baseAddress) { return }
        for i in 0..<(input.count - input.count % 3) {
            codes[i] = UInt8(Swift.min(Swift.max(output[i], 0), 1) * 255 + 0.5)
        }
    }

    /// Writes the cube's value at every RGB triple of `input` to the same place in `output` (which may be `input`:
    /// each triple is read whole before it is written).
    public func apply(_ input: UnsafeMutableBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        _ = apply(input, into: output, vectorCodes: nil)
    }

    /// The lookup; true when the vector kernel ran (and wrote `vectorCodes`, when given).
    private func apply(_ input: UnsafeMutableBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>,
                       vectorCodes: UnsafeMutablePointer<UInt8>?) -> Bool {
        if let trilinear {
            var i = 0
            while i + 2 < input.count {
                let o = trilinear.sample(SIMD3(input[i], input[i + 1], input[i + 2]), interpolation: interpolation)
                output[i] = o.x
                output[i + 1] = o.y
                output[i + 2] = o.z
                i += 3
            }
            return false
        }
        let n = size
        let last = Float(n - 1)
        if kernel != .scalar, let source = input.baseAddress, let target = output.baseAddress {
            let done = table.withUnsafeBytes { t in
                lslut_applyf(kernel.level, t.baseAddress!.assumingMemoryBound(to: Float.self), Int32(n), source,
                             target, vectorCodes, input.count / 3)
            }
            if done == 0 { return true }
        }
        table.withUnsafeBufferPointer { t in
            var i = 0
            while i + 2 < input.count {
                let (r0, fr, dr) = CubeSampler.Cell.axis(input[i], last: last, n: n, step: 1)
                let (g0, fg, dg) = CubeSampler.Cell.axis(input[i + 1], last: last, n: n, step: n)
                let (b0, fb, db) = CubeSampler.Cell.axis(input[i + 2], last: last, n: n, step: n * n)
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
        return false
    }
}
