import Foundation
import GRDB
import LookModel
import Testing
@testable import LookCatalog

/// Looks as revisable things: versions under one GUID, rename, tags, guarded removal, imports of known content.
@Suite struct LookVersionTests {
    static func add(_ catalog: Catalog, _ name: String, seed: Int, recipe: String? = nil) throws -> LookRecord {
        try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: seed), name: name, sourceFormat: "cube",
                                    recipeYAML: recipe)).record
    }

    @Test func saveVersionKeepsGUIDAndOlderVersionsResolve() throws {
        let catalog = try TestSupport.newCatalog()
        let v1 = try Self.add(catalog, "Grade", seed: 40)
        let cube1 = try catalog.cube(guid: v1.guid)
        try catalog.setSceneLook(label: 100, lookGuid: v1.guid, strength: 70)
        let outcome = try catalog.saveVersion(guid: v1.guid, NewLook(cube: try TestSupport.cube(seed: 41),
                                                                     name: "ignored", sourceFormat: "cube"))
        #expect(outcome.changed && outcome.after.version == 2 && outcome.after.guid == v1.guid)
        #expect(outcome.after.name == "Grade")
        let cube2 = try catalog.cube(guid: v1.guid)
        #expect(cube2 != cube1)
        #expect(try catalog.scene(label: 100).defaultLookGuid == v1.guid)
        let old = try catalog.resolveLook("\(v1.guid)@1")
        #expect(old.version == 1 && !old.isCurrentVersion && old.contentHash == v1.contentHash)
        #expect(try catalog.cube(old) == cube1)
        #expect(try catalog.cube(try catalog.resolveLook("grade@2")) == cube2)
        #expect(try catalog.cube(try catalog.resolveLook("\(v1.guid.prefix(8))@1")) == cube1)
        #expect(throws: CatalogError.versionNotFound(guid: v1.guid, version: 3, available: [1, 2])) {
            _ = try catalog.resolveLook("Grade@3")
        }
        let versions = try catalog.versions(guid: v1.guid)
        #expect(versions.map(\.version) == [1, 2] && versions.map(\.isCurrent) == [false, true])
        // The same cube again adds no version; another look's cube is refused.
        #expect(!(try catalog.saveVersion(guid: v1.guid, NewLook(cube: try TestSupport.cube(seed: 41), name: "x",
                                                                  sourceFormat: "cube")).changed))
        let other = try Self.add(catalog, "Other", seed: 42)
        #expect(throws: CatalogError.self) {
            try catalog.saveVersion(guid: v1.guid, NewLook(cube: try catalog.cube(guid: other.guid), name: "x",
                                                           sourceFormat: "cube"))
        }
        #expect(try catalog.verify().problems.isEmpty)
        #expect(try catalog.versions(guid: v1.guid).count == 2)
    }

    @Test func aCubeAnotherProcessStoresIsReadAfreshNotFromTheCache() throws {
        let studio = try TestSupport.newCatalog()
        let look = try Self.add(studio, "Shared", seed: 42)
        let before = try studio.cube(guid: look.guid)
        // Another process (here another Catalog on the same file) stores a new version and a rebuilt cube.
        let other = try Catalog(path: studio.path, seedDirectory: TestSupport.packageRoot, environment: [:])
        let v2 = try TestSupport.cube(seed: 43)
        _ = try other.saveVersion(guid: look.guid, NewLook(cube: v2, name: "Shared", sourceFormat: "cube"))
        #expect(try studio.cube(guid: look.guid) == other.cube(guid: look.guid))
        #expect(try studio.cube(guid: look.guid) != before)
        let v3 = try TestSupport.cube(seed: 44)
        try other.replaceCube(guid: look.guid, with: v3)
        #expect(try studio.cube(guid: look.guid) == other.cube(guid: look.guid))
        // Older versions do not change; theirs stay cached.
        let first = try studio.resolveLook("\(look.guid)@1")
        #expect(try studio.cube(first) == before)
    }

    @Test func renameTagAndUntag() throws {
        let catalog = try TestSupport.newCatalog()
        let look = try Self.add(catalog, "Plain", seed: 43)
        #expect(try catalog.renameLook(guid: look.guid, to: "PLAIN").look.name == "PLAIN")
        #expect(try catalog.renameLook(guid: look.guid, to: "Fancy").look.name == "Fancy")
        #expect(throws: CatalogError.duplicateName("Cyanotype")) {
            _ = try catalog.renameLook(guid: look.guid, to: "Cyanotype")
        }
        #expect(throws: CatalogError.self) { _ = try catalog.renameLook(guid: look.guid, to: "DEADBEEF") }
        let tagged = try catalog.tagLook(guid: look.guid, tags: ["b", "A", "a"])
        #expect(tagged.look.tags == ["A", "b"] && tagged.added == ["A", "b"])
        #expect(try catalog.tagLook(guid: look.guid, tags: ["B"]).added.isEmpty)
        let untagged = try catalog.untagLook(guid: look.guid, tags: ["a", "zzz"])
        #expect(untagged.look.tags == ["b"] && untagged.removed == ["A"])
    }

    @Test func removingALookARecipeNamesIsRefusedUnlessForced() throws {
        let catalog = try TestSupport.newCatalog()
        let base = try Self.add(catalog, "Base", seed: 44)
        let user = try Self.add(catalog, "Derived", seed: 45, recipe: "name: Derived\nsteps:\n  - look: Base\n")
        let byGUID = try Self.add(catalog, "ByGUID", seed: 46,
                                  recipe: "name: ByGUID\nsteps:\n  - look: \"\(base.guid)@1\"\n    strength: 50\n")
        #expect(try catalog.recipeUsers(of: base).map(\.guid).sorted() == [user.guid, byGUID.guid].sorted())
        #expect {
            try catalog.removeLookReporting(guid: base.guid, force: false)
        } throws: { error in
            guard case CatalogError.lookUsed(let guid, _, _, let users) = error else { return false }
            return guid == base.guid && users.count == 2 && "\(error)".contains("Derived")
        }
        #expect(try catalog.look(guid: base.guid) != nil)
        // A rename tells which recipes named the look by its old name.
        #expect(try catalog.renameLook(guid: base.guid, to: "Base 2").recipesNamingIt == ["\(user.guid) (Derived)"])
        let removal = try catalog.removeLookReporting(guid: base.guid, force: true)
        #expect(removal.brokenRecipes == ["\(byGUID.guid) (ByGUID)"])
        #expect(try catalog.look(guid: base.guid) == nil)
    }

    @Test func asNewStoresTheSameCubeTwice() throws {
        let catalog = try TestSupport.newCatalog()
        let first = try Self.add(catalog, "One", seed: 47)
        let again = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 47), name: "Two",
                                                sourceFormat: "cube"))
        #expect(again == .existing(first))
        let separate = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 47), name: "Two",
                                                   sourceFormat: "cube"), asNew: true)
        guard case .added(let record) = separate else { Issue.record("not added: \(separate)"); return }
        #expect(record.guid != first.guid && record.contentHash == first.contentHash)
        #expect(try catalog.verify().problems.isEmpty)
    }

    @Test func aVersion3CatalogMigratesKeepingItsLooks() throws {
        // The template is migrated already; rebuild a v3-shaped copy by undoing v5 and v4 on a copy of it.
        let catalog = try TestSupport.newCatalog()
        let before = try catalog.looks()
        let path = catalog.path
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                ALTER TABLE looks DROP COLUMN value_min;
                ALTER TABLE looks DROP COLUMN value_max;
                DELETE FROM grdb_migrations WHERE identifier = 'v5-look-value-range';
                DROP TABLE look_versions;
                DROP INDEX looks_by_content_hash;
                ALTER TABLE looks DROP COLUMN version;
                ALTER TABLE looks DROP COLUMN version_created_at;
                DELETE FROM grdb_migrations WHERE identifier = 'v4-look-versions';
                PRAGMA user_version = 3;
                """)
        }
        let migrated = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(try migrated.looks() == before)
        #expect(try migrated.verify().problems.isEmpty)
        #expect(try migrated.looks().allSatisfy { $0.version == 1 })
    }
}
