import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

/// Headless Chromium, the browser the acceptance test drives.
private enum Browser {
    /// The test fails (never skips) without the browser, saying what to install.
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "chromium is not installed: install the Debian package `chromium` (make deps does); the gallery's browser "
                + "test needs it"
        }
    }

    /// `chromium` on the PATH, or nil.
    static let path: String? = {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs chromium headless on `url` with `extra` flags; returns stdout. Killed after `timeout` seconds.
    static func run(_ extra: [String], url: String, timeout: Double = 60) throws -> String {
        guard let binary = path else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // The sandbox cannot start as root; it stays on for other users.
        let sandbox = getuid() == 0 ? ["--no-sandbox"] : []
        let profile = NSTemporaryDirectory() + "lookstudio-chromium-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        process.arguments = ["--headless", "--disable-gpu", "--user-data-dir=\(profile)", "--no-first-run",
                             "--hide-scrollbars"] + sandbox + extra + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchTime.now() + timeout
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
        let data = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        watchdog.cancel()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("gallery command", .serialized)
struct GalleryCommandTests {
    @Test("the gallery of the shipped looks passes its own self-test in headless Chromium and is not blank")
    func browserAcceptance() throws {
        #expect(Browser.path != nil, "chromium is not installed: install the Debian package `chromium` (make deps)")
        guard Browser.path != nil else { throw Browser.Missing() }
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/catalog.sqlite"]
        let photos = [CLI.packageRoot + "/samples/coffee.png", CLI.packageRoot + "/samples/chelsea.png"]
        #expect(try CLI.run(["scenes", "set-look", "57", "Cyanotype", "--strength", "70"] + catalog).status == 0)
        let made = try CLI.run(["gallery"] + photos + ["-o", dir + "/gallery", "--size", "320", "--json"] + catalog)
        #expect(made.status == 0, "\(made.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let listed = try CLI.run(["looks", "list", "--json"] + catalog)
        let looks = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let guids = looks.compactMap { $0["guid"] as? String }
        #expect(guids.count == 6)
        #expect(report["previews_rendered"] as? Int == guids.count * photos.count)

        // One browser run: the DOM and the screenshot are both taken once the self-test has finished (it leaves the
        // page as it found it: strengths at 100 %, no split, no filter).
        let shot = dir + "/shot.png"
        let dom = try Browser.run(["--virtual-time-budget=20000", "--window-size=1200,900", "--screenshot=\(shot)",
                                   "--dump-dom"], url: "file://" + dir + "/gallery/index.html?selftest")
        #expect(dom.contains("<title>selftest: pass</title>"), "\(dom.prefix(200))")
        for guid in guids { #expect(dom.contains(guid), "the page lacks look \(guid)") }
        #expect(dom.contains("<dt>Default for</dt><dd>57 Animals at 70 %</dd>"))
        let image = try ImageFormat.read(path: shot).pixels
        #expect(image.width == 1200 && image.height == 900)
        var sum = 0.0, sumSquares = 0.0
        let step = 7
        var count = 0.0
        for y in stride(from: 0, to: image.height, by: step) {
            for x in stride(from: 0, to: image.width, by: step) {
                let v = Double(image.normalized(x: x, y: y, channel: 1))
                sum += v
                sumSquares += v * v
                count += 1
            }
        }
        let variance = sumSquares / count - (sum / count) * (sum / count)
        #expect(variance > 0.005, "the screenshot is nearly uniform (variance \(variance))")

        // Nothing changed: the rerun renders nothing.
        let again = try CLI.run(["gallery"] + photos + ["-o", dir + "/gallery", "--size", "320", "--json"] + catalog)
        let rerun = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(rerun["previews_rendered"] as? Int == 0 && rerun["photos_decoded"] as? Int == 0)
    }

    @Test("compose --preview writes one card per step and the composition report")
    func composePreview() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recipe = dir + "/warm.yaml"
        try """
            name: Warm <Test>
            size: 17
            steps:
              - adjust: tone.contrast
                params: { amount: 0.3 }
              - look: Cyanotype
                strength: 40
            """.write(toFile: recipe, atomically: true, encoding: .utf8)
        let r = try CLI.run(["compose", recipe, "--preview", CLI.packageRoot + "/samples/coffee.png",
                             "-o", dir + "/preview", "--preview-size", "128", "--catalog", dir + "/catalog.sqlite"])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: dir + "/preview/index.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<article class=\"card\"").count - 1 == 2)
        #expect(html.contains("1. adjust tone.contrast"))
        #expect(html.contains("2. look Cyanotype at 40 %"))
        #expect(html.contains("composition error vs the chain"))
        #expect(html.contains("Recipe preview: Warm &lt;Test&gt;"))
        #expect(html.contains("2 steps on coffee.png"))
        #expect(html.contains("<option value=\"original\" selected>"))
        #expect(FileManager.default.fileExists(atPath: dir + "/preview/looks/step-2.html"))
        guard Browser.path != nil else { throw Browser.Missing() }
        let dom = try Browser.run(["--virtual-time-budget=20000", "--dump-dom"],
                                  url: "file://" + dir + "/preview/index.html?selftest")
        #expect(dom.contains("<title>selftest: pass</title>"), "\(dom.prefix(200))")
    }

    @Test("bench gallery times a cold build, an unchanged rerun that renders nothing, and one look added")
    func bench() throws {
        let r = try CLI.run(["bench", "gallery", CLI.packageRoot + "/samples/chelsea.png", "--looks", "2",
                             "--size", "48", "--cube-size", "9"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("(2 previews rendered, 0 reused, 1 photos decoded)"))
        #expect(r.stdout.contains("(0 previews rendered, 2 reused, 0 photos decoded)"))
        #expect(r.stdout.contains("(1 previews rendered, 2 reused, 1 photos decoded)"))
    }

    @Test func galleryRefusesAFolderItDidNotMakeAndKeepsItsFiles() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let photo = CLI.packageRoot + "/samples/chelsea.png"
        try FileManager.default.createDirectory(atPath: dir + "/d/looks", withIntermediateDirectories: true)
        try "x".write(toFile: dir + "/d/looks/mine.html", atomically: true, encoding: .utf8)
        try "x".write(toFile: dir + "/d/index.html", atomically: true, encoding: .utf8)
        let r = try CLI.run(["gallery", photo, "-o", dir + "/d", "--looks", "Warm Film", "--size", "32"] + catalog)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: gallery: \(dir)/d is not empty and was not made by a LookStudio gallery"),
                "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/d/looks/mine.html", encoding: .utf8) == "x")
        #expect(try String(contentsOfFile: dir + "/d/index.html", encoding: .utf8) == "x")
        try "x".write(toFile: dir + "/afile", atomically: true, encoding: .utf8)
        let file = try CLI.run(["gallery", photo, "-o", dir + "/afile", "--size", "32"] + catalog)
        #expect(file.status == 1)
        let expected = "error: gallery: \(dir)/afile: cannot create the gallery folder (it is a regular file)\n"
        #expect(file.stderr == expected, "\(file.stderr)")
    }

    @Test("gallery --help teaches with examples, and a missing photo is an error naming it")
    func helpAndErrors() throws {
        let help = try CLI.run(["gallery", "--help"])
        #expect(help.stdout.contains("lookstudio gallery photo.jpg portrait.png -o gallery"))
        #expect(help.stdout.contains("--size"))
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["gallery", dir + "/nope.jpg", "-o", dir + "/g", "--catalog", dir + "/c.sqlite"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("error:") && r.stderr.contains("nope.jpg"))
    }
}
