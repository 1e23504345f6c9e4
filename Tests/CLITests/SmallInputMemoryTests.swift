import Foundation
import LookStudioTestSupport
import Testing

/// Small inputs, memory in proportion to the work asked (issue 56 item 7): a 20-byte recipe of no steps written as a
/// 128³ `.cube` streams its 66 MB of text instead of holding it (before: 197 MB peak, now about 92 MB).
@Suite struct SmallInputMemoryTests {
    static let time = "/usr/bin/time"

    @Test(.enabled(if: CLI.available && FileManager.default.isExecutableFile(atPath: time),
                   "build lookstudio first; needs GNU time"))
    func anEmptyRecipeWrittenAsALargeCubeStreamsItsText() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "size: 128\nsteps: []\n".write(toFile: dir + "/empty.yaml", atomically: true, encoding: .utf8)
        let result = try CLI.run(command: Self.time, ["-f", "peak %M KB", CLI.binary, "compose", dir + "/empty.yaml",
                                                      "-o", dir + "/out.cube", "--catalog", dir + "/catalog.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let peak = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
            .flatMap { Int($0.split(separator: " ")[1]) } ?? Int.max
        #expect(peak < 140_000, "peak \(peak) KB")
        let text = try String(contentsOfFile: dir + "/out.cube", encoding: .utf8)
        #expect(text.contains("LUT_3D_SIZE 128\n"))
        #expect(text.hasSuffix("\n1.0 1.0 1.0\n"))
        #expect(text.split(separator: "\n").count >= 128 * 128 * 128)
    }
}
