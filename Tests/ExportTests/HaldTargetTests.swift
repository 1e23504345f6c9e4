import Foundation
import LookCore
import LookFormats
import Testing
@testable import Export

struct HaldTargetTests {
    @Test func ffmpegHaldclutRendersTheHaldImageWithinOneCode() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hald = "\(dir)/hald.png", chart = "\(dir)/chart.png", out = "\(dir)/out.png"
        try Exporter.export(try Support.exportLook(), for: "hald", to: hald, size: 16)
        #expect(try CubeImage.read(path: hald, layout: .hald).cube.size == 16)
        try Support.writeChartPNG(chart)
        let run = try Support.run("ffmpeg", ["-v", "error", "-y", "-i", chart, "-i", hald, "-filter_complex",
                                             "[0:v]format=rgb48[a];[1:v]format=rgb48[b];[a][b]haldclut,format=rgb24",
                                             "-frames:v", "1", out])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try Support.expected(size: 16)
        #expect(Support.maxDifference(try Support.rgb8(out), Support.reference(expected)) <= 1)
    }
}
