import LookCore

/// Evaluates a cube at colours with the same arithmetic as `CubeSampler` (clamping, grid snapping, the branch-free
/// tetrahedron choice), compiled inside this always-optimised module: the fit evaluates every pixel several times,
/// and LookCore's generic entry points run unspecialised in debug builds (≈ 10 µs a pixel, measured with perf).
/// `LatticeEvaluatorTests` checks it against `CubeSampler` bit for bit.
/// A struct over an immutable table (owned by `Storage`), so the per-pixel call is inlined with no reference counting
/// (as a class it cost a retain/release per pixel: 10 % of a 12 MP fit); shared read-only across threads.
struct LatticeEvaluator: @unchecked Sendable {
    /// Owns the table's memory.
    private final class Storage {
        let table: UnsafeMutableBufferPointer<SIMD4<Float>>
        init(count: Int) { table = .allocate(capacity: count) }
        deinit { table.deallocate() }
    }

    let size: Int
    let interpolation: Interpolation
    private let storage: Storage
    private let table: UnsafeBufferPointer<SIMD4<Float>>

    init(_ cube: ColorCube, interpolation: Interpolation) {
        size = cube.size
        self.interpolation = interpolation
        let v = cube.values
        storage = Storage(count: cube.entryCount)
        for i in 0..<cube.entryCount { storage.table[i] = SIMD4(v[3 * i], v[3 * i + 1], v[3 * i + 2], 0) }
        table = UnsafeBufferPointer(storage.table)
    }

    /// The cube's value at `rgb`.
    @inline(__always)
    func sample(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let n = size, t = table
        var x = rgb.clamped(lowerBound: .zero, upperBound: .one) * Float(n - 1)
        for c in 0..<3 {
            let nearest = x[c].rounded()
            if abs(x[c] - nearest) <= 4 * nearest.ulp { x[c] = nearest }
        }
        let r0 = min(Int(x.x), n - 1), g0 = min(Int(x.y), n - 1), b0 = min(Int(x.z), n - 1)
        let fr = x.x - Float(r0), fg = x.y - Float(g0), fb = x.z - Float(b0)
        let base = r0 + n * (g0 + n * b0)
        let dr = r0 < n - 1 ? 1 : 0, dg = g0 < n - 1 ? n : 0, db = b0 < n - 1 ? n * n : 0
        let out: SIMD4<Float>
        if interpolation == .tetrahedral {
            let swap1 = fg > fr
            let f1a = swap1 ? fg : fr, f2a = swap1 ? fr : fg
            let s1a = swap1 ? dg : dr, s2a = swap1 ? dr : dg
            let swap2 = fb > f2a
            let f2b = swap2 ? fb : f2a, f3 = swap2 ? f2a : fb
            let s2b = swap2 ? db : s2a, s3 = swap2 ? s2a : db
            let swap3 = f2b > f1a
            let f1 = swap3 ? f2b : f1a, f2 = swap3 ? f1a : f2b
            let s1 = swap3 ? s2b : s1a, s2 = swap3 ? s1a : s2b
            let c000 = t[base], ca = t[base &+ s1], cb = t[base &+ s1 &+ s2], c111 = t[base &+ s1 &+ s2 &+ s3]
            out = c000 + f1 * (ca - c000) + f2 * (cb - ca) + f3 * (c111 - cb)
        } else {
            let c000 = t[base], c100 = t[base &+ dr], c010 = t[base &+ dg], c110 = t[base &+ dr &+ dg]
            let c001 = t[base &+ db], c101 = t[base &+ dr &+ db], c011 = t[base &+ dg &+ db]
            let c111 = t[base &+ dr &+ dg &+ db]
            let c00 = c000 + fr * (c100 - c000), c10 = c010 + fr * (c110 - c010)
            let c01 = c001 + fr * (c101 - c001), c11 = c011 + fr * (c111 - c011)
            let c0 = c00 + fg * (c10 - c00), c1 = c01 + fg * (c11 - c01)
            out = c0 + fb * (c1 - c0)
        }
        return SIMD3(out.x, out.y, out.z)
    }
}
