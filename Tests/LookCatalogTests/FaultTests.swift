import Foundation
import LookStudioTestSupport
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

/// Faults a catalog must survive: processes killed at random points of a write, read-only files, many readers.
@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct FaultTests {
    /// Kill trials per command (four commands: 13 × 4 = 52 trials).
    static let trials = 13

    /// A catalog copied from the seeded template into a fresh folder.
    static func catalogCopy(from source: String? = nil) throws -> (dir: String, path: String) {
        let dir = try TestSupport.tempDir()
        let path = dir + "/catalog.sqlite"
        try FileManager.default.copyItem(atPath: source ?? TestSupport.template.get(), toPath: path)
        return (dir, path)
    }

    static func open(_ path: String) throws -> Catalog {
        try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
    }

    /// Runs the command once to completion (timing it), then `trials` times on fresh copies of `catalog`, each
    /// killed with SIGKILL after a random delay in 0…1.2× that time; `check` inspects every killed catalog.
    /// A trial that finishes before its kill halves the window for the next ones: the timed run can be much slower
    /// than the trials (a cold cache, a busy machine), and delays past the end test nothing.
    /// Returns how many trials were killed before finishing.
    static func killTrials(_ arguments: [String], catalog source: String,
                           check: (Catalog) throws -> Void) throws -> Int {
        let (probeDir, probe) = try catalogCopy(from: source)
        defer { try? FileManager.default.removeItem(atPath: probeDir) }
        let started = Date()
        let full = try CLI.run(arguments + ["--catalog", probe])
        let duration = Date().timeIntervalSince(started)
        #expect(full.status == 0, "\(arguments): \(full.stderr)")
        try check(try open(probe))

        var killed = 0, window = 1.2 * duration
        for _ in 0..<trials {
            let (dir, path) = try catalogCopy(from: source)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let (process, _, _) = try CLI.start(arguments + ["--catalog", path])
            usleep(useconds_t(Double.random(in: 0...window) * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 } else { window /= 2 }
            let catalog = try open(path)
            let verified = try catalog.verify()
            #expect(verified.problems.isEmpty, "\(arguments): \(verified.problems)")
            try check(catalog)
        }
        print("fault trials \(arguments.prefix { !$0.hasPrefix("/") }.joined(separator: " ")): \(killed) of \(trials) killed before finishing")
        return killed
    }

    @Test("SIGKILL at random points of import leaves a verified catalog where every imported look has its tag")
    func killImport() throws {
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try (0..<4).map { i in
            let path = "\(dir)/cube-\(i).png"
            try CubeImage.write(try TestSupport.cube(size: 36, seed: 40 + i), to: path, layout: .hald, depth: .sixteen)
            return path
        }
        let killed = try Self.killTrials(["import"] + files + ["--tag", "killed"],
                                         catalog: try TestSupport.template.get()) { catalog in
            for look in try catalog.looks() where look.sourceFile?.hasPrefix("cube-") == true {
                #expect(look.tags == ["killed"], "\(look.guid) has tags \(look.tags)")
            }
        }
        #expect(killed > 0)
    }

    @Test("SIGKILL at random points of compose --save leaves either no look or the whole look with its recipe")
    func killComposeSave() throws {
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recipe = dir + "/killed.yaml"
        try "steps:\n  - adjust: tone.contrast\n    params: { amount: 0.2 }\n  - adjust: color.saturation\n"
            .write(toFile: recipe, atomically: true, encoding: .utf8)
        let killed = try Self.killTrials(["compose", recipe, "--save", "--name", "Killed Save", "--size", "33"],
                                         catalog: try TestSupport.template.get()) { catalog in
            for look in try catalog.looks() where look.name == "Killed Save" {
                #expect(look.recipeYAML?.contains("tone.contrast") == true)
                #expect(look.cubeSize == 33)
            }
        }
        #expect(killed > 0)
    }

    @Test("SIGKILL at random points of looks rebuild leaves the old cube or the new one, never a mix")
    func killRebuild() throws {
        let (dir, path) = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lut = dir + "/film.cube"
        let before = try TestSupport.cube(size: 33, seed: 5), after = try TestSupport.cube(size: 33, seed: 61)
        _ = try LUTFormat.write(LUT(cube: before), to: lut)
        try "steps:\n  - lut: film.cube\n".write(toFile: dir + "/film.yaml", atomically: true, encoding: .utf8)
        let saved = try CLI.run(["compose", dir + "/film.yaml", "--save", "--name", "Film", "--size", "33",
                                       "--catalog", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        let guid = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let oldHash = try #require(try Self.open(path).look(guid: guid)).contentHash
        try FileManager.default.removeItem(atPath: lut)
        _ = try LUTFormat.write(LUT(cube: after), to: lut)
        var hashes: Set<String> = []
        let killed = try Self.killTrials(["looks", "rebuild", guid], catalog: path) { catalog in
            let look = try #require(try catalog.look(guid: guid))
            hashes.insert(look.contentHash)
            #expect(look.recipeYAML != nil)
        }
        #expect(killed > 0)
        #expect(hashes.contains(where: { $0 != oldHash }), "the completed rebuild stores the new cube")
        #expect(hashes.count <= 2, "only the old or the new cube is ever stored")
    }

    @Test("SIGKILL at random points of scenes set-look leaves the old default or the new one with its strength")
    func killSetLook() throws {
        let template = try TestSupport.template.get()
        let old = try Self.open(template).scene(label: 91)
        let newGuid = "2DA54C60-1F05-4E56-A1FF-9B21A272704C"
        #expect(old.defaultLookGuid != newGuid)
        let killed = try Self.killTrials(["scenes", "set-look", "91", newGuid, "--strength", "35"],
                                         catalog: template) { catalog in
            let scene = try catalog.scene(label: 91)
            let pair = (scene.defaultLookGuid, scene.defaultLookStrength)
            #expect((pair.0 == old.defaultLookGuid && pair.1 == old.defaultLookStrength)
                    || (pair.0 == newGuid && pair.1 == 35), "\(pair)")
        }
        #expect(killed > 0)
    }

    @Test("a full disk during import (a file-size limit, SIGXFSZ ignored) is a clear error and adds no partial look")
    func fullDiskImport() throws {
        let (dir, path) = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = try Self.open(path).looks().count
        let file = dir + "/big.png"
        try CubeImage.write(try TestSupport.cube(size: 64, seed: 77), to: file, layout: .tiled, depth: .sixteen)
        // 16 blocks of 512 bytes: the WAL cannot grow past 8 KiB, far less than the look's blob.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // TMPDIR names no folder: ThreadSanitizer's runtime writes a 512 KiB file there at start-up and maps it,
        // which under the limit was SIGBUS (DiskFullTests.limit says more); lookstudio writes nothing there.
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 16; export TMPDIR=/nonexistent/lookstudio-disk-full; "
                                 + "exec \"$@\"", "sh", CLI.binary, "import", file, "--catalog", path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readAllRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.hasPrefix("error: ") && stderr.contains(path), "\(stderr)")
        let catalog = try Self.open(path)
        #expect(try catalog.looks().count == before)
        #expect(try catalog.verify().problems.isEmpty)
    }

    @Test("a catalog opened read-only serves reads, refuses writes with a clear error, and writes nothing")
    func readOnlyOpen() throws {
        let (dir, path) = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try Self.open(path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let catalog = try Catalog(path: path, access: .readOnly)
        #expect(catalog.access == .readOnly)
        let looks = try catalog.looks()
        #expect(looks.count >= 6)
        #expect(try catalog.cube(guid: looks[0].guid).size > 1)
        #expect(try catalog.verify().problems.isEmpty)
        #expect(throws: CatalogError.readOnly(path: path)) {
            try catalog.setSceneLook(label: 91, lookGuid: nil)
        }
        #expect(throws: CatalogError.readOnly(path: path)) {
            try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 3), name: "Nope", sourceFormat: "cube"))
        }
        #expect(CatalogError.readOnly(path: path).description.contains("is read-only"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(throws: CatalogError.missing(path: dir + "/none.sqlite")) {
            try Catalog(path: dir + "/none.sqlite", access: .readOnly)
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/none.sqlite"))
    }

    @Test("many processes read the catalog while another holds its write lock: none waits for or takes the lock")
    func readersNeverTakeTheWriteLock() throws {
        let (dir, path) = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let holder = try Self.open(path)
        let guids = try holder.looks().map(\.guid)
        try holder.write { _ in
            // The IMMEDIATE transaction holds the write lock while the readers run; a reader that wanted it would
            // wait the 60 s busy timeout and then fail with "database is locked".
            let readers = try (0..<8).map { i in
                try CLI.start(i % 2 == 0 ? ["looks", "list", "--catalog", path]
                                               : ["looks", "show", guids[i % guids.count], "--catalog", path])
            }
            for (process, out, err) in readers {
                let (o, e) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
                let stdout = String(decoding: o, as: UTF8.self), stderr = String(decoding: e, as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(stderr)")
                #expect(!stdout.isEmpty)
            }
            let reader = try Catalog(path: path, access: .readOnly)
            #expect(try reader.looks().count == guids.count)
        }
    }

    @Test("SIGINT while extract waits to save its look: the save completes, the GUID is printed, the exit status is 0")
    func interruptDuringExtractSaveIsHeld() throws {
        let (dir, path) = try Self.catalogCopy()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = CLI.packageRoot + "/samples/chelsea.png", after = dir + "/after.png"
        #expect(try CLI.run(["apply", "--lut", CLI.fixtures + "/reference/warm33.cube", before, after]).status == 0)
        let holder = try Self.open(path)
        let (process, out, err) = try CLI.start(["extract", before, after, "--name", "Held", "--catalog", path])
        // Holding the write lock stops extract at the start of its save, in SQLite's busy wait, so the interrupt
        // lands inside the save on every run rather than only when it hits a commit of a few milliseconds.
        try holder.write { _ in
            #expect(Self.waitsForTheLock(process), "extract reached its save")
            kill(process.processIdentifier, SIGINT)
            usleep(300_000)
            #expect(process.isRunning, "the interrupt is held while the save waits")
        }
        let (o, e) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
        process.waitUntilExit()
        let stdout = String(decoding: o, as: UTF8.self), stderr = String(decoding: e, as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(stderr)")
        let guid = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.open(path).resolveLook(guid).name == "Held")
        #expect(stderr.contains("note: interrupted while saving to the catalog; the save was completed first, so "
                                + "\(guid) is in the catalog as shown above"), "\(stderr)")
    }

    /// Waits (up to two minutes: the fit comes first) until a thread of `process` has slept in five polls in a row,
    /// as SQLite's busy handler does between its tries for a lock; false if the process ended first.
    static func waitsForTheLock(_ process: Process) -> Bool {
        #if arch(arm64)
        let sleeps: Set<Substring> = ["101", "115"]  // nanosleep, clock_nanosleep
        #else
        let sleeps: Set<Substring> = ["35", "230"]
        #endif
        let tasks = "/proc/\(process.processIdentifier)/task"
        var inARow = 0
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            let sleeping = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).contains { task in
                let call = try? String(contentsOfFile: "\(tasks)/\(task)/syscall", encoding: .utf8)
                return call.flatMap { $0.split(separator: " ").first }.map(sleeps.contains) ?? false
            }
            inARow = sleeping ? inARow + 1 : 0
            if inARow == 5 { return true }
            usleep(20_000)
        }
        return false
    }
}
