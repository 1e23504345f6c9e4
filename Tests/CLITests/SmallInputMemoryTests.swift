import Foundation
import LookCore
import LookFormats
import LookStudioTestSupport
import Testing

/// Small inputs, memory in proportion to the work asked (issue 56 item 7): a 20-byte recipe of no steps is an
/// identity written value by value, never a cube (before: 437 MB peak at 256³, 92 MB at 128³; now under 60 MB).
@Suite struct SmallInputMemoryTests {
    static let time = "/usr/bin/time"

    @Test(.enabled(if: CLI.available && FileManager.default.isExecutableFile(atPath: time),
                   "build lookstudio first; needs GNU time"),
          arguments: ["cube", "png"])
    func anEmptyRecipeWrittenAsALargeCubeHoldsNoCube(ext: String) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "size: 128\nsteps: []\n".write(toFile: dir + "/empty.yaml", atomically: true, encoding: .utf8)
        let out = dir + "/out." + ext
        let result = try CLI.run(command: Self.time, ["-f", "peak %M KB", CLI.binary, "compose", dir + "/empty.yaml",
                                                      "-o", out, "--catalog", dir + "/catalog.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let peak = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
            .flatMap { Int($0.split(separator: " ")[1]) } ?? Int.max
        // A 128³ Float cube alone is 25 MB, and its 16-bit copy another 25: the old path peaked at 92 MB.
        #expect(peak < 75_000, "peak \(peak) KB")
        let lut = try LUTFormat.read(path: out).lut
        #expect(lut.cube == (try ColorCube.identity(size: 128).quantizedTo16Bit()))
        if ext == "cube" {
            let text = try String(contentsOfFile: out, encoding: .utf8)
            #expect(text.contains("LUT_3D_SIZE 128\n"))
            #expect(text.hasSuffix("\n1.0 1.0 1.0\n"))
        }
    }
}
