import Foundation
import GRDB
import LookCore
import Testing
@testable import LookCatalog

struct CatalogLooksTests {
    @Test func addedLookReadsBackAsItsQuantisedCube() throws {
        let catalog = try TestSupport.newCatalog()
        let cube = try TestSupport.cube(seed: 1)
        let outcome = try catalog.addLook(NewLook(cube: cube, name: "Mine", tags: ["b", "A", "a"], sourceFormat: "png"))
        guard case .added(let record) = outcome else { Issue.record("not added"); return }
        #expect(UUID(uuidString: record.guid) != nil && record.guid == record.guid.uppercased())
        #expect(record.tags == ["A", "b"])
        #expect(record.layout == "strip")   // 17 is not a square
        let stored = try catalog.cube(guid: record.guid)
        #expect(stored.size == 17)
        for (a, b) in zip(stored.values, cube.values) { #expect(abs(a - b) <= 0.5 / 65535 + 1e-7) }
    }

    @Test func storedBlobIsWhatCubeDecodesAndTimingsAddUp() throws {
        let catalog = try TestSupport.newCatalog()
        var timings = Catalog.AddLookTimings()
        let record = try catalog.addLook(NewLook(cube: try TestSupport.cube(size: 16, seed: 4), name: "Timed",
                                                 sourceFormat: "png"), renameOnConflict: false, timings: &timings).record
        #expect(timings.encode > 0 && timings.hash > 0 && timings.insert > 0)
        let blob = try catalog.storedBlob(guid: record.guid.lowercased())
        #expect(blob.layout == "tiled")
        let decoded = try LookBlob.decode(blob.png, guid: record.guid, layout: blob.layout)
        #expect(decoded == (try catalog.cube(guid: record.guid)))
        #expect(LookBlob.contentHash(decoded) == record.contentHash)
        #expect(throws: CatalogError.lookNotFound("0000")) { _ = try catalog.storedBlob(guid: "0000") }
    }

    @Test func sameContentReturnsTheExistingLook() throws {
        let catalog = try TestSupport.newCatalog()
        let cube = try TestSupport.cube(seed: 2)
        let first = try catalog.addLook(NewLook(cube: cube, name: "One", sourceFormat: "cube")).record
        let second = try catalog.addLook(NewLook(cube: cube, name: "Two", sourceFormat: "cube"))
        #expect(second == .existing(first))
        #expect(try catalog.looks().count == 7)
    }

    @Test func duplicateNameIsRefusedIgnoringCaseAndNothingChanges() throws {
        let catalog = try TestSupport.newCatalog()
        #expect(throws: CatalogError.duplicateName("warm film")) {
            _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 3), name: "warm film", sourceFormat: "png"))
        }
        #expect(try catalog.looks().count == 6)
        let renamed = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 3), name: "Warm Film",
                                                  sourceFormat: "png"), renameOnConflict: true)
        #expect(renamed.record.name == "Warm Film 2")
    }

    @Test func sqlInANameIsStoredLiterally() throws {
        let catalog = try TestSupport.newCatalog()
        let name = "x'; DROP TABLE looks;--"
        let record = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 4), name: name, sourceFormat: "png")).record
        #expect(record.name == name)
        #expect(try catalog.resolveLook(name).guid == record.guid)
        #expect(try catalog.looks().count == 7)
    }

    @Test func emptyNamesAndTagsAreRefused() throws {
        let catalog = try TestSupport.newCatalog()
        #expect(throws: CatalogError.invalidName("  ")) {
            _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 5), name: "  ", sourceFormat: "png"))
        }
        #expect(throws: CatalogError.self) {
            _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 5), name: "ok", tags: [""], sourceFormat: "png"))
        }
        #expect(try catalog.looks().count == 6)
    }

    @Test func namesDifferingOnlyInUnicodeCaseOrCompositionAreOneName() throws {
        let catalog = try TestSupport.newCatalog()
        let eclair = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 71), name: "Éclair",
                                                 sourceFormat: "png")).record
        #expect(throws: CatalogError.duplicateName("éclair")) {
            _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 72), name: "éclair", sourceFormat: "png"))
        }
        _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 73), name: "Caf\u{E9}", sourceFormat: "png"))
        #expect(throws: CatalogError.duplicateName("Cafe\u{301}")) {
            _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 74), name: "Cafe\u{301}",
                                            sourceFormat: "png"))
        }
        #expect(try catalog.resolveLook("ÉCLAIR").guid == eclair.guid)
        #expect(throws: CatalogError.duplicateName("CAFÉ")) { try catalog.renameLook(guid: eclair.guid, to: "CAFÉ") }
        // Renaming a look to its own name in another case is no clash.
        #expect(try catalog.renameLook(guid: eclair.guid, to: "ÉCLAIR").look.name == "ÉCLAIR")
    }

    @Test func lookupByGUIDNameAndPrefix() throws {
        let catalog = try TestSupport.newCatalog()
        let look = try catalog.resolveLook("red filter b&w")
        #expect(try catalog.resolveLook(look.guid.lowercased()) == look)
        #expect(try catalog.resolveLook(String(look.guid.prefix(8))) == look)
        #expect(throws: CatalogError.lookNotFound(String(look.guid.prefix(7)))) {
            _ = try catalog.resolveLook(String(look.guid.prefix(7)))
        }
        #expect(throws: CatalogError.lookNotFound("00000000-0000-0000-0000-000000000000")) {
            _ = try catalog.resolveLook("00000000-0000-0000-0000-000000000000")
        }
    }

    @Test func ambiguousPrefixListsTheCandidates() throws {
        let catalog = try TestSupport.newCatalog()
        let a = "ABCDEF01-0000-4000-8000-000000000001", b = "ABCDEF01-0000-4000-8000-000000000002"
        _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 6), name: "A", sourceFormat: "png", guid: a))
        _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 7), name: "B", sourceFormat: "png", guid: b))
        do {
            _ = try catalog.resolveLook("abcdef01")
            Issue.record("an ambiguous prefix resolved")
        } catch let CatalogError.ambiguousLook(_, candidates) {
            #expect(candidates == ["\(a) (A)", "\(b) (B)"])
        }
        #expect(try catalog.resolveLook(b.lowercased()).guid == b)
    }

    @Test func tagFilterIgnoresCase() throws {
        let catalog = try TestSupport.newCatalog()
        #expect(try catalog.looks(tag: "BLACK-AND-WHITE").map(\.name) == ["Hot Black Infrared", "Red Filter B&W"])
        #expect(try catalog.looks(tag: "no-such-tag").isEmpty)
    }

    @Test func removingALookASceneUsesNeedsForce() throws {
        let catalog = try TestSupport.newCatalog()
        let bw = try catalog.resolveLook("Red Filter B&W")
        #expect(throws: CatalogError.lookInUse(guid: bw.guid, name: bw.name, sceneLabels: [100])) {
            try catalog.removeLook(guid: bw.guid)
        }
        #expect(try catalog.look(guid: bw.guid) != nil)
        #expect(try catalog.removeLook(guid: bw.guid, force: true) == [100])
        #expect(try catalog.look(guid: bw.guid) == nil)
        #expect(try catalog.scene(label: 100).defaultLookGuid == nil)
        #expect(try catalog.verify().problems.isEmpty)
    }

    @Test func removingDropsTagsWithTheLook() throws {
        let catalog = try TestSupport.newCatalog()
        let cyan = try catalog.resolveLook("Cyanotype")
        try catalog.removeLook(guid: cyan.guid)
        let orphans = try catalog.dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM look_tags WHERE look_guid = ?",
                                                                  arguments: [cyan.guid]) }
        #expect(orphans == 0)
        #expect(throws: CatalogError.self) { try catalog.cube(guid: cyan.guid) }
    }

    @Test func cubeIsDecodedOnceAndCached() throws {
        let catalog = try TestSupport.newCatalog()
        let guid = try catalog.resolveLook("Warm Film").guid
        let first = try catalog.cube(guid: guid)
        // Corrupt the stored blob: a cached read must not touch it.
        try catalog.dbQueue.write { try $0.execute(sql: "UPDATE looks SET png = x'00' WHERE guid = ?", arguments: [guid]) }
        #expect(try catalog.cube(guid: guid) == first)
    }

    @Test func aFailingWriteLeavesNoRow() throws {
        let catalog = try TestSupport.newCatalog()
        // The second tag insert violates the primary key only if duplicates slipped through; simulate a failure
        // inside the transaction instead by inserting a look whose GUID already exists.
        let existing = try catalog.resolveLook("Cyanotype").guid
        #expect(throws: CatalogError.self) {
            _ = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 8), name: "Fresh", tags: ["t"],
                                            sourceFormat: "png", guid: existing))
        }
        #expect(try catalog.looks().count == 6)
        let tags = try catalog.dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM look_tags WHERE tag = 't'") }
        #expect(tags == 0)
    }

    @Test("replaceCube swaps blob, size and hash together, keeps GUID, name, tags and recipe, and drops the cached cube")
    func replaceCubeKeepsIdentity() throws {
        let catalog = try TestSupport.newCatalog()
        let first = try TestSupport.cube(size: 17, seed: 10)
        let record = try catalog.addLook(NewLook(cube: first, name: "Rebuilt", tags: ["x", "y"], sourceFormat: "recipe",
                                                 recipeYAML: "steps: []\n")).record
        _ = try catalog.cube(guid: record.guid)   // fills the cache
        let second = try TestSupport.cube(size: 16, seed: 11)
        let result = try catalog.replaceCube(guid: record.guid.lowercased(), with: second)
        #expect(result.changed)
        #expect(result.before == record)
        #expect(result.after.guid == record.guid && result.after.name == "Rebuilt" && result.after.tags == ["x", "y"])
        #expect(result.after.recipeYAML == "steps: []\n" && result.after.createdAt == record.createdAt)
        #expect(result.after.cubeSize == 16 && result.after.layout == "tiled")
        #expect(result.after.contentHash != record.contentHash)
        #expect(try catalog.look(guid: record.guid) == result.after)
        let stored = try catalog.cube(guid: record.guid)
        #expect(stored.size == 16)
        for (a, b) in zip(stored.values, second.values) { #expect(abs(a - b) <= 0.5 / 65535 + 1e-7) }
        // A fresh connection reads the same: the blob really changed, not only the cache.
        let reopened = try Catalog(path: catalog.path, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(try reopened.cube(guid: record.guid) == stored)
        #expect(try catalog.verify().problems.isEmpty)

        let again = try catalog.replaceCube(guid: record.guid, with: stored)
        #expect(!again.changed && again.after == result.after)
    }

    @Test("replaceCube refuses another look's cube and unknown GUIDs, changing nothing")
    func replaceCubeRefusals() throws {
        let catalog = try TestSupport.newCatalog()
        let mine = try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: 12), name: "Mine",
                                               sourceFormat: "png")).record
        let warm = try catalog.resolveLook("Warm Film")
        #expect(throws: CatalogError.contentTaken(guid: mine.guid, by: "\(warm.guid) (Warm Film)")) {
            _ = try catalog.replaceCube(guid: mine.guid, with: try catalog.cube(guid: warm.guid))
        }
        #expect(try catalog.look(guid: mine.guid) == mine)
        #expect(throws: CatalogError.lookNotFound("00000000-0000-0000-0000-000000000000")) {
            _ = try catalog.replaceCube(guid: "00000000-0000-0000-0000-000000000000", with: try TestSupport.cube(seed: 13))
        }
    }
}
