import Foundation
import LookStudioTestSupport
import ImageIO
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct ImportCommandTests {
    /// Writes `count` distinct size-16 tiled PNG cubes into `dir`, named `prefix-N.png`.
    func writeCubes(_ count: Int, prefix: String, seedOffset: Int, size: Int = 16, in dir: String) throws -> [String] {
        try (0..<count).map { i in
            let path = "\(dir)/\(prefix)-\(i).png"
            let k = Float(seedOffset + i + 1) / 1000
            let cube = try ColorCube(size: size) { c in SIMD3(c.x * (1 - k), c.y, min(1, c.z + k * c.x)) }
            try CubeImage.write(cube, to: path, layout: .tiled, depth: .sixteen)
            return path
        }
    }

    @Test func editedIdentityPNGImportsAsTheEditedCube() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        let identity = "\(dir)/identity.png", edited = "\(dir)/edited.png"
        try CubeImage.write(try ColorCube.identity(size: 16), to: identity, layout: .tiled, depth: .sixteen)
        // An external edit: a gamma curve on every sample, as an editor's Curves would do.
        var image = try PNGImage.read(path: identity)
        guard case .sixteen(var samples) = image.samples else { Issue.record("not 16-bit"); return }
        for i in samples.indices {
            samples[i] = UInt16((pow(Double(samples[i]) / 65535, 0.6) * 65535).rounded())
        }
        image.samples = .sixteen(samples)
        try PNGImage.write(image, to: edited)

        let result = try CLI.run(["import", edited, "--name", "Edited", "--tag", "test", "--catalog", catalogPath])
        #expect(result.status == 0, "\(result.stderr)")
        let guid = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let catalog = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
        let expected = try CubeImage.read(path: edited, layout: nil).cube
        #expect(try catalog.cube(guid: guid) == expected)
        #expect(try catalog.look(guid: guid)?.tags == ["test"])
    }

    @Test func sameContentTwiceReturnsTheExistingGUIDAndSaysSo() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        let files = try writeCubes(1, prefix: "dup", seedOffset: 500, in: dir)
        let first = try CLI.run(["import", files[0], "--catalog", catalogPath])
        let second = try CLI.run(["import", files[0], "--name", "Other", "--catalog", catalogPath])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(second.stderr.contains("already in the catalog"))
        let json = try CLI.run(["import", files[0], "--json", "--catalog", catalogPath])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.first?["status"] as? String == "existing")
        #expect(array.first?["guid"] as? String == first.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        // A working space given for a cube already stored is named as not applied; an unknown one is a usage error.
        let space = try CLI.run(["import", files[0], "--space", "display-p3", "--catalog", catalogPath])
        #expect(space.stderr.contains("--space display-p3 was not applied: the stored look keeps its working space"),
                "\(space.stderr)")
        let unknown = try CLI.run(["import", files[0], "--space", "nope", "--catalog", catalogPath])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown colour space \"nope\""), "\(unknown.stderr)")
    }

    @Test func badInputIsAClearErrorAndChangesNothing() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        #expect(try CLI.run(["looks", "list", "--catalog", catalogPath]).status == 0)
        let before = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:]).looks()

        let corrupt = "\(dir)/corrupt.png"
        var bytes = [UInt8](TestSupport.bytes("\(TestSupport.packageRoot)/Looks/cyanotype.png"))
        bytes.removeLast(bytes.count / 2)
        try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
        let bad = try CLI.run(["import", corrupt, "--catalog", catalogPath])
        #expect(bad.status != 0 && bad.stderr.contains("corrupt.png"))

        let files = try writeCubes(2, prefix: "named", seedOffset: 600, in: dir)
        let dup = try CLI.run(["import", files[0], "--name", "CYANOTYPE", "--catalog", catalogPath])
        #expect(dup.status != 0 && dup.stderr.contains("already exists"))

        let unknown = try CLI.run(["export", "DEADBEEF-0000-4000-8000-000000000000", "-o", "\(dir)/x.cube",
                                         "--catalog", catalogPath])
        #expect(unknown.status != 0 && unknown.stderr.contains("no look"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/x.cube"))

        let after = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:]).looks()
        #expect(after == before)

        let hostile = "x'; DROP TABLE looks;--"
        let stored = try CLI.run(["import", files[1], "--name", hostile, "--catalog", catalogPath])
        #expect(stored.status == 0)
        let show = try CLI.run(["looks", "show", hostile, "--json", "--catalog", catalogPath])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        #expect(object["name"] as? String == hostile)
        #expect(try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:]).looks().count
                == before.count + 1)
    }

    @Test func fourProcessesImportingAtOnceLoseNothing() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        #expect(try CLI.run(["catalog", "verify", "--catalog", catalogPath]).status == 0)
        var batches: [[String]] = []
        for p in 0..<4 { batches.append(try writeCubes(25, prefix: "p\(p)", seedOffset: p * 25, in: dir)) }
        let running = try batches.map { try CLI.start(["import"] + $0 + ["--catalog", catalogPath]) }
        var outputs: [String] = []
        for (process, out, err) in running {
            let (stdout, stderr) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(String(decoding: stderr, as: UTF8.self))")
            outputs.append(String(decoding: stdout, as: UTF8.self))
        }
        let guids = Set(outputs.flatMap { $0.split(separator: "\n").map(String.init) })
        #expect(guids.count == 100)
        let catalog = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(try catalog.looks().count == 106)
        #expect(try CLI.run(["catalog", "verify", "--catalog", catalogPath]).status == 0)
    }

    @Test func sigkillDuringALargeImportLeavesNoPartialLook() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        #expect(try CLI.run(["looks", "list", "--catalog", catalogPath]).status == 0)
        let files = try writeCubes(80, prefix: "big", seedOffset: 300, size: 64, in: dir)
        let (process, _, _) = try CLI.start(["import"] + files + ["--tag", "killed", "--catalog", catalogPath])
        // Let some looks commit, then kill while others are being written.
        let deadline = Date().addingTimeInterval(60)
        var imported = 0
        while Date() < deadline && imported < 3 {
            Thread.sleep(forTimeInterval: 0.05)
            imported = (try? Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
                .looks(tag: "killed").count) ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let catalog = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
        let fromImport = try catalog.looks().filter { $0.sourceFile?.hasPrefix("big-") == true }
        #expect(fromImport.count < files.count)
        // One transaction per file: every look that exists has its tag row (no partial look).
        for look in fromImport { #expect(look.tags == ["killed"]) }
        #expect(try catalog.verify().problems.isEmpty)
        #expect(try CLI.run(["catalog", "verify", "--catalog", catalogPath]).status == 0)
    }
}
