import Foundation
import LookCore
import LookFormats
import Testing
@testable import Export

struct CubeTargetsTests {
    @Test(arguments: ["resolve", "premiere", "fcpx", "camera-33", "ffmpeg"])
    func ffmpegLut3dRendersTheCubeWithinOneCode(target: String) throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = "\(dir)/look.cube", chart = "\(dir)/chart.png", out = "\(dir)/out.png"
        let result = try Exporter.export(try Support.exportLook(), for: target, to: lut)
        #expect(result.files == [lut])
        try Support.writeChartPNG(chart)
        let run = try Support.run("ffmpeg", ["-v", "error", "-y", "-i", chart, "-vf",
                                             "format=rgb24,lut3d=file=\(lut):interp=tetrahedral", "-pix_fmt", "rgb24",
                                             out])
        #expect(run.status == 0, "\(run.stderr)")
        let cube = try CubeFile.read(path: lut).lut.cube!
        #expect(cube.size == 33)
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(Support.look)) <= 1)
    }

    @Test func ocioReadsTheResolveCubeWithinOneCode() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = "\(dir)/look.cube", chart = "\(dir)/chart.png", out = "\(dir)/out.png"
        try Exporter.export(try Support.exportLook(), for: "resolve", to: lut)
        try Support.writeChartPNG(chart)
        let run = try Support.run("ocioconvert", ["--lut", lut, chart, out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(Support.look)) <= 1)
    }

    @Test func resolveTakes65AndCameraTakesOnly33() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(), for: "resolve", to: "\(dir)/a.cube", size: 65)
        #expect(try CubeFile.read(path: "\(dir)/a.cube").lut.cube?.size == 65)
        #expect(throws: ExportError.self) {
            try Exporter.export(try Support.exportLook(), for: "camera-33", to: "\(dir)/b.cube", size: 65)
        }
        try Exporter.export(try Support.exportLook(), for: "camera-33", to: "\(dir)/c.cube")
        let text = try String(contentsOfFile: "\(dir)/c.cube", encoding: .utf8)
        #expect(!text.contains("TITLE") && text.contains("LUT_3D_SIZE 33"))
    }

    @Test func strengthIsBakedWithAWarning() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try Exporter.export(try Support.exportLook(strength: 0.5), for: "premiere", to: "\(dir)/a.cube")
        #expect(result.warnings.contains { $0.contains("strength 50 % is baked") })
        let cube = try CubeFile.read(path: "\(dir)/a.cube").lut.cube!
        let expected = try Support.expected(size: 33, strength: 0.5)
        #expect(zip(cube.values, expected.values).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test func ffmpegTargetPrintsARunnableCommand() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = "\(dir)/look.cube", chart = "\(dir)/chart.png", out = "\(dir)/out.png"
        let result = try Exporter.export(try Support.exportLook(), for: "ffmpeg", to: lut)
        try Support.writeChartPNG(chart)
        let command = try #require(result.notes.first).replacingOccurrences(of: "INPUT", with: chart)
            .replacingOccurrences(of: "OUTPUT", with: out)
        #expect(command.hasPrefix("ffmpeg "))
        let quiet = command.replacingOccurrences(of: "ffmpeg ", with: "ffmpeg -v error -y ")
        let run = try Support.run("sh", ["-c", quiet])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(Support.look)) <= 1)
    }
}
