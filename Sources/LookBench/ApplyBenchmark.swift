import Foundation
import LookCore

/// The LUT core's figures: one cube applied in memory, scalar and vector kernels, photo-like and random pixels,
/// 8 and 16 bits, one thread and all cores.
public enum ApplyBenchmark {
    /// Photo-like 8-bit RGB rows `rows` of a `width`×`height` image: smooth gradients with ±8 codes of texture, so
    /// the tetrahedron changes slowly as in a photograph. Rows are independent, so an image can be made in bands.
    public static func photoLikeRows(width: Int, height: Int, rows: Range<Int>) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * rows.count * 3)
        for y in rows {
            var seed = UInt32(truncatingIfNeeded: y &* 2_654_435_761 &+ 12345)
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Int(seed >> 28) - 8
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                let r = 128 + 100 * sin(6 * fx + 2 * fy)
                let g = 120 + 90 * sin(4 * fy + 3 * fx * fy)
                let b = 110 + 80 * cos(5 * fx - 2 * fy)
                let i = 3 * ((y - rows.lowerBound) * width + x)
                pixels[i] = UInt8(clamping: Int(r) + noise)
                pixels[i + 1] = UInt8(clamping: Int(g) + noise)
                pixels[i + 2] = UInt8(clamping: Int(b) + noise)
            }
        }
        return pixels
    }

    /// A whole photo-like 8-bit RGB image (see `photoLikeRows`).
    public static func photoLikeImage(width: Int, height: Int) -> [UInt8] {
        photoLikeRows(width: width, height: height, rows: 0..<height)
    }

    /// 16-bit photo-like samples: the 8-bit image widened, with the low byte filled by a generator.
    static func photoLike16(_ eight: [UInt8]) -> [UInt16] {
        var seed: UInt32 = 99
        return eight.map { v in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return UInt16(v) << 8 | UInt16(seed >> 24)
        }
    }

    /// Uniformly random samples: every pixel a different tetrahedron and cube cell (cache misses, mispredictions).
    static func random<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, count: Int) -> [T] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return T(truncatingIfNeeded: state >> 40)
        }
    }

    /// A warm, contrasty, cross-mixed cube: every tetrahedron gets used.
    public static func testCube(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { c in
            let s = c * c * (3 - 2 * c)
            return SIMD3(0.8 * s.x + 0.15 * c.y + 0.05, 0.9 * s.y + 0.05 * c.z, 0.75 * s.z + 0.1 * c.x)
        }
    }

    /// Times tetrahedral application of a `cubeSize`³ cube to a `megapixels` RGB image in memory, for every kernel
    /// this CPU has, both pixel kinds, both depths, one thread and all cores; the best of `repeats` runs each.
    /// One-thread figures are thread CPU time (robust to other load); all-core figures are wall time. Refilling the
    /// buffer between runs is outside the timed region.
    public static func run(megapixels: Double, cubeSize: Int, repeats: Int) throws -> String {
        let width = Int((megapixels * 1_000_000 * 1.5).squareRoot())
        let height = max(1, Int(megapixels * 1_000_000) / width)
        let count = width * height * 3
        let photo8 = photoLikeImage(width: width, height: height)
        let inputs: [(String, PixelKind)] = [
            ("photo-like", .eight(photo8)), ("random", .eight(random(UInt8.self, count: count))),
            ("photo-like", .sixteen(photoLike16(photo8))), ("random", .sixteen(random(UInt16.self, count: count))),
        ]
        let cube = try testCube(size: cubeSize)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let kernels = [CubeApplier.Kernel.scalar] + (CubeApplier.Kernel.best == .scalar ? [] : [CubeApplier.Kernel.best])
        var lines = ["LUT core: tetrahedral \(cubeSize)³ cube on \(width)×\(height) RGB "
            + "(\(String(format: "%.1f", Double(width * height) / 1e6)) MP), best of \(repeats), Mpix/s",
                     "  pixels      depth  kernel   1 thread  \(cores) threads"]
        for (name, kind) in inputs {
            for kernel in kernels {
                let applier = CubeApplier(cube: cube, kernel: kernel)
                var figures: [Double] = []
                for threads in [1, cores] {
                    let seconds = try kind.time(applier, threads: threads, repeats: repeats)
                    figures.append(Double(width * height) / seconds / 1e6)
                }
                lines.append("  " + name.padded(11) + String(format: " %2d-bit  ", kind.bits) + kernel.rawValue.padded(7)
                    + String(format: " %9.1f %10.1f", figures[0], figures[1]))
            }
        }
        lines.append("  (ffmpeg lut3d on the same kind of pixels: scripts/bench-peers.sh; the ratio is the figure)")
        return lines.joined(separator: "\n")
    }

    /// CPU time consumed by the calling thread.
    public static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

extension String {
    /// Left-aligned in `width` columns (Foundation's `%-Ns`/`%-N@` padding is unreliable on Linux).
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

/// One benchmark input at its sample width.
private enum PixelKind {
    case eight([UInt8])
    case sixteen([UInt16])

    var bits: Int {
        switch self {
        case .eight: return 8
        case .sixteen: return 16
        }
    }

    /// Best of `repeats`: one thread in thread CPU time, more in wall time.
    func time(_ applier: CubeApplier, threads: Int, repeats: Int) throws -> Double {
        switch self {
        case .eight(let source): return try Self.time(source, applier, threads, repeats)
        case .sixteen(let source): return try Self.time(source, applier, threads, repeats)
        }
    }

    private static func time(_ source: [UInt8], _ applier: CubeApplier, _ threads: Int, _ repeats: Int) throws
        -> Double {
        try best(of: source, repeats, { try applier.apply(to: $0, channels: 3, threads: threads) }, threads: threads)
    }

    private static func time(_ source: [UInt16], _ applier: CubeApplier, _ threads: Int, _ repeats: Int) throws
        -> Double {
        try best(of: source, repeats, { try applier.apply(to: $0, channels: 3, threads: threads) }, threads: threads)
    }

    /// Refills a buffer from `source` (untimed) and times `body` on it, `repeats` times.
    private static func best<T>(of source: [T], _ repeats: Int, _ body: (UnsafeMutableBufferPointer<T>) throws -> Void,
                                threads: Int) throws -> Double {
        let work = UnsafeMutableBufferPointer<T>.allocate(capacity: source.count)
        defer { work.deallocate() }
        var best = Double.infinity
        for _ in 0..<max(1, repeats) {
            _ = work.initialize(from: source)
            let wallStart = DispatchTime.now().uptimeNanoseconds
            let cpuStart = ApplyBenchmark.threadCPUSeconds()
            try body(work)
            let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
            best = min(best, threads == 1 ? ApplyBenchmark.threadCPUSeconds() - cpuStart : wall)
        }
        return best
    }
}
