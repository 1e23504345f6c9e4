import Foundation
import LookStudioTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24: a folder, FIFO or device given where a LUT, recipe or image is read ends in `error:` naming the path,
/// never in a crash (`try!` inside Foundation on "Is a directory") or a hang (opening a FIFO waits for a writer).
@Suite struct NotAFileTests {
    @Test("a folder as a LUT: apply, inspect, import and convert each refuse it by path, exit 1, no signal")
    func folderAsLUT() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let chart = CLI.fixtures + "/reference/chart.png"
        for folder in ["\(dir)/DIR", "\(dir)/folder.cube", "\(dir)/folder.png"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let runs: [[String]] = [
                ["apply", "--lut", folder, chart, "\(dir)/o.png"],
                ["inspect", folder],
                ["import", "--catalog", "\(dir)/cat.sqlite", folder],
                ["convert", folder, "\(dir)/x.cube"],
            ]
            for arguments in runs {
                let result = try CLI.run(arguments)
                #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains("error: \(folder): is a folder, not a LUT file"),
                        "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Fatal error"))
            }
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/x.cube"))
        }
    }

    @Test("a FIFO as a LUT, a recipe or an image is refused at once instead of waiting for a writer")
    func fifoInputs() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let chart = CLI.fixtures + "/reference/chart.png"
        let lut = CLI.fixtures + "/reference/warm17.cube"
        for name in ["pipe.cube", "pipe", "pipe.yaml", "pipe.png"] {
            #expect(mkfifo("\(dir)/\(name)", 0o600) == 0)
        }
        let fifo = "is a FIFO (named pipe), not"
        var cases: [([String], String)] = [
            (["apply", "--lut", "\(dir)/pipe.cube", chart, "\(dir)/o.png"], "\(dir)/pipe.cube: \(fifo) a LUT file"),
            (["inspect", "\(dir)/pipe"], "\(dir)/pipe: \(fifo) a LUT file"),
            (["apply", "--recipe", "\(dir)/pipe.yaml", chart, "\(dir)/o.png"],
             "\(dir)/pipe.yaml: \(fifo) a recipe file"),
            (["apply", "--lut", lut, "\(dir)/pipe.png", "\(dir)/o.png"], "\(dir)/pipe.png: \(fifo) an image file"),
            (["info", "\(dir)/pipe.png"], "\(dir)/pipe.png: \(fifo) an image file"),
        ]
        #expect(mkfifo("\(dir)/pipe.sqlite", 0o600) == 0)
        let fifoCatalog = "\(dir)/pipe.sqlite is not an SQLite database; it was left untouched"
        cases.append((["looks", "list", "--catalog", "\(dir)/pipe.sqlite"], fifoCatalog))
        for (arguments, message) in cases {
            let started = Date()
            let result = try CLI.run(["timeout", "20", CLI.binary] + arguments, executable: "/usr/bin/env")
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(Date().timeIntervalSince(started) < 15)
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
    }

    @Test("a character device as an image or a LUT is refused by name")
    func deviceInputs() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = CLI.fixtures + "/reference/warm17.cube"
        let image = try CLI.run(["apply", "--lut", lut, "/dev/zero", "\(dir)/o.png"])
        #expect(image.status == 1)
        #expect(image.stderr.contains("/dev/zero: is a character device, not an image file"), "\(image.stderr)")
        let asLUT = try CLI.run(["inspect", "/dev/zero"])
        #expect(asLUT.status == 1)
        #expect(asLUT.stderr.contains("/dev/zero: is a character device, not a LUT file"), "\(asLUT.stderr)")
    }
}
