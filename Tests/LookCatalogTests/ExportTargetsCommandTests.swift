import Foundation
import LookStudioTestSupport
import ImageIO
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct ExportTargetsCommandTests {
    @Test func listTargetsNamesEveryTarget() throws {
        let r = try CLI.run(["export", "--list-targets"])
        #expect(r.status == 0, "\(r.stderr)")
        for id in ["resolve", "premiere", "fcpx", "core-image", "ocio", "clf", "icc", "lightroom", "panasonic",
                   "camera-33", "ffmpeg", "hald"] {
            #expect(r.stdout.contains("\n\(id) ") || r.stdout.hasPrefix("\(id) "), "\(id) missing")
        }
        #expect(r.stdout.contains("cannot carry"))
    }

    @Test func ffmpegCommandRendersLikeApply() throws {
        let dir = try TestSupport.tempDir()
        let catalog = "\(dir)/c.sqlite", lut = "\(dir)/t.cube", chart = "\(dir)/chart.png"
        var px = [UInt8](repeating: 0, count: 3 * 32 * 32)
        for i in 0..<(32 * 32) {
            px[3 * i] = UInt8(i % 32 * 8)
            px[3 * i + 1] = UInt8(i / 32 * 8)
            px[3 * i + 2] = UInt8(i % 7 * 36)
        }
        try PNGImage.write(try PixelBuffer(width: 32, height: 32, channels: 3, samples: .eight(px)), to: chart)
        let export = try CLI.run(["export", "Teal & Orange", "--for", "ffmpeg", "-o", lut, "--catalog", catalog])
        #expect(export.status == 0, "\(export.stderr)")
        let command = try #require(export.stdout.split(separator: "\n").first { $0.hasPrefix("ffmpeg ") })
        let line = command.replacingOccurrences(of: "ffmpeg ", with: "ffmpeg -v error -y ")
            .replacingOccurrences(of: "INPUT", with: chart).replacingOccurrences(of: "OUTPUT", with: "\(dir)/ff.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let apply = try CLI.run(["apply", "--look", "Teal & Orange", chart, "\(dir)/ap.png",
                                       "--catalog", catalog])
        #expect(apply.status == 0, "\(apply.stderr)")
        guard case .eight(let a) = try PNGImage.read(path: "\(dir)/ff.png").samples,
              case .eight(let b) = try PNGImage.read(path: "\(dir)/ap.png").samples else {
            Issue.record("expected 8-bit outputs")
            return
        }
        #expect(a.count == b.count)
        #expect(zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 99 <= 1)
    }

    @Test func clfExportImportsBackAsTheSameLook() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite", clf = "\(dir)/t.clf"
        let export = try CLI.run(["export", "Cyanotype", "--for", "clf", "--size", "64", "-o", clf,
                                        "--catalog", catalogPath])
        #expect(export.status == 0, "\(export.stderr)")
        let catalog = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
        let original = try catalog.cube(guid: try catalog.resolveLook("Cyanotype").guid)
        #expect(try CLI.run(["looks", "rm", "Cyanotype", "--force", "--catalog", catalogPath]).status == 0)
        let imported = try CLI.run(["import", clf, "--name", "Cyanotype again", "--catalog", catalogPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let guid = imported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let reopened = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
        let back = try reopened.cube(guid: guid)
        #expect(back.size == 64)
        #expect(zip(back.values, original.values).allSatisfy { abs($0 - $1) <= 1 / 65535 })
    }

    @Test func strengthWarnsWhatWasBakedAndNeedsATarget() throws {
        let dir = try TestSupport.tempDir()
        let catalog = "\(dir)/c.sqlite"
        let r = try CLI.run(["export", "Cyanotype", "--for", "panasonic", "--strength", "60", "-o",
                                   "\(dir)/a.vlt", "--catalog", catalog])
        #expect(r.status == 0 && r.stderr.contains("warning: panasonic has no strength control: strength 60 %"))
        let bad = try CLI.run(["export", "Cyanotype", "--strength", "60", "-o", "\(dir)/a.cube",
                                     "--catalog", catalog])
        #expect(bad.status != 0 && bad.stderr.contains("--strength needs --for"))
        let unknown = try CLI.run(["export", "Cyanotype", "--for", "nuke", "-o", "\(dir)/a.x",
                                         "--catalog", catalog])
        #expect(unknown.status != 0 && unknown.stderr.contains("lightroom"))
    }
}
