import GRDB
import LookModel

extension Catalog {
    /// Every scene, by label.
    public func scenes() throws -> [SceneRecord] {
        try read { db in try SceneRecord.order(Column("label")).fetchAll(db) }
    }

    /// The scene with this label.
    public func scene(label: Int) throws -> SceneRecord {
        let scene = try read { db in try SceneRecord.filter(Column("label") == label).fetchOne(db) }
        guard let scene else { throw CatalogError.sceneNotFound(label) }
        return scene
    }

    /// Sets (or, with nil, clears) a scene's default look and its strength (0…200), in one transaction.
    @discardableResult
    public func setSceneLook(label: Int, lookGuid: String?, strength: Int = 100) throws -> SceneRecord {
        guard (0...200).contains(strength) else { throw CatalogError.strengthOutOfRange(strength) }
        return try write { db in
            guard var scene = try SceneRecord.filter(Column("label") == label).fetchOne(db) else {
                throw CatalogError.sceneNotFound(label)
            }
            if let lookGuid {
                guard let look = try Catalog.fetchLook(db, guid: lookGuid.uppercased()) else {
                    throw CatalogError.lookNotFound(lookGuid)
                }
                scene.defaultLookGuid = look.guid
            } else {
                scene.defaultLookGuid = nil
            }
            scene.defaultLookStrength = strength
            try scene.update(db)
            return scene
        }
    }
}

extension Catalog {
    /// Changes a scene's correction preset in one transaction: `change` edits the stored preset, which is checked
    /// and written back; returns the updated scene.
    @discardableResult
    public func updateSceneCorrection(label: Int, _ change: (inout CorrectionPreset) -> Void) throws -> SceneRecord {
        try write { db in
            guard var scene = try SceneRecord.filter(Column("label") == label).fetchOne(db) else {
                throw CatalogError.sceneNotFound(label)
            }
            change(&scene.correction)
            try scene.correction.validateForCatalog()
            try scene.update(db)
            return scene
        }
    }
}

extension Catalog {
    /// Labels of the scenes whose default look is `lookGuid`.
    public func scenesUsing(lookGuid: String) throws -> [Int] {
        try read { db in
            try Int.fetchAll(db, sql: "SELECT label FROM scenes WHERE default_look_guid = ? ORDER BY label",
                             arguments: [lookGuid.uppercased()])
        }
    }
}
