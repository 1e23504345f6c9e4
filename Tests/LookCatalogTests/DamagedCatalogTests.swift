import Foundation
import LookStudioTestSupport
import GRDB
import Testing
@testable import LookCatalog

/// A damaged catalog refuses writes (library and CLI) and `catalog recover` copies what is still readable.
@Suite struct DamagedCatalogTests {
    /// A closed copy of the seeded template with one leaf page of the looks table (its root page when the table
    /// fits one page) turned into garbage: 256 bytes flipped from the page's start, header and cell pointers
    /// included. Returns the path and how many looks it had.
    static func damagedCatalog() throws -> (path: String, looks: Int) {
        let path = "\(try TestSupport.tempDir())/catalog.sqlite"
        try FileManager.default.copyItem(atPath: try TestSupport.template.get(), toPath: path)
        var config = Configuration()
        config.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: config)
        let (root, pageSize, count) = try reader.read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'looks'") ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM looks") ?? 0)
        }
        try reader.close()
        // The template is checkpointed: the reader's WAL is empty, so the main file holds every row.
        #expect(TestSupport.bytes(path + "-wal").isEmpty)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var bytes = [UInt8](TestSupport.bytes(path))
        let rootOffset = (root - 1) * pageSize + (root == 1 ? 100 : 0)
        var victim = root
        if bytes[rootOffset] == 0x05 {
            // Interior table page: cell pointers at +12, each cell starts with its left child's page number.
            let cell = Int(bytes[rootOffset + 12]) << 8 | Int(bytes[rootOffset + 13])
            let start = (root - 1) * pageSize + cell
            victim = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let offset = (victim - 1) * pageSize
        for i in offset..<offset + 256 { bytes[i] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, count)
    }

    @Test func writesAreRefusedAndRecoverCopiesTheReadableRows() throws {
        let (path, total) = try Self.damagedCatalog()
        let catalog = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect {
            try catalog.setSceneLook(label: 100, lookGuid: nil)
        } throws: { error in
            guard case CatalogError.damaged(let p, _) = error else { return false }
            return p == path && "\(error)".contains("Recover every readable look and scene into a new catalog file")
        }
        // A failed check is not cached as passed: the next write is refused too.
        #expect(throws: CatalogError.self) { try catalog.updateSceneCorrection(label: 100) { $0.vibrance = 10 } }

        let target = "\(try TestSupport.tempDir())/recovered.sqlite"
        let report = try Catalog.recover(from: path, to: target, seedDirectory: TestSupport.packageRoot,
                                         environment: [:])
        #expect(report.looks > 0 && report.looks < total, "recovered \(report.looks) of \(total)")
        #expect(report.scenes == (try TestSupport.newCatalog().scenes().count))
        // Rows on the damaged page are named by their rowid; the others are copied.
        #expect(report.skipped.contains { $0.hasPrefix("look at row ") && $0.contains("unreadable") },
                "\(report.skipped)")
        let recovered = try Catalog(path: target, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(try recovered.verify().problems.isEmpty)
        // Shipped looks lost with the page come back from the seed, so the recovered catalog is complete again.
        #expect(try recovered.looks().count == total)
        #expect(report.openReport.seededLooks.count == total - report.looks)
        #expect(throws: CatalogError.self) {
            _ = try Catalog.recover(from: path, to: target, seedDirectory: TestSupport.packageRoot, environment: [:])
        }
    }

    @Test func aSoundCatalogIsCheckedOnceAndWrites() throws {
        let catalog = try TestSupport.newCatalog()
        try catalog.setSceneLook(label: 100, lookGuid: nil)
        try catalog.setSceneLook(label: 100, lookGuid: nil, strength: 50)
        #expect(try catalog.scene(label: 100).defaultLookStrength == 50)
    }

    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func cliWritesExitOneAndRecoverGivesAVerifyingCatalog() throws {
        let (path, _) = try Self.damagedCatalog()
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let cube = "\(dir)/new.cube"
        _ = try LookFile.write(try TestSupport.cube(size: 5, seed: 3), to: cube, layout: nil, bits: nil, size: nil,
                               title: nil)
        let before = TestSupport.bytes(path)
        let commands = [["import", cube], ["looks", "rm", "Cyanotype", "--force"], ["scenes", "set", "100",
                                                                                    "--vibrance", "20"]]
        for arguments in commands {
            let result = try CLI.run(arguments + ["--catalog", path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("error: catalog \(path) is damaged"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("lookstudio catalog recover"), "\(arguments)")
        }
        #expect(TestSupport.bytes(path) == before, "refused writes leave the file as it was")
        let recover = try CLI.run(["catalog", "recover", "--catalog", path])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(recover.stderr.contains("warning: skipped"))
        let verify = try CLI.run(["catalog", "verify", "--catalog", "\(dir)/catalog-recovered.sqlite"])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains(": ok ("))
    }
}
