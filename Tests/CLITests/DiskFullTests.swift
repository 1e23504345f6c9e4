import Foundation
import LookStudioTestSupport
import Testing

/// A full disk, simulated with a file-size limit (RLIMIT_FSIZE, `ulimit -f`) in the child with SIGXFSZ ignored, so
/// every write past the limit fails with EFBIG exactly as a full disk fails with ENOSPC.
@Suite struct DiskFullTests {
    /// The shell prefix that limits what follows to `blocks` of 512 bytes; the ignored SIGXFSZ survives `exec`.
    ///
    /// TMPDIR names no folder for the limited process: ThreadSanitizer's runtime (make test-tsan) writes a 512 KiB
    /// file there at start-up without checking the write and maps it over its shadow memory, so under the limit the
    /// mapping ran past the file's end and the first read was SIGBUS; without the folder it skips that optimisation.
    /// lookstudio writes nothing there (its outputs go beside their destination), and SQLite falls back to /var/tmp.
    static func limit(blocks: Int) -> String {
        "trap '' XFSZ; ulimit -f \(blocks); export TMPDIR=/nonexistent/lookstudio-disk-full; exec \"$@\""
    }

    /// Runs `lookstudio` through `sh` under `limit(blocks:)`.
    static func runLimited(blocks: Int, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["-c", limit(blocks: blocks), "sh", CLI.binary] + arguments, executable: "/bin/sh")
    }

    /// The folder's entries, hidden temporaries included.
    static func entries(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    @Test("a full disk while writing an image, a LUT or a corrected photo is a clear error and leaves no file",
          arguments: [
              ["apply", "--lut", "LUT", "IN", "OUT/out.png"],
              ["apply", "--lut", "LUT", "IN", "OUT/out.jpg"],
              ["convert", "LUT", "OUT/out.cube"],
              ["convert", "LUT", "OUT/out.png"],
              ["correct", "IN", "-o", "OUT/c.png", "--lut", "LUT"],
          ])
    func fullDisk(template: [String]) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let arguments = template.map {
            $0.replacingOccurrences(of: "LUT", with: CLI.fixtures + "/reference/warm33.cube")
                .replacingOccurrences(of: "IN", with: CLI.fixtures + "/reference/chart.png")
                .replacingOccurrences(of: "OUT", with: dir + "/out")
        }
        let output = try #require(arguments.last { $0.hasPrefix(dir) })
        // 16 blocks = 8 KiB: every output here is larger (the chart PNG ≈ 90 KB, the 33³ .cube ≈ 1 MB).
        let r = try Self.runLimited(blocks: 16, arguments)
        #expect(r.status == 1, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("error: "), "\(r.stderr)")
        #expect(r.stderr.contains(output), "the error names the file: \(r.stderr)")
        #expect(r.stderr.contains("File too large") || r.stderr.contains("No space left"), "\(r.stderr)")
        #expect(try Self.entries(dir + "/out") == [], "no partial output or temporary file")
        // The same command without the limit works: the failure was the disk.
        let ok = try CLI.run(arguments)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try Self.entries(dir + "/out") == [URL(fileURLWithPath: output).lastPathComponent])
    }
}
