import Foundation
import LookStudioTestSupport
import GRDB
import Testing
@testable import LookCatalog

/// Damage `PRAGMA quick_check` cannot see (a look blob whose bytes were flipped, a dropped table) still refuses
/// writes once found, and `catalog verify` names it (issue 56 item 3).
@Suite struct DamagedBlobTests {
    /// A closed copy of the seeded template with 256 bytes flipped inside a look blob's overflow page: every
    /// b-tree page is intact, so `quick_check` answers "ok", but the blob no longer decodes.
    static func catalogWithBadBlob() throws -> String {
        let path = "\(try TestSupport.tempDir())/catalog.sqlite"
        try FileManager.default.copyItem(atPath: try TestSupport.template.get(), toPath: path)
        let pageSize = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 4096
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var bytes = [UInt8](TestSupport.bytes(path))
        let idat = try #require(bytes.indices.first { bytes[$0..<$0 + 4] == [0x49, 0x44, 0x41, 0x54] })
        // The page after the one the first IDAT chunk starts on continues that blob: an overflow page, whose first
        // 4 bytes point to the next one; its content starts after them.
        let page = (idat / pageSize + 1) * pageSize
        for i in page + 100..<page + 356 { bytes[i] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let check = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
        #expect(check == ["ok"], "the damage must be one quick_check cannot see")
        return path
    }

    static func open(_ path: String) throws -> Catalog {
        try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
    }

    static func isDamaged(_ error: any Error) -> Bool {
        guard case CatalogError.damaged = error else { return false }
        return "\(error)".contains("Recover every readable look and scene into a new catalog file")
    }

    /// The look whose blob `catalogWithBadBlob` broke.
    static func brokenLook(_ catalog: Catalog) throws -> String {
        let problems = try catalog.verify().problems
        return try #require(problems.first { $0.message.contains("blob does not decode") }).guid
    }

    @Test func aReadThatFindsABadBlobRefusesWritesInThisAndLaterProcesses() throws {
        let path = try Self.catalogWithBadBlob()
        let guid = try Self.brokenLook(try Self.open(path))
        // verify leaves its verdict in the file: a later process refuses every write.
        #expect(throws: CatalogError.self) { try Self.open(path).setSceneLook(label: 100, lookGuid: nil) }
        #expect(performing: { try Self.open(path).renameLook(guid: guid, to: "Renamed") }, throws: Self.isDamaged)
        #expect(performing: { try Self.open(path).removeLook(guid: guid, force: true) }, throws: Self.isDamaged)

        // Without verify: the first read of the blob is enough, in this process and the next.
        let fresh = try Self.catalogWithBadBlob()
        let catalog = try Self.open(fresh)
        #expect(throws: CatalogError.self) { _ = try catalog.cube(guid: guid) }
        #expect(performing: { try catalog.setSceneLook(label: 100, lookGuid: nil) }, throws: Self.isDamaged)
        #expect(performing: { try Self.open(fresh).setSceneLook(label: 100, lookGuid: nil) }, throws: Self.isDamaged)
    }

    @Test func verifyNamesADroppedTableAndWritesAreRefused() throws {
        let catalog = try TestSupport.newCatalog()
        try DatabaseQueue(path: catalog.path).write { try $0.execute(sql: "DROP TABLE look_tags") }
        let problems = try Self.open(catalog.path).verify().problems.map(\.description)
        #expect(problems.contains("catalog: the table look_tags is missing"), "\(problems)")
        #expect(performing: { try Self.open(catalog.path).setSceneLook(label: 100, lookGuid: nil) },
                throws: Self.isDamaged)
        // A read that needs the table says the catalog is damaged, not "no such table".
        #expect(performing: { _ = try Self.open(catalog.path).looks() }, throws: Self.isDamaged)
    }

    @Test func verifyOfASoundCatalogLiftsAMarkLeftByMistake() throws {
        let catalog = try TestSupport.newCatalog()
        try DatabaseQueue(path: catalog.path).write {
            try $0.execute(sql: "INSERT INTO catalog_meta (key, value) VALUES ('damage', 'a test')")
        }
        #expect(performing: { try Self.open(catalog.path).setSceneLook(label: 100, lookGuid: nil) },
                throws: Self.isDamaged)
        #expect(try Self.open(catalog.path).verify().problems.isEmpty)
        try Self.open(catalog.path).setSceneLook(label: 100, lookGuid: nil)
    }

    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func cliWritesAfterVerifyFoundABadBlobExitOne() throws {
        let path = try Self.catalogWithBadBlob()
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let cube = "\(dir)/new.cube"
        _ = try LookFile.write(try TestSupport.cube(size: 5, seed: 3), to: cube, layout: nil, bits: nil, size: nil,
                               title: nil)
        let recipe = "\(dir)/r.yaml"
        try "size: 9\nsteps:\n  - adjust: tone.gamma\n    params: { gamma: 1.1 }\n"
            .write(toFile: recipe, atomically: true, encoding: .utf8)
        let verify = try CLI.run(["catalog", "verify", "--catalog", path])
        #expect(verify.status == 1, "\(verify.stderr)")
        // "error: GUID: blob does not decode: …"
        let line = try #require(verify.stderr.split(separator: "\n").first { $0.contains("blob does not decode") })
        let guid = String(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        let commands = [["import", cube], ["looks", "rename", guid, "Renamed"], ["looks", "rm", guid, "--force"],
                        ["scenes", "set", "100", "--vibrance", "20"], ["compose", recipe, "--save", "--name", "New"],
                        ["looks", "update", guid, cube]]
        for arguments in commands {
            let result = try CLI.run(arguments + ["--catalog", path])
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("error: catalog \(path) is damaged"), "\(arguments): \(result.stderr)")
        }
    }
}
