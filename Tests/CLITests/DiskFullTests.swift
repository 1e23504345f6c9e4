import Foundation
import Testing

/// A full disk, simulated with a file-size limit (RLIMIT_FSIZE, `ulimit -f`) in the child with SIGXFSZ ignored, so
/// every write past the limit fails with EFBIG exactly as a full disk fails with ENOSPC.
@Suite struct DiskFullTests {
    /// Runs `lookstudio` through `sh` with the limit in 512-byte blocks; the ignored SIGXFSZ survives `exec`.
    static func runLimited(blocks: Int, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(["-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$@\"", "sh", CLI.binary] + arguments,
                    executable: "/bin/sh")
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
