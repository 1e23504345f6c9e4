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
        process.standardError = FileHandle.nullDevice
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
    }
}
