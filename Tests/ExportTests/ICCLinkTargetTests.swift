import ColorManagement
import Foundation
import LookCore
import Testing
@testable import Export

struct ICCLinkTargetTests {
    @Test func tificcAppliesTheLinkWithinTwoCodes() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let icc = "\(dir)/look.icc", chart = "\(dir)/chart.tif", out = "\(dir)/out.tif"
        try Exporter.export(try Support.exportLook(), for: "icc", to: icc)
        try Support.writeChartTIFF(chart)
        let run = try Support.run("tificc", ["-l", icc, chart, out])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(Support.look)) <= 2)
    }

    @Test func linkIsAVersion4RGBToRGBDeviceLinkNamingTheSpace() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(space: ColorProfile(.adobeRGB)), for: "icc", to: "\(dir)/a.icc")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/a.icc")))
        let header = try #require(DeviceLink.header(of: bytes))
        #expect(header.isLink && header.input == "\"RGB\"" && header.output == "\"RGB\"")
        #expect(header.version >= 4 && header.version < 5)
        #expect(header.description.contains("Test Look") && header.description.contains("Adobe RGB"))
    }

    @Test func aNonSRGBWorkingSpaceIsComposedIntoTheLink() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let icc = "\(dir)/look.icc", chart = "\(dir)/chart.tif", out = "\(dir)/out.tif"
        let p3 = ColorProfile(.displayP3)
        try Exporter.export(try Support.exportLook(space: p3), for: "icc", to: icc)
        try Support.writeChartTIFF(chart)
        #expect(try Support.run("tificc", ["-l", icc, chart, out]).status == 0)
        let expected = try ColorManagedLook(look: Support.look, workingSpace: p3)
            .cube(input: ColorProfile(.sRGB), output: ColorProfile(.sRGB))
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(expected)) <= 2)
    }
}
