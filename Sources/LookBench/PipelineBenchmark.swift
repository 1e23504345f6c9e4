import Foundation
import ImageIO
import LookCore
import LookFormats

/// File-to-file figures: `lookstudio apply` run as a child process on generated (or given) images, PNG → PNG at 8
/// and 16 bits, JPEG → JPEG and JPEG → PNG, with wall time, output size and the child's own peak memory.
public enum PipelineBenchmark {
    /// What to run on.
    public struct Inputs: Sendable {
        /// Megapixels of the generated PNGs and JPEG (ignored for a kind given as a file).
        public var megapixels: Double = 24
        /// Megapixels of the large JPEG for the memory figures (0 skips it).
        public var largeMegapixels: Double = 100
        /// Entries per axis of the cube.
        public var cubeSize: Int = 64
        /// Use this 8-bit PNG instead of a generated one.
        public var png: String?
        /// Use this JPEG instead of a generated one.
        public var jpeg: String?
        /// Keep the generated files (and the cube) here; otherwise a temporary folder is removed afterwards.
        public var keep: String?

        /// The defaults: 24 MP inputs, a 100 MP JPEG, a 64³ cube, everything generated and removed.
        public init() {}
    }

    /// Generates what is missing, runs every case through this executable's `apply`, and returns the report, ending
    /// with the peers command line that measures ffmpeg on the same files.
    public static func run(_ inputs: Inputs) throws -> String {
        let dir = inputs.keep ?? (NSTemporaryDirectory() + "lookstudio-bench-\(getpid())")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { if inputs.keep == nil { try? FileManager.default.removeItem(atPath: dir) } }
        let width = Int((inputs.megapixels * 1_000_000 * 1.5).squareRoot())
        let height = max(1, Int(inputs.megapixels * 1_000_000) / width)
        let cubePath = dir + "/bench.cube"
        try LUTFormat.write(LUT(cube: try ApplyBenchmark.testCube(size: inputs.cubeSize)), to: cubePath)
        let png = try inputs.png ?? generate(dir + "/bench.png", width: width, height: height, kind: .png8)
        let png16 = try generate(dir + "/bench16.png", width: width, height: height, kind: .png16)
        let jpeg = try inputs.jpeg ?? generate(dir + "/bench.jpg", width: width, height: height, kind: .jpeg)
        var cases = [("PNG → PNG", png, "out.png"), ("16-bit PNG → PNG", png16, "out16.png"),
                     ("JPEG → JPEG", jpeg, "out.jpg"), ("JPEG → PNG", jpeg, "outj.png")]
        var large: String?
        if inputs.largeMegapixels > 0 {
            let w = Int((inputs.largeMegapixels * 1_000_000 * 1.5).squareRoot())
            let h = max(1, Int(inputs.largeMegapixels * 1_000_000) / w)
            let path = try generate(dir + "/large.jpg", width: w, height: h, kind: .jpeg)
            large = path
            cases += [("large JPEG → JPEG", path, "large-out.jpg"), ("large JPEG → PNG", path, "large-out.png")]
        }
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var lines = ["end to end: lookstudio apply --lut \(inputs.cubeSize)³ .cube (child process; peak memory is "
            + "the child's VmHWM)"]
        for (label, input, output) in cases {
            let out = dir + "/" + output
            let child = try spawnMeasured(exe, ["apply", "--lut", cubePath, "--timings", input, out])
            guard child.status == 0 else { throw BenchError.failed("apply \(input) failed: \(child.stderr)") }
            let size = ((try? FileManager.default.attributesOfItem(atPath: out))?[.size] as? NSNumber)?.intValue ?? 0
            let (w, h) = try dimensions(input)
            lines.append("  " + label.padded(18) + String(format: " %5.1f MP  wall %6.2f s  out %7.1f MB  ",
                                                          Double(w * h) / 1e6, child.wall, Double(size) / 1e6)
                + child.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                    .replacingOccurrences(of: "timings: ", with: ""))
            if inputs.keep == nil { try? FileManager.default.removeItem(atPath: out) }
        }
        lines += try correctLines(exe: exe, cube: cubePath, jpeg: jpeg, large: large, dir: dir, keep: inputs.keep != nil)
        var peers = "  peers: scripts/bench-peers.sh \(cubePath) --png \(png) --png16 \(png16) --jpeg \(jpeg)"
            + " --lookstudio \(exe)"
        if inputs.keep == nil { peers += "   (add --keep DIR to keep these files for it)" }
        lines.append(peers)
        if let large, inputs.keep != nil { lines.append("  large JPEG for peak RSS: \(large)") }
        return lines.joined(separator: "\n")
    }

    /// `correct` next to `apply` on the same JPEGs and cube: what the analysis (preview, scene, faces, plan) adds to
    /// the wall time, from interleaved runs since this machine's wall times drift between minutes, and `correct`'s
    /// own peak memory on the large JPEG, where streaming must hold.
    private static func correctLines(exe: String, cube: String, jpeg: String, large: String?, dir: String,
                                     keep: Bool) throws -> [String] {
        let runs = 5
        var lines = ["correct vs apply, JPEG → JPEG, same cube (\(runs) interleaved runs each; the automatic "
            + "correction at its defaults, faces included)"]
        let (w, h) = try dimensions(jpeg)
        var walls = (apply: [Double](), correct: [Double]())
        var last = ""
        for _ in 0..<runs {
            let out = dir + "/correct-vs-apply.jpg"
            let applied = try spawnMeasured(exe, ["apply", "--lut", cube, jpeg, out])
            guard applied.status == 0 else { throw BenchError.failed("apply \(jpeg) failed: \(applied.stderr)") }
            walls.apply.append(applied.wall)
            let corrected = try spawnMeasured(exe, ["correct", "--lut", cube, "--timings", jpeg, "-o", out])
            guard corrected.status == 0 else {
                throw BenchError.failed("correct \(jpeg) failed: \(corrected.stderr)")
            }
            walls.correct.append(corrected.wall)
            last = timingsText(corrected.stderr)
            try? FileManager.default.removeItem(atPath: out)
        }
        let apply = Statistics(walls.apply), correct = Statistics(walls.correct)
        lines.append(String(format: "  %5.1f MP  apply min %.3f median %.3f s; correct min %.3f median %.3f s: "
                            + "+%.3f s (min), +%.3f s (median)", Double(w * h) / 1e6, apply.min, apply.median,
                            correct.min, correct.median, correct.min - apply.min, correct.median - apply.median))
        lines.append("  last correct: " + last)
        if let large {
            let out = dir + "/large-correct.jpg"
            let child = try spawnMeasured(exe, ["correct", "--lut", cube, "--timings", large, "-o", out])
            guard child.status == 0 else { throw BenchError.failed("correct \(large) failed: \(child.stderr)") }
            let (lw, lh) = try dimensions(large)
            lines.append("  large JPEG correct".padded(20) + String(format: " %5.1f MP  wall %6.2f s  ",
                                                                    Double(lw * lh) / 1e6, child.wall)
                         + timingsText(child.stderr))
            if !keep { try? FileManager.default.removeItem(atPath: out) }
        }
        return lines
    }

    /// The `timings:` lines `correct --timings` prints, joined into one, without the file's name.
    private static func timingsText(_ stderr: String) -> String {
        stderr.split(separator: "\n").filter { $0.hasPrefix("timings: ") }.map { line -> String in
            let text = line.dropFirst("timings: ".count)
            // The per-image line names the file before its figures: "timings: FILE: analysis …".
            if let range = text.range(of: ": analysis ") { return "analysis " + text[range.upperBound...] }
            return String(text)
        }.joined(separator: ", ")
    }

    private struct Statistics {
        let min: Double
        let median: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            min = sorted.first ?? 0
            median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
    }

    private enum Kind { case png8, png16, jpeg }

    /// Writes a photo-like image band by band (memory stays at one band however large the image).
    private static func generate(_ path: String, width: Int, height: Int, kind: Kind) throws -> String {
        if FileManager.default.fileExists(atPath: path) { return path }
        let bandRows = 256
        switch kind {
        case .png8, .png16:
            let writer = try PNGWriter(path: path, width: width, height: height, channels: 3,
                                       depth: kind == .png8 ? .eight : .sixteen, options: .photo)
            for y in stride(from: 0, to: height, by: bandRows) {
                let rows = ApplyBenchmark.photoLikeRows(width: width, height: height, rows: y..<min(height, y + bandRows))
                if kind == .png8 {
                    try rows.withUnsafeBufferPointer { try writer.writeRows($0) }
                } else {
                    try ApplyBenchmark.photoLike16(rows).withUnsafeBufferPointer { try writer.writeRows($0) }
                }
            }
            try writer.finish()
        case .jpeg:
            let writer = try JPEGWriter(path: path, width: width, height: height, channels: 3)
            for y in stride(from: 0, to: height, by: bandRows) {
                let rows = ApplyBenchmark.photoLikeRows(width: width, height: height, rows: y..<min(height, y + bandRows))
                try rows.withUnsafeBufferPointer { try writer.writeRows($0) }
            }
            try writer.finish()
        }
        return path
    }

    private static func dimensions(_ path: String) throws -> (Int, Int) {
        let info = try ImageFormat.info(path: path)
        return (info.width, info.height)
    }

    /// Runs a command with `posix_spawn`, returning its exit status, standard error and wall time.
    ///
    /// Its peak memory comes from the child itself (`apply --timings` prints VmHWM): Linux carries `ru_maxrss`
    /// across exec, so `wait4` would report this large parent's footprint instead.
    static func spawnMeasured(_ exe: String, _ args: [String]) throws -> (status: Int32, stderr: String, wall: Double) {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw BenchError.failed("cannot create a pipe") }
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
            throw BenchError.failed("cannot start \(exe): \(String(cString: strerror(rc)))")
        }
        let stderr = FileHandle(fileDescriptor: pipeFDs[0], closeOnDealloc: true).readAllRetryingInterrupts()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitCode, String(decoding: stderr, as: UTF8.self), wall)
    }
}
