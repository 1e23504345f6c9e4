import Foundation
import GRDB
import Testing
@testable import LookCatalog

struct CatalogTests {
    static let sceneLabels = [1, 2, 7, 8, 9, 57, 58, 59, 60, 91, 100]

    @Test func freshCatalogHasEverySceneAndTheShippedLooks() throws {
        let catalog = try Catalog(path: "\(try TestSupport.tempDir())/new.sqlite", seedDirectory: TestSupport.packageRoot,
                                  environment: [:])
        #expect(catalog.openReport.created)
        #expect(try catalog.scenes().map(\.label) == Self.sceneLabels)
        #expect(try catalog.scene(label: 1).name == "Auto — People")
        #expect(try catalog.scene(label: 100).workflows == ["Universal", "Pro"])
        let looks = try catalog.looks()
        #expect(looks.count == 6)
        // The GUIDs in Looks/*.yaml are the shipped identities; the catalog must carry exactly those.
        let seed = try Seed.load(from: TestSupport.packageRoot)
        #expect(Set(looks.map(\.guid)) == Set(seed.looks.map(\.guid)))
        #expect(Set(seed.looks.map(\.guid)) == Set(ShippedLooks.all.map(\.guid)))
        for look in looks { #expect(look.cubeSize == 64 && look.layout == "tiled") }
    }

    @Test("the scene presets are read from scenes.yaml alone: a broken look YAML beside it is not read")
    func scenesWithoutLooks() throws {
        let shipped = try Seed.load(from: TestSupport.packageRoot).scenes
        #expect(try Seed.loadScenes(from: TestSupport.packageRoot) == shipped)
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Catalog", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/Looks", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestSupport.packageRoot + "/Catalog/scenes.yaml",
                                         toPath: dir + "/Catalog/scenes.yaml")
        try Data("guid: [unclosed\n".utf8).write(to: URL(fileURLWithPath: dir + "/Looks/broken.yaml"))
        #expect(try Seed.loadScenes(from: dir) == shipped)
        #expect(throws: CatalogError.self) { try Seed.load(from: dir) }
    }

    @Test("a scene list whose label reads as an overflowing base-60 number is refused with its line, not a trap")
    func scenesBase60Label() {
        let text = "scenes:\n  - guid: 6B1F9E0C-0000-4000-8000-000000000001\n    label: 1:1:1:1:1:1:1:1:1:1:1\n"
        #expect {
            _ = try Seed.parseScenes(text, file: "scenes.yaml")
        } throws: {
            "\($0)".hasPrefix("scenes.yaml: line 3: \"1:1:1:1:1:1:1:1:1:1:1\" reads as a base-60 number")
        }
    }

    @Test func sceneDefaultsPointAtShippedLooks() throws {
        let catalog = try TestSupport.newCatalog()
        let bw = try catalog.scene(label: 100)
        #expect(try catalog.look(guid: try #require(bw.defaultLookGuid))?.name == "Red Filter B&W")
        #expect(bw.defaultLookStrength == 100)
        #expect(try catalog.scene(label: 91).defaultLookGuid != nil)
        #expect(try catalog.scene(label: 1).defaultLookGuid == nil)
    }

    @Test func reopeningDoesNotSeedAgainNorBringBackRemovedLooks() throws {
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        let first = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        let cyanotype = try first.resolveLook("Cyanotype")
        try first.removeLook(guid: cyanotype.guid)
        let second = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(!second.openReport.created)
        #expect(second.openReport.seededLooks.isEmpty)
        #expect(try second.look(guid: cyanotype.guid) == nil)
        #expect(try second.looks().count == 5)
    }

    @Test func aGrownShippedSetAddsOnlyTheNewItems() throws {
        // A seed folder holding the scenes and all but one shipped look, then the full set.
        let dir = try TestSupport.tempDir()
        let fm = FileManager.default
        try fm.createDirectory(atPath: "\(dir)/Catalog", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: "\(dir)/Looks", withIntermediateDirectories: true)
        try fm.copyItem(atPath: "\(TestSupport.packageRoot)/Catalog/scenes.yaml", toPath: "\(dir)/Catalog/scenes.yaml")
        let held = ShippedLooks.all[2]
        for look in ShippedLooks.all where look.guid != held.guid {
            for ext in ["png", "yaml"] {
                try fm.copyItem(atPath: "\(TestSupport.packageRoot)/Looks/\(look.stem).\(ext)",
                                toPath: "\(dir)/Looks/\(look.stem).\(ext)")
            }
        }
        let path = "\(dir)/c.sqlite"
        let first = try Catalog(path: path, seedDirectory: dir, environment: [:])
        #expect(first.openReport.seededLooks.count == 5)
        let grown = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(grown.openReport.seededLooks == [held.guid])
        #expect(grown.openReport.seededScenes.isEmpty)
        #expect(try grown.looks().count == 6)
    }

    @Test func newCatalogWithoutSeedIsAnErrorAndCreatesNothing() throws {
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        #expect(throws: CatalogError.self) {
            _ = try Catalog(path: path, seedDirectory: "/nonexistent-seed", environment: [:])
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func existingCatalogOpensWithoutSeed() throws {
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        let reopened = try Catalog(path: path, seedDirectory: "/nonexistent-seed", environment: [:])
        #expect(try reopened.looks().count == 6)
    }

    @Test func fileThatIsNotSQLiteIsRefusedAndUntouched() throws {
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        let junk = Data("this is not a database, just some text\n".utf8)
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(throws: CatalogError.notSQLite(path: path)) {
            _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        }
        #expect(TestSupport.bytes(path) == junk)
    }

    @Test func otherProgramsDatabaseIsRefusedAndUntouched() throws {
        let path = "\(try TestSupport.tempDir())/other.sqlite"
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT)") }
        let before = TestSupport.bytes(path)
        #expect(throws: CatalogError.notACatalog(path: path)) {
            _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        }
        #expect(TestSupport.bytes(path) == before)
    }

    @Test func newerSchemaVersionIsRefusedAndUntouched() throws {
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        // A future build: a higher user_version and a migration this build does not know.
        let future = try DatabaseQueue(path: path)
        try future.write { db in
            try db.execute(sql: "PRAGMA user_version = 7")
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v7-future')")
        }
        try future.close()
        let before = TestSupport.bytes(path)
        do {
            _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
            Issue.record("a newer catalog was opened")
        } catch let error as CatalogError {
            guard case .newerSchema(_, let version, let known, let unknown) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(version == 7 && known == CatalogSchema.version && unknown == ["v7-future"])
        }
        #expect(TestSupport.bytes(path) == before)
    }

    @Test func unknownMigrationAloneIsRefused() throws {
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        let future = try DatabaseQueue(path: path)
        try future.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2-other')") }
        try future.close()
        #expect(throws: CatalogError.self) {
            _ = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        }
    }

    @Test func catalogIsInWALModeWithMigrationsRecorded() throws {
        let catalog = try TestSupport.newCatalog()
        let (mode, version, complete) = try catalog.dbQueue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try CatalogSchema.migrator.hasCompletedMigrations(db))
        }
        #expect(mode == "wal")
        #expect(version == CatalogSchema.version)
        #expect(complete)
    }

    @Test func verifyPassesOnAFreshCatalogAndFlagsATamperedBlob() throws {
        let catalog = try TestSupport.newCatalog()
        #expect(try catalog.verify().problems.isEmpty)
        #expect(try catalog.verify().lookCount == 6)
        let victim = try catalog.resolveLook("Night Vision")
        try catalog.dbQueue.write { db in
            try db.execute(sql: "UPDATE looks SET png = x'89504E47' WHERE guid = ?", arguments: [victim.guid])
        }
        let problems = try catalog.verify().problems
        #expect(problems.map(\.guid) == [victim.guid])
    }
}
