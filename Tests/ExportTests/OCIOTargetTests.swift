import ColorManagement
import Foundation
import LookCore
import LookFormats
import Testing
@testable import Export

struct OCIOTargetTests {
    @Test func clfRendersThroughOcioconvertWithinOneCodeOfApply() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clf = "\(dir)/look.clf", chart = "\(dir)/chart.png", out = "\(dir)/out.png"
        try Exporter.export(try Support.exportLook(), for: "clf", to: clf)
        try Support.writeChartPNG(chart)
        let run = try Support.run("ocioconvert", ["--lut", clf, chart, out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(Support.look)) <= 1)
    }

    @Test func clfImportsBackToTheSameCube() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(space: ColorProfile(.displayP3)), for: "clf", to: "\(dir)/a.clf")
        let read = try CLFFile.read(path: "\(dir)/a.clf")
        #expect(read.nodes == ["LUT3D"])
        #expect(read.inputDescriptor == "Display P3")
        #expect(read.lut.cube == Support.look)
    }

    @Test func configIsValidForOciocheckAndRendersTheLook() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = "\(dir)/config.ocio", chart = "\(dir)/chart.png", out = "\(dir)/out.png"
        let result = try Exporter.export(try Support.exportLook(), for: "ocio", to: config)
        #expect(result.files == [config, "\(dir)/config.test-look.clf"])
        let check = try Support.run("ociocheck", ["--iconfig", config])
        #expect(check.status == 0 && check.stdout.contains("passed") && !check.stdout.contains("ERROR"),
                "\(check.stdout)\(check.stderr)")
        try Support.writeChartPNG(chart)
        let space = ColorProfile(.sRGB).description
        let graded = OCIOTarget.gradedSpace(look: "Test Look", space: space)
        let run = try Support.run("ocioconvert", [chart, space, out, graded],
                                  environment: ["OCIO": config])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(Support.look)) <= 1)
    }

    @Test func looksWhoseNamesOCIOWouldSplitOrThatSlugAlikeGetValidConfigsOfTheirOwn() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var comma = try Support.exportLook()
        comma.name = "Red, Blue: -Warm"
        let result = try Exporter.export(comma, for: "ocio", to: "\(dir)/a.ocio")
        #expect(result.notes.contains { $0.contains("named \"Red Blue -Warm\" in the config") }, "\(result.notes)")
        let check = try Support.run("ociocheck", ["--iconfig", "\(dir)/a.ocio"])
        #expect(check.status == 0 && !check.stdout.contains("ERROR"), "\(check.stdout)\(check.stderr)")
        // Two configs in one folder for looks that slug alike keep their own CLFs.
        var teal = try Support.exportLook(), other = try Support.exportLook()
        teal.name = "Teal & Orange"
        other.name = "Teal - Orange"
        let first = try Exporter.export(teal, for: "ocio", to: "\(dir)/teal.ocio")
        let second = try Exporter.export(other, for: "ocio", to: "\(dir)/teal2.ocio")
        #expect(Set(first.files).isDisjoint(with: second.files), "\(first.files) \(second.files)")
    }

    @Test func ociobakelutAppliesTheDeclaredLook() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = "\(dir)/config.ocio", baked = "\(dir)/baked.cube"
        try Exporter.export(try Support.exportLook(), for: "ocio", to: config)
        let space = ColorProfile(.sRGB).description
        let run = try Support.run("ociobakelut", ["--iconfig", config, "--inputspace", space, "--outputspace", space,
                                                  "--looks", "Test Look", "--format", "resolve_cube",
                                                  "--cubesize", "33",
                                                  baked])
        #expect(run.status == 0, "\(run.stderr)")
        let cube = try #require(try CubeFile.read(path: baked).lut.cube)
        let worst = zip(cube.values, Support.look.values).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4)
    }
}
