import Foundation
import LookModel

/// The stable `--json` contract of the catalog commands (documented in docs/CATALOG.md): snake_case keys, every
/// key always present (null when empty), sorted keys, ISO 8601 UTC times.
public enum CatalogJSON {
    /// A look as `looks list` / `looks show` print it.
    public struct Look: Encodable, Sendable, Equatable {
        public var guid: String
        public var name: String
        public var cubeSize: Int
        public var layout: String
        public var contentHash: String
        public var sourceFormat: String
        public var sourceFile: String?
        /// The description; nil (JSON null) when there is none, as the contract has every empty value.
        public var description: String?
        public var recipeYaml: String?
        public var createdAt: String
        public var tags: [String]
        /// The look's working space: srgb, display-p3, adobe-rgb, rec2020, or an ICC profile's description.
        public var workingSpace: String
        /// Labels of the scenes using this look as their default (`looks show` only; nil in lists).
        public var defaultForScenes: [Int]?
        /// The version shown: the current one, or an older one for `GUID@N`.
        public var version: Int

        /// The view of a record.
        public init(_ r: LookRecord, defaultForScenes: [Int]? = nil) {
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

        enum CodingKeys: String, CodingKey {
            case guid, name, layout, description, tags, version
            case cubeSize = "cube_size", contentHash = "content_hash", sourceFormat = "source_format"
            case sourceFile = "source_file", recipeYaml = "recipe_yaml", createdAt = "created_at"
            case defaultForScenes = "default_for_scenes", workingSpace = "working_space"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(guid, forKey: .guid)
            try c.encode(name, forKey: .name)
            try c.encode(cubeSize, forKey: .cubeSize)
            try c.encode(layout, forKey: .layout)
            try c.encode(contentHash, forKey: .contentHash)
            try c.encode(sourceFormat, forKey: .sourceFormat)
            try c.encode(sourceFile, forKey: .sourceFile)
            try c.encode(description, forKey: .description)
            try c.encode(recipeYaml, forKey: .recipeYaml)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(tags, forKey: .tags)
            try c.encode(workingSpace, forKey: .workingSpace)
            try c.encode(version, forKey: .version)
            if let defaultForScenes { try c.encode(defaultForScenes, forKey: .defaultForScenes) }
        }
    }

    /// A scene as `scenes list` / `scenes show` print it.
    public struct Scene: Encodable, Sendable, Equatable {
        public var guid: String
        public var label: Int
        public var name: String
        public var workflows: [String]
        public var description: String
        public var defaultLookGuid: String?
        public var defaultLookName: String?
        public var defaultLookStrength: Int
        public var correction: CorrectionPreset

        /// The view of a record; `lookName` is the default look's name, if any.
        public init(_ s: SceneRecord, lookName: String?) {
            guid = s.guid
            label = s.label
            name = s.name
            workflows = s.workflows
            description = s.description
            defaultLookGuid = s.defaultLookGuid
            defaultLookName = lookName
            defaultLookStrength = s.defaultLookStrength
            correction = s.correction
        }

        enum CodingKeys: String, CodingKey {
            case guid, label, name, workflows, description
            case defaultLookGuid = "default_look_guid", defaultLookName = "default_look_name"
            case defaultLookStrength = "default_look_strength", correction
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(correction, forKey: .correction)
            try c.encode(guid, forKey: .guid)
            try c.encode(label, forKey: .label)
            try c.encode(name, forKey: .name)
            try c.encode(workflows, forKey: .workflows)
            try c.encode(description, forKey: .description)
            try c.encode(defaultLookGuid, forKey: .defaultLookGuid)
            try c.encode(defaultLookName, forKey: .defaultLookName)
            try c.encode(defaultLookStrength, forKey: .defaultLookStrength)
        }
    }

    /// One file of `import --json`.
    public struct Imported: Encodable, Sendable, Equatable {
        public var file: String
        /// "added", "existing" (same cube already stored) or "failed".
        public var status: String
        public var guid: String?
        public var name: String?
        public var cubeSize: Int?
        public var warnings: [String]
        public var error: String?
        /// The look's current version (nil when the file failed).
        public var version: Int?
        /// Tags this import added to a look already in the catalog (status "existing").
        public var tagsAdded: [String] = []

        /// Describes one imported file.
        public init(file: String, status: String, guid: String?, name: String?, cubeSize: Int?,
                    warnings: [String], error: String?, version: Int? = nil) {
            self.version = version
            self.file = file
            self.status = status
            self.guid = guid
            self.name = name
            self.cubeSize = cubeSize
            self.warnings = warnings
            self.error = error
        }

        enum CodingKeys: String, CodingKey {
            case file, status, guid, name, warnings, error, version
            case cubeSize = "cube_size", tagsAdded = "tags_added"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(status, forKey: .status)
            try c.encode(guid, forKey: .guid)
            try c.encode(name, forKey: .name)
            try c.encode(cubeSize, forKey: .cubeSize)
            try c.encode(warnings, forKey: .warnings)
            try c.encode(error, forKey: .error)
            try c.encode(version, forKey: .version)
            try c.encode(tagsAdded, forKey: .tagsAdded)
        }
    }

    /// One version of `looks versions --json`.
    public struct Version: Encodable, Sendable, Equatable {
        public var guid: String
        public var version: Int
        public var cubeSize: Int
        public var contentHash: String
        public var sourceFormat: String
        public var sourceFile: String?
        public var createdAt: String
        public var current: Bool

        /// The view of one version of the look `guid`.
        public init(guid: String, _ v: LookVersion) {
            self.guid = guid
            version = v.version
            cubeSize = v.cubeSize
            contentHash = v.contentHash
            sourceFormat = v.sourceFormat
            sourceFile = v.sourceFile
            createdAt = CatalogJSON.timestamp(v.createdAt)
            current = v.isCurrent
        }

        enum CodingKeys: String, CodingKey {
            case guid, version, current
            case cubeSize = "cube_size", contentHash = "content_hash", sourceFormat = "source_format"
            case sourceFile = "source_file", createdAt = "created_at"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(guid, forKey: .guid)
            try c.encode(version, forKey: .version)
            try c.encode(cubeSize, forKey: .cubeSize)
            try c.encode(contentHash, forKey: .contentHash)
            try c.encode(sourceFormat, forKey: .sourceFormat)
            try c.encode(sourceFile, forKey: .sourceFile)
            try c.encode(createdAt, forKey: .createdAt)
            try c.encode(current, forKey: .current)
        }
    }

    /// `2026-05-01T12:00:00Z`-style UTC time.
    public static func timestamp(_ date: Date) -> String {
        var style = Date.ISO8601FormatStyle()
        style.timeZone = TimeZone(identifier: "UTC") ?? .current
        return date.formatted(style)
    }

    /// Pretty-printed JSON with sorted keys, as every `--json` prints it.
    public static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
