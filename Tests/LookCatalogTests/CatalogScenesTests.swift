import Testing
@testable import LookCatalog

struct CatalogScenesTests {
    @Test func setLookChangesDefaultAndStrength() throws {
        let catalog = try TestSupport.newCatalog()
        let cyan = try catalog.resolveLook("Cyanotype")
        let scene = try catalog.setSceneLook(label: 59, lookGuid: cyan.guid, strength: 40)
        #expect(scene.defaultLookGuid == cyan.guid && scene.defaultLookStrength == 40)
        #expect(try catalog.scene(label: 59) == scene)
        #expect(try catalog.scenesUsing(lookGuid: cyan.guid) == [59])
    }

    @Test func badLabelLookOrStrengthChangesNothing() throws {
        let catalog = try TestSupport.newCatalog()
        let before = try catalog.scenes()
        let cyan = try catalog.resolveLook("Cyanotype").guid
        #expect(throws: CatalogError.sceneNotFound(3)) { try catalog.setSceneLook(label: 3, lookGuid: cyan) }
        #expect(throws: CatalogError.lookNotFound("NOPE")) { try catalog.setSceneLook(label: 1, lookGuid: "NOPE") }
        #expect(throws: CatalogError.strengthOutOfRange(201)) {
            try catalog.setSceneLook(label: 1, lookGuid: cyan, strength: 201)
        }
        #expect(try catalog.scenes() == before)
    }

    @Test func unknownLabelIsAClearError() throws {
        let catalog = try TestSupport.newCatalog()
        #expect(throws: CatalogError.sceneNotFound(42)) { _ = try catalog.scene(label: 42) }
        #expect(CatalogError.sceneNotFound(42).description == "no scene with label 42")
    }
}
