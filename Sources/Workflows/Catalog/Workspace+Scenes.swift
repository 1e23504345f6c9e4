import LookCatalog
import LookModel

/// A scene with its default look's name, as `scenes list` and `scenes show` report it.
public struct SceneDetails: Sendable, Equatable {
    /// The scene.
    public var scene: SceneRecord
    /// The name of its default look, if it has one.
    public var defaultLookName: String?
}

extension Workspace {
    /// Every scene, by label.
    public func scenes() throws -> [SceneDetails] {
        let catalog = try openCatalog()
        return try catalog.scenes().map { try Self.details($0, in: catalog) }
    }

    /// The scene with this label.
    public func scene(label: Int) throws -> SceneDetails {
        let catalog = try openCatalog()
        return try Self.details(try catalog.scene(label: label), in: catalog)
    }

    /// Makes the look `reference` the scene's default at `strength` (0…200). A scene follows a look, not one of its
    /// versions, so a reference to an older version (`…@N`) is refused.
    public func setSceneLook(label: Int, look reference: String, strength: Int) throws -> SceneDetails {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        guard record.isCurrentVersion else {
            throw WorkflowError.olderVersionForScene(reference: reference, guid: record.guid, name: record.name,
                                                     version: record.version)
        }
        let scene = try catalog.setSceneLook(label: label, lookGuid: record.guid, strength: strength)
        return SceneDetails(scene: scene, defaultLookName: record.name)
    }

    /// Changes a scene's automatic-correction preset in one transaction.
    public func updateSceneCorrection(label: Int, _ change: (inout CorrectionPreset) -> Void) throws
        -> SceneDetails {
        let catalog = try openCatalog()
        return try Self.details(try catalog.updateSceneCorrection(label: label, change), in: catalog)
    }

    private static func details(_ scene: SceneRecord, in catalog: Catalog) throws -> SceneDetails {
        SceneDetails(scene: scene, defaultLookName: try scene.defaultLookGuid.flatMap { try catalog.look(guid: $0)?.name })
    }
}
