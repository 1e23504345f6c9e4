import Foundation
import LookCore
import LookModel
import Workflows

/// The stable `--json` contract of the catalog commands (docs/guide/looks-and-catalog.md): snake_case keys (the
/// property names, converted by `string`), every key always present (null when empty), sorted keys, ISO 8601 UTC
/// times.
enum CatalogJSON {
    /// A look as `looks list` / `looks show` print it.
    struct Look: Encodable, Sendable, Equatable {
        var guid: String
        var name: String
        var cubeSize: Int
        var layout: String
        var contentHash: String
        var sourceFormat: String
        @NullEncoded var sourceFile: String?
        /// The description; null when there is none, as the contract has every empty value.
        @NullEncoded var description: String?
        @NullEncoded var recipeYaml: String?
        var createdAt: String
        var tags: [String]
        /// The look's working space: srgb, display-p3, adobe-rgb, rec2020, or an ICC profile's description.
        var workingSpace: String
        /// Labels of the scenes using this look as their default (`looks show` only; left out of lists).
        var defaultForScenes: [Int]?
        /// The version shown: the current one, or an older one for `GUID@N`.
        var version: Int

        /// The view of a record.
        init(_ r: LookRecord, defaultForScenes: [Int]? = nil) {
            guid = r.guid
            name = r.name
            cubeSize = r.cubeSize
            layout = r.layout
            contentHash = r.contentHash
            sourceFormat = r.sourceFormat
            sourceFile = r.sourceFile
            description = r.description.isEmpty ? nil : r.description
            recipeYaml = r.recipeYAML
            createdAt = CatalogJSON.timestamp(r.createdAt)
            tags = r.tags
            workingSpace = r.workingSpace
            version = r.version
            self.defaultForScenes = defaultForScenes
        }
    }

    /// A scene as `scenes list` / `scenes show` print it.
    struct Scene: Encodable, Sendable, Equatable {
        var guid: String
        var label: Int
        var name: String
        var workflows: [String]
        var description: String
        @NullEncoded var defaultLookGuid: String?
        @NullEncoded var defaultLookName: String?
        var defaultLookStrength: Int
        var correction: CorrectionPreset

        /// The view of a scene with its default look's name.
        init(_ details: SceneDetails) {
            let s = details.scene
            guid = s.guid
            label = s.label
            name = s.name
            workflows = s.workflows
            description = s.description
            defaultLookGuid = s.defaultLookGuid
            defaultLookName = details.defaultLookName
            defaultLookStrength = s.defaultLookStrength
            correction = s.correction
        }
    }

    /// One file of `import --json`.
    struct Imported: Encodable, Sendable {
        var file: String
        /// "added", "existing" (same cube already stored) or "failed".
        var status: String
        @NullEncoded var guid: String?
        @NullEncoded var name: String?
        @NullEncoded var cubeSize: Int?
        var warnings: [String]
        @NullEncoded var error: String?
        /// The look's current version (null when the file failed).
        @NullEncoded var version: Int?
        /// Tags this import added to a look already in the catalog (status "existing").
        var tagsAdded: [String]

        /// Describes one imported file; `error` is the failed file's message.
        init(_ imported: ImportJob.Imported, error: String?) {
            file = imported.file
            status = imported.status.rawValue
            guid = imported.look?.guid
            name = imported.look?.name
            cubeSize = imported.look?.cubeSize
            warnings = imported.warnings
            self.error = error
            version = imported.look?.version
            tagsAdded = imported.tagsAdded
        }
    }

    /// One version of `looks versions --json`.
    struct Version: Encodable, Sendable, Equatable {
        var guid: String
        var version: Int
        var cubeSize: Int
        var contentHash: String
        var sourceFormat: String
        @NullEncoded var sourceFile: String?
        var createdAt: String
        var current: Bool

        /// The view of one version of the look `guid`.
        init(guid: String, _ v: LookVersion) {
            self.guid = guid
            version = v.version
            cubeSize = v.cubeSize
            contentHash = v.contentHash
            sourceFormat = v.sourceFormat
            sourceFile = v.sourceFile
            createdAt = CatalogJSON.timestamp(v.createdAt)
            current = v.isCurrent
        }
    }

    /// `2026-05-01T12:00:00Z`-style UTC time.
    static func timestamp(_ date: Date) -> String {
        var style = Date.ISO8601FormatStyle()
        style.timeZone = TimeZone(identifier: "UTC") ?? .current
        return date.formatted(style)
    }

    /// Pretty-printed JSON with sorted, snake_case keys, as every catalog `--json` prints it.
    static func string<T: Encodable>(_ value: T) throws -> String { try jsonString(value, keys: .convertToSnakeCase) }
}
