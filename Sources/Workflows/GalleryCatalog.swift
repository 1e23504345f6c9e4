import Foundation
import Hashing
import LookCatalog
import LookCore
import LookGallery
import LookModel
import Rendering

/// What `gallery` and `compose --preview` share: catalog records as card text, the hash, progress, the summary.
public enum GalleryCatalog {
    /// Cache keys are the catalog's SHA-256, the same hash that names look contents.
    public static let hasher: GalleryBuilder.Hasher = { SHA256.hex($0) }

    /// A look's card text from its catalog record and the scenes that apply it by default.
    public static func info(_ record: LookRecord, scenes: [SceneRecord]) -> GalleryLookInfo {
        GalleryLookInfo(
            id: record.guid, guid: record.guid, name: record.name, description: record.description,
            tags: record.tags, cubeSize: record.cubeSize, source: record.sourceFormat, sourceFile: record.sourceFile,
            createdAt: record.createdAt,
            scenes: scenes.filter { $0.defaultLookGuid == record.guid }.map {
                GalleryScene(label: $0.label, name: $0.name, strength: $0.defaultLookStrength)
            },
            recipeYAML: record.recipeYAML)
    }
}
