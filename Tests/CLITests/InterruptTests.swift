import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

/// SIGINT or SIGTERM while `apply` is writing: the process ends by the signal and leaves no temporary file.
@Suite struct InterruptTests {
    /// A 4000×3000 noise PNG (≈ 36 MB, barely compressible), so the write takes long enough to interrupt.
    static func largeImage(at path: String) throws {
        let width = 4000, height = 3000
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        samples.withUnsafeMutableBufferPointer { s in
            var i = 0
            while i + 8 <= s.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state) { b in
                    for k in 0..<8 { s[i + k] = b[k] }
                }
                i += 8
            }
        }
        try PNGImage.write(try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(samples)),
                           to: path, options: PNGWriteOptions(compressionLevel: 0, filter: .none))
    }

    @Test("an interrupt while apply writes leaves only the input", arguments: [SIGINT, SIGTERM])
    func interruptedApply(signal: Int32) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.largeImage(at: dir + "/in.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["apply", "--lut", CLI.fixtures + "/reference/warm17.cube", dir + "/in.png",
                             dir + "/out.png"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Interrupt once the temporary output exists (or after 100 ms past that, the write is under way).
        let deadline = Date().addingTimeInterval(30)
        var sawTemporary = false
        while Date() < deadline, process.isRunning {
            if try DiskFullTests.entries(dir).contains(where: { $0.hasSuffix(".tmp") }) {
                sawTemporary = true
                break
            }
            usleep(5_000)
        }
        usleep(100_000)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(sawTemporary, "the temporary output appeared before the interrupt")
        #expect(process.terminationReason == .uncaughtSignal, "ended by the signal")
        #expect(process.terminationStatus == signal)
        #expect(try DiskFullTests.entries(dir) == ["in.png"], "no temporary file and no output left")
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("interrupted while writing \(dir)/out.png; nothing was written"), "\(said)")
    }
}

/// SIGINT or SIGTERM during a folder run of `correct`: no new image starts, the summary counts every outcome, the
/// manifest stays valid and no temporary file is left.
@Suite struct CorrectInterruptTests {
    @Test("an interrupted correct folder run exits 130/143 with an exact summary and no temporary file",
          arguments: [SIGINT, SIGTERM])
    func interruptedFolderRun(signal: Int32) throws {
        let (dir, catalog) = try CorrectBatchTests.setUp(count: 40, width: 320, height: 240)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = try CorrectBatchTests.start(
            ["correct", dir + "/in", "-o", dir + "/out", "--jobs", "2", "--manifest", dir + "/m.jsonl"] + catalog,
            log: dir + "/log.txt")
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: dir + "/m.jsonl")[.size] as? Int) ?? 0
            if size > 0 { break }
            usleep(2_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let log = try String(contentsOfFile: dir + "/log.txt", encoding: .utf8)
        #expect(process.terminationReason == .exit, "ends by exit, after the summary: \(log)")
        #expect(process.terminationStatus == 128 + signal)
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        let pattern = try Regex("interrupted by \(name): ([0-9]+) of 40 images corrected, 0 skipped, 0 failed, "
                                + "([0-9]+) interrupted \\(([0-9]+) in flight discarded, ([0-9]+) not started\\)")
        let match = try #require(log.firstMatch(of: pattern), "the summary line: \(log)")
        let done = Int(match.output[1].substring ?? "") ?? -1
        let stopped = Int(match.output[2].substring ?? "") ?? -1
        let discarded = Int(match.output[3].substring ?? "") ?? -1
        let notStarted = Int(match.output[4].substring ?? "") ?? -1
        #expect(done + stopped == 40 && discarded + notStarted == stopped)
        #expect(notStarted > 0, "the interrupt came after the whole batch; it proves nothing")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: dir + "/out")
        #expect(!outputs.contains { $0.hasSuffix(".tmp") }, "no temporary file: \(outputs)")
        #expect(outputs.count == done, "one complete output per corrected image")
        for output in outputs { _ = try PNGImage.read(path: dir + "/out/" + output) }
        let records = try CorrectBatchTests.manifest(dir + "/m.jsonl")
        #expect(records.filter { $0.status == .done }.count == done)
        #expect(records.filter { $0.status == .interrupted }.count == discarded)
        #expect(records.count == done + discarded, "one valid manifest line per image started")
    }
}
