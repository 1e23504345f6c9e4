import ArgumentParser
import Foundation
import ImageIO
import LookCore
import LookFormats

/// The measurements behind `lookstudio bench apply`.
enum ApplyBenchmark {
    /// A smooth gradient image with mild texture: branch behaviour close to a photograph's.
    static func photoLikeImage(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Int(seed >> 28) - 8
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                let r = 128 + 100 * sin(6 * fx + 2 * fy)
                let g = 120 + 90 * sin(4 * fy + 3 * fx * fy)
                let b = 110 + 80 * cos(5 * fx - 2 * fy)
                let i = 3 * (y * width + x)
                pixels[i] = UInt8(clamping: Int(r) + noise)
                pixels[i + 1] = UInt8(clamping: Int(g) + noise)
                pixels[i + 2] = UInt8(clamping: Int(b) + noise)
            }
        }
        return pixels
    }

    /// A warm, contrasty, cross-mixed cube: every tetrahedron gets used.
    static func testCube(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { c in
            let s = c * c * (3 - 2 * c)
            return SIMD3(0.8 * s.x + 0.15 * c.y + 0.05, 0.9 * s.y + 0.05 * c.z, 0.75 * s.z + 0.1 * c.x)
        }
    }

    static func run(megapixels: Double, cubeSize: Int, repeats: Int) throws -> String {
        let width = Int((megapixels * 1_000_000 * 1.5).squareRoot())
        let height = Int(megapixels * 1_000_000) / width
        let source = photoLikeImage(width: width, height: height)
        let cube = try testCube(size: cubeSize)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var lines = ["apply \(cubeSize)³ cube to \(width)×\(height) 8-bit RGB (\(String(format: "%.1f", Double(width * height) / 1e6)) MP), best of \(repeats)"]
        for interpolation in Interpolation.allCases {
            let applier = CubeApplier(cube: cube, interpolation: interpolation)
            for threads in Set([1, cores]).sorted() {
                var best = Double.infinity
                for _ in 0..<max(1, repeats) {
                    var work = source
                    let start = DispatchTime.now().uptimeNanoseconds
                    let cpuStart = threadCPUSeconds()
                    try work.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 3, threads: threads) }
                    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    // One thread runs on this thread, so its CPU time excludes time lost to other processes.
                    best = min(best, threads == 1 ? threadCPUSeconds() - cpuStart : wall)
                }
                let mps = Double(width * height) / best / 1e6
                lines.append(String(format: "  %-12@ %d thread%@  %8.1f Mpix/s  (%.3f s)",
                                    interpolation.rawValue, threads, threads == 1 ? " " : "s", mps, best))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// CPU time consumed by the calling thread.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// PNG→PNG through `lookstudio apply` in a child process, so its peak RSS is the command's own.
    static func endToEnd(megapixels: Double, cubeSize: Int, image: String?, keep: String?) throws -> String {
        let dir = keep ?? (NSTemporaryDirectory() + "lookstudio-bench-\(getpid())")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: dir) } }
        let input: String
        if let image {
            input = image
        } else {
            input = dir + "/bench.png"
            let width = Int((megapixels * 1_000_000 * 1.5).squareRoot())
            let height = Int(megapixels * 1_000_000) / width
            let pixels = try PixelBuffer(width: width, height: height, channels: 3,
                                         samples: .eight(photoLikeImage(width: width, height: height)))
            try PNGImage.write(pixels, to: input)
        }
        let cube = try testCube(size: cubeSize)
        let cubePath = dir + "/bench.cube"
        try LUTFormat.write(LUT(cube: cube), to: cubePath)
        let root = Int(Double(cubeSize).squareRoot())
        if root * root == cubeSize {
            try LUTFormat.write(LUT(cube: cube), to: dir + "/bench_hald.png", options: .init(layout: .hald, bits: 8))
        }
        let output = dir + "/bench-out.png"
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try spawnMeasured(exe, ["apply", "--lut", cubePath, "--timings", input, output])
        guard child.status == 0 else { throw ValidationError("apply failed: \(child.stderr)") }
        let wall = child.wall
        let timingLine = child.stderr
        let size = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        let info = try PNGReader(path: input).info
        var lines = ["end to end: lookstudio apply --lut \(cubeSize)³ .cube, \(info.width)×\(info.height) PNG → PNG"]
        lines.append(String(format: "  wall %.2f s, output %.1f MB", wall, Double(size) / 1e6))
        lines.append("  " + timingLine.trimmingCharacters(in: .whitespacesAndNewlines))
        if keep != nil {
            lines.append("  peers: ../shared/bench/peers.sh \(input) \(cubePath) \(dir)/bench_hald.png")
        }
        return lines.joined(separator: "\n")
    }

    /// Runs a command with `posix_spawn`, returning its exit status, standard error and wall time.
    ///
    /// Its peak memory comes from the child itself (`apply --timings` prints VmHWM): Linux carries `ru_maxrss`
    /// across exec, so `wait4` would report this large parent's footprint instead.
    static func spawnMeasured(_ exe: String, _ args: [String]) throws
        -> (status: Int32, stderr: String, wall: Double) {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw ValidationError("cannot create a pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        let argv = ([exe] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawn(&pid, exe, &actions, nil, argv, environ)
        close(pipeFDs[1])
        guard rc == 0 else {
            close(pipeFDs[0])
            throw ValidationError("cannot start \(exe): \(String(cString: strerror(rc)))")
        }
        let stderr = FileHandle(fileDescriptor: pipeFDs[0], closeOnDealloc: true).readDataToEndOfFile()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitCode, String(decoding: stderr, as: UTF8.self), wall)
    }
}
