import Foundation
import LookStudioTestSupport
import Testing
@testable import LookCatalog

/// Catalogs nothing may be written beside: opened immutable so reads work; writes and creation refused naming the
/// folder. Tests run as root here, which ignores chmod, so a real read-only file system comes from a read-only
/// bind mount in a user and mount namespace (`unshare -rm`).
@Suite struct ReadOnlyFileSystemTests {
    /// A closed copy of the seeded template (no -wal or -shm beside it) in a fresh folder.
    static func closedCopy() throws -> (dir: String, path: String) {
        let dir = try TestSupport.tempDir()
        let path = dir + "/catalog.sqlite"
        try FileManager.default.copyItem(atPath: try TestSupport.template.get(), toPath: path)
        return (dir, path)
    }

    @Test func immutableOpenReadsAndCreatesNothing() throws {
        let (dir, path) = try Self.closedCopy()
        let before = TestSupport.bytes(path)
        let catalog = try Catalog(path: path, access: .immutable)
        #expect(catalog.access == .immutable)
        let looks = try catalog.looks()
        #expect(looks.count >= 6)
        #expect(try catalog.cube(guid: looks[0].guid).size > 1)
        #expect(try catalog.scenes().count > 0)
        #expect(throws: CatalogError.cannotWrite(path: path, folder: dir, creating: false)) {
            try catalog.setSceneLook(label: 100, lookGuid: nil)
        }
        #expect(CatalogError.cannotWrite(path: path, folder: dir, creating: false).description
            .contains("read-only file system"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["catalog.sqlite"])
        #expect(TestSupport.bytes(path) == before)
    }

    @Test func immutableURIEscapesReservedCharacters() {
        #expect(Catalog.immutableURI("/a b/c?d#e%f.sqlite") == "file:/a%20b/c%3Fd%23e%25f.sqlite?immutable=1")
    }

    @Test func aNewCatalogInAnUnwritableFolderNamesTheFolder() throws {
        let path = "/proc/lookstudio-\(UUID().uuidString).sqlite"
        #expect(throws: CatalogError.cannotWrite(path: path, folder: "/proc", creating: true)) {
            try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        }
        #expect(CatalogError.cannotWrite(path: path, folder: "/proc", creating: true).description
            .contains("its folder /proc is not writable"))
    }

    /// Runs the CLI inside a private mount namespace where `dir` is bind-mounted read-only.
    static func runOnReadOnlyMount(_ dir: String, _ arguments: [String]) throws -> CLI.Result {
        let quoted = ([CLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try CLI.run(command: "/usr/bin/unshare", ["-rm", "sh", "-c",
            "mount --bind -o ro '\(dir)' '\(dir)' && touch '\(dir)/probe' 2>/dev/null && exit 99; exec \(quoted)"])
    }

    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func cliReadsAndRefusesWritesOnAReadOnlyFileSystem() throws {
        let (dir, path) = try Self.closedCopy()
        let list = try Self.runOnReadOnlyMount(dir, ["looks", "list", "--catalog", path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Cyanotype"))
        let write = try Self.runOnReadOnlyMount(dir, ["scenes", "set", "100", "--vibrance", "20", "--catalog", path])
        #expect(write.status == 1)
        #expect(write.stderr.hasPrefix("error: catalog \(path) is on a read-only file system"), "\(write.stderr)")
        let create = try Self.runOnReadOnlyMount(dir, ["looks", "list", "--catalog", dir + "/new.sqlite"])
        #expect(create.status == 1)
        #expect(create.stderr.contains("its folder \(dir) is not writable"), "\(create.stderr)")
    }
}

/// `correct` into a new folder on a read-only file system names the real cause.
@Suite struct CorrectOnReadOnlyFileSystemTests {
    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func aNewOutputFolderOnAReadOnlyMountSaysReadOnly() throws {
        let dir = try TestSupport.tempDir(), writable = try TestSupport.tempDir()
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(atPath: writable)
        }
        try FileManager.default.copyItem(atPath: CLI.packageRoot + "/samples/coffee.png", toPath: dir + "/in.png")
        let r = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["correct", dir + "/in.png", "-o", dir + "/new/",
                                                                    "--no-look", "--catalog", writable + "/c.sqlite"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(dir)/new/: cannot create the output folder (Read-only file system)"),
                "\(r.stderr)")
    }
}

/// A catalog whose last commits are still in its `-wal`, on a read-only file system: every committed look is read,
/// or the open is refused; never an older catalog shown as if complete (issue 56 item 4).
@Suite struct ReadOnlyCatalogWithLogTests {
    /// A copy of a catalog taken while a connection still holds it open after adding a seventh look, so that look
    /// is only in the copy's `-wal` (with the `-shm` beside it, as a killed process leaves them).
    static func copyWithLookInLog() throws -> (dir: String, path: String) {
        let source = try TestSupport.newCatalog()
        _ = try source.addLook(NewLook(cube: try TestSupport.cube(size: 5, seed: 9), name: "Only In The Log",
                                       sourceFormat: "cube"))
        #expect(TestSupport.bytes(source.path + "-wal").count > 0)
        let dir = try TestSupport.tempDir()
        let path = dir + "/catalog.sqlite"
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: path + suffix)
        }
        withExtendedLifetime(source) {}
        return (dir, path)
    }

    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func looksStillInTheLogAreReadOnAReadOnlyMount() throws {
        let (dir, path) = try Self.copyWithLookInLog()
        let list = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["looks", "list", "--catalog", path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Only In The Log"), "\(list.stdout)")
        let show = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["looks", "show", "Only In The Log",
                                                                        "--catalog", path])
        #expect(show.status == 0, "\(show.stderr)")
        let verify = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["catalog", "verify", "--catalog", path])
        #expect(verify.status == 0 && verify.stdout.contains("(7 looks verified)"), "\(verify.stdout)")
        let write = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["scenes", "set", "100", "--vibrance", "20",
                                                                         "--catalog", path])
        #expect(write.status == 1 && write.stderr.contains("read-only"), "\(write.stderr)")
    }

    /// The probe's case: the `-wal` without its `-shm`. An immutable open showed 6 of 7 looks and `verify` said ok.
    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func aLogSQLiteCannotReadThereIsRefusedWithTheReason() throws {
        let (dir, path) = try Self.copyWithLookInLog()
        try FileManager.default.removeItem(atPath: path + "-shm")
        let list = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["looks", "list", "--catalog", path])
        #expect(list.status == 1)
        #expect(list.stderr.hasPrefix("error: catalog \(path) has a write-ahead log \(path)-wal"), "\(list.stderr)")
        #expect(list.stdout.isEmpty)
        let verify = try ReadOnlyFileSystemTests.runOnReadOnlyMount(dir, ["catalog", "verify", "--catalog", path])
        #expect(verify.status == 1 && verify.stderr.contains("write-ahead log"), "\(verify.stderr)")
    }
}
