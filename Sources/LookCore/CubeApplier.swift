import CLUTKernels
import Foundation

/// Applies a cube to interleaved 8- or 16-bit RGB / RGBA pixels in place: the hot loop, and nothing else.
///
/// Per 8-bit pixel the cost is three table reads for the cell offsets, four `SIMD4<Float>` corner loads and three
/// fused blends; the cube is pre-scaled to the output code range, so rounding is one add and a truncation.
/// Alpha passes through untouched. Work is split into bands of many rows across all cores.
///
/// Tetrahedral lookups run in a vector C kernel (AVX2 or SSE4.1, chosen at run time from the CPU's features) that
/// repeats the scalar path's arithmetic operation for operation, so both give the same codes; the scalar Swift
/// loop below stays as the reference, the fallback on other CPUs and the trilinear path.
public struct CubeApplier: Sendable {
    /// The per-pixel loop in use.
    public enum Kernel: String, Sendable, CaseIterable, Comparable {
        /// The Swift loop in this file; every interpolation, every CPU.
        case scalar
        /// The C kernel compiled for SSE4.1 (4-lane grid walk, 128-bit blends).
        case sse41
        /// The C kernel compiled for AVX2 (8-lane grid walk, 128-bit blends).
        case avx2

        /// The best kernel this CPU runs.
        public static let best: Kernel = {
            switch lslut_best_level() {
            case Int32(LSLUT_AVX2.rawValue): return .avx2
            case Int32(LSLUT_SSE41.rawValue): return .sse41
            default: return .scalar
            }
        }()

        /// `best`, or a lower kernel named by the `LOOKSTUDIO_LUT_KERNEL` environment variable (`scalar`, `sse41`,
        /// `avx2`) so tests and benchmarks can force the reference path; a kernel the CPU lacks falls back to `best`.
        public static var preferred: Kernel {
            guard let name = ProcessInfo.processInfo.environment["LOOKSTUDIO_LUT_KERNEL"],
                  let forced = Kernel(rawValue: name.lowercased()) else { return best }
            return Swift.min(forced, best)
        }

        private var order: Int { Kernel.allCases.firstIndex(of: self) ?? 0 }

        /// Kernels compare by instruction-set level, scalar lowest.
        public static func < (a: Kernel, b: Kernel) -> Bool { a.order < b.order }

        var level: Int32 {
            switch self {
            case .scalar: return Int32(LSLUT_SCALAR.rawValue)
            case .sse41: return Int32(LSLUT_SSE41.rawValue)
            case .avx2: return Int32(LSLUT_AVX2.rawValue)
            }
        }
    }

    /// The cube applied (its values are shared, not copied).
    public let cube: ColorCube
    /// Entries per axis of the cube being applied.
    public let size: Int
    /// Interpolation used for every pixel.
    public let interpolation: Interpolation
    /// The loop that applies it: a vector kernel for tetrahedral on x86-64, scalar otherwise.
    public let kernel: Kernel
    private let table8: [SIMD4<Float>]
    /// True when every entry is within 0…1: tetrahedral and trilinear results are convex combinations of entries,
    /// so they cannot leave the range either and the per-pixel clamp is skipped.
    private let inUnitRange: Bool
    private let table16: [SIMD4<Float>]
    /// Per 8-bit input code: cell offsets and steps for each axis and the fraction, in one 32-byte row so the
    /// hot loop needs one base register for all of them (separate arrays spilled registers to the stack).
    private let axes: [AxisStep]

    /// Prepares `cube` for applying; costs one pass over the entries, so reuse an applier across images.
    /// `kernel` nil picks `Kernel.preferred`; trilinear always runs scalar.
    public init(cube: ColorCube, interpolation: Interpolation = .tetrahedral, kernel: Kernel? = nil) {
        self.cube = cube
        size = cube.size
        self.interpolation = interpolation
        let wanted = Swift.min(kernel ?? Kernel.preferred, Kernel.best)
        self.kernel = interpolation == .tetrahedral ? wanted : .scalar
        let v = cube.values
        // Pre-scaled tables: interpolation is linear, so scaling entries equals scaling results.
        inUnitRange = v.allSatisfy { $0 >= 0 && $0 <= 1 }
        table8 = (0..<cube.entryCount).map { SIMD4(v[3 * $0], v[3 * $0 + 1], v[3 * $0 + 2], 0) * 255 }
        table16 = (0..<cube.entryCount).map { SIMD4(v[3 * $0], v[3 * $0 + 1], v[3 * $0 + 2], 0) * 65535 }
        let n = cube.size
        axes = (0..<256).map { code in
            let x = Float(code) * Float(n - 1) / 255
            let i = Swift.min(Int(x), n - 1)
            let step: Int32 = i < n - 1 ? 1 : 0
            return AxisStep(offR: Int32(i), offG: Int32(i * n), offB: Int32(i * n * n),
                            stepR: step, stepG: step * Int32(n), stepB: step * Int32(n * n), frac: x - Float(i))
        }
    }

    /// Applies the cube to `pixels` (`pixelCount · channels` samples), using up to `threads` cores (default: all).
    public func apply(
        to pixels: UnsafeMutableBufferPointer<UInt8>, channels: Int, threads: Int? = nil
    ) throws(LookCoreError) {
        try inChunks(pixels, channels: channels, threads: threads) { $0.run8($1, count: $2, channels: channels) }
    }

    /// Applies the cube to 16-bit samples (`pixelCount · channels`), using up to `threads` cores.
    public func apply(
        to pixels: UnsafeMutableBufferPointer<UInt16>, channels: Int, threads: Int? = nil
    ) throws(LookCoreError) {
        try inChunks(pixels, channels: channels, threads: threads) { $0.run16($1, count: $2, channels: channels) }
    }

    /// Runs `kernel` over chunks of whole pixels in parallel; one closure call per chunk, never per pixel.
    private func inChunks<Sample>(
        _ pixels: UnsafeMutableBufferPointer<Sample>, channels: Int, threads: Int?,
        _ kernel: @escaping @Sendable (CubeApplier, UnsafeMutablePointer<Sample>, Int) -> Void
    ) throws(LookCoreError) {
        guard channels == 3 || channels == 4 else { throw .unsupportedChannelCount(channels) }
        nonisolated(unsafe) let base = pixels.baseAddress
        // Chunks of at least 64k pixels: enough work per dispatch, few enough chunks to balance the cores.
        WorkChunks.run(count: pixels.count / channels, minChunk: 1 << 16, threads: threads) { range in
            guard let base else { return }
            kernel(self, base + range.lowerBound * channels, range.count)
        }
    }

    /// Runs a vector kernel over `table` (as floats) unless the scalar loop was chosen; false when the kernel
    /// declined (status ≠ 0: the processor lacks the instruction set), so the scalar loop runs instead.
    private func ranVectorKernel(_ table: [SIMD4<Float>],
                                 _ kernelCall: (UnsafePointer<Float>?, _ clamp: Int32) -> Int32) -> Bool {
        guard kernel != .scalar else { return false }
        let clamp: Int32 = inUnitRange ? 0 : 1
        return table.withUnsafeBufferPointer { t in
            t.withMemoryRebound(to: Float.self) { kernelCall($0.baseAddress, clamp) }
        } == 0
    }

    private func run8(_ p: UnsafeMutablePointer<UInt8>, count: Int, channels: Int) {
        if ranVectorKernel(table8, { lslut_apply8(kernel.level, $0, Int32(size), p, count, Int32(channels), $1) }) {
            return
        }
        table8.withUnsafeBufferPointer { t in
        axes.withUnsafeBufferPointer { a in
            let tetra = interpolation == .tetrahedral
            let clamp = !inUnitRange
            var px = p
            for _ in 0..<count {
                let r = a[Int(px[0])], g = a[Int(px[1])], b = a[Int(px[2])]
                let cell = Int(r.offR &+ g.offG &+ b.offB)
                let dr = Int(r.stepR), dg = Int(g.stepG), db = Int(b.stepB)
                let o = tetra
                    ? CubeSampler.tetrahedral(t, base: cell, dr: dr, dg: dg, db: db, fr: r.frac, fg: g.frac, fb: b.frac)
                    : CubeSampler.trilinear(t, base: cell, dr: dr, dg: dg, db: db, fr: r.frac, fg: g.frac, fb: b.frac)
                let code = CubeApplier.roundedBits(o, clamp: clamp, max: 255)
                px[0] = UInt8(truncatingIfNeeded: code.x)
                px[1] = UInt8(truncatingIfNeeded: code.y)
                px[2] = UInt8(truncatingIfNeeded: code.z)
                px += channels
            }
        }}
    }

    private func run16(_ p: UnsafeMutablePointer<UInt16>, count: Int, channels: Int) {
        if ranVectorKernel(table16, { lslut_apply16(kernel.level, $0, Int32(size), p, count, Int32(channels), $1) }) {
            return
        }
        table16.withUnsafeBufferPointer { t in
            let tetra = interpolation == .tetrahedral
            let clamp = !inUnitRange
            let n = size
            let scale = Float(n - 1) / 65535
            var px = p
            for _ in 0..<count {
                let x = SIMD3<Float>(Float(px[0]), Float(px[1]), Float(px[2])) * scale
                let r0 = Swift.min(Int(x.x), n - 1), g0 = Swift.min(Int(x.y), n - 1), b0 = Swift.min(Int(x.z), n - 1)
                let cell = r0 + n * (g0 + n * b0)
                let dr = r0 < n - 1 ? 1 : 0, dg = g0 < n - 1 ? n : 0, db = b0 < n - 1 ? n * n : 0
                let fr = x.x - Float(r0), fg = x.y - Float(g0), fb = x.z - Float(b0)
                let o = tetra
                    ? CubeSampler.tetrahedral(t, base: cell, dr: dr, dg: dg, db: db, fr: fr, fg: fg, fb: fb)
                    : CubeSampler.trilinear(t, base: cell, dr: dr, dg: dg, db: db, fr: fr, fg: fg, fb: fb)
                let code = CubeApplier.roundedBits(o, clamp: clamp, max: 65535)
                px[0] = UInt16(truncatingIfNeeded: code.x)
                px[1] = UInt16(truncatingIfNeeded: code.y)
                px[2] = UInt16(truncatingIfNeeded: code.z)
                px += channels
            }
        }
    }

    /// Rounds all lanes to the nearest integer at once by adding 1.5·2²³: each float's low mantissa bits then hold
    /// the integer. This replaces Swift's checked Float→Int conversion (a compare and branch per channel); the
    /// clamp, needed only for cubes with entries outside 0…1, uses scalar min/max because the generic SIMD
    /// `pointwiseMin`/`pointwiseMax` were not inlined and cost a call each.
    @inline(__always)
    private static func roundedBits(_ v: SIMD4<Float>, clamp: Bool, max: Float) -> SIMD4<UInt32> {
        var o = v
        if clamp {
            o = SIMD4(Swift.min(Swift.max(v.x, 0), max), Swift.min(Swift.max(v.y, 0), max),
                      Swift.min(Swift.max(v.z, 0), max), 0)
        }
        return unsafeBitCast(o + SIMD4(repeating: 12_582_912), to: SIMD4<UInt32>.self)
    }
}

/// One 8-bit input code's place on the grid, for each axis (see `CubeApplier.axes`).
struct AxisStep: Sendable {
    var offR: Int32, offG: Int32, offB: Int32
    var stepR: Int32, stepG: Int32, stepB: Int32
    var frac: Float
    var padding: Int32 = 0
}
