import Foundation
import LookCore
import GRDB

/// A look's catalog entry without its cube: what `looks list` and `looks show` print.
public struct LookRecord: Sendable, Equatable, Codable, FetchableRecord {
    /// Uppercase UUID, fixed for shipped looks.
    public var guid: String
    /// Unique name (ignoring case).
    public var name: String
    /// Entries per cube axis.
    public var cubeSize: Int
    /// PNG layout of the stored blob (tiled for square sizes, strip otherwise).
    public var layout: String
    /// Lowercase hex SHA-256 of the decoded cube's Float values, little-endian.
    public var contentHash: String
    /// What the look was imported from: png, cube, 3dl, recipe or shipped.
    public var sourceFormat: String
    /// The original file name, when the look came from a file.
    public var sourceFile: String?
    /// Free text.
    public var description: String
    /// For baked looks, the recipe YAML that rebuilds it.
    public var recipeYAML: String?
    /// When the look entered this catalog.
    public var createdAt: Date
    /// Tags, sorted.
    public var tags: [String]
    /// The colour space the look was authored in: a named space (srgb, display-p3, adobe-rgb, rec2020) or the
    /// description of the ICC profile in `workingSpaceICC`.
    public var workingSpace: String = "srgb"
    /// The working space's ICC profile, when it came from a file rather than a named space.
    public var workingSpaceICC: [UInt8]?
    /// Version number, from 1; `looks update` and `compose --save --replace` add versions under the same GUID.
    public var version: Int = 1
    /// True for the look's current version; false for an older one selected with `GUID@N` or `NAME@N`.
    public var isCurrentVersion: Bool = true

    /// The SELECT list that fills a record; tags are joined with the unit separator, which no tag can contain.
    static let selectSQL = """
        SELECT guid, name, cube_size, layout, content_hash, source_format, source_file, description, recipe_yaml,
               created_at, working_space, working_space_icc, version,
               (SELECT group_concat(tag, char(31)) FROM
                   (SELECT tag FROM look_tags WHERE look_guid = looks.guid ORDER BY tag)) AS tags
        FROM looks
        """

    /// Reads a row of `selectSQL`.
    public init(row: Row) throws {
        guid = row["guid"]
        name = row["name"]
        cubeSize = row["cube_size"]
        layout = row["layout"]
        contentHash = row["content_hash"]
        sourceFormat = row["source_format"]
        sourceFile = row["source_file"]
        description = row["description"]
        recipeYAML = row["recipe_yaml"]
        createdAt = row["created_at"]
        workingSpace = row["working_space"]
        workingSpaceICC = (row["working_space_icc"] as Data?).map { [UInt8]($0) }
        version = row["version"] ?? 1
        let joined: String? = row["tags"]
        tags = joined.map { $0.split(separator: "\u{1F}").map(String.init) } ?? []
    }

    /// Builds a record by hand (used when inserting).
    public init(guid: String, name: String, cubeSize: Int, layout: String, contentHash: String,
                sourceFormat: String, sourceFile: String?, description: String, recipeYAML: String?,
                createdAt: Date, tags: [String], workingSpace: String = "srgb", workingSpaceICC: [UInt8]? = nil) {
        self.workingSpace = workingSpace
        self.workingSpaceICC = workingSpaceICC
        self.guid = guid
        self.name = name
        self.cubeSize = cubeSize
        self.layout = layout
        self.contentHash = contentHash
        self.sourceFormat = sourceFormat
        self.sourceFile = sourceFile
        self.description = description
        self.recipeYAML = recipeYAML
        self.createdAt = createdAt
        self.tags = tags
    }
}

/// What a caller hands the catalog to store a look.
public struct NewLook: Sendable, Equatable {
    /// Cube to store (quantised to 16 bits and clamped to 0…1 on the way in).
    public var cube: ColorCube
    /// Unique name.
    public var name: String
    /// Tags (duplicates ignoring case are dropped).
    public var tags: [String]
    /// png, cube, 3dl, recipe or shipped.
    public var sourceFormat: String
    /// Original file name, if any.
    public var sourceFile: String?
    /// Free text.
    public var description: String
    /// For baked looks, the recipe YAML.
    public var recipeYAML: String?
    /// A fixed GUID (shipped looks); nil gives a new random one.
    public var guid: String?
    /// The colour space the look was authored in (see `LookRecord.workingSpace`).
    public var workingSpace: String = "srgb"
    /// The working space's ICC profile, for a space from a file.
    public var workingSpaceICC: [UInt8]?

    /// Describes a look to store.
    public init(cube: ColorCube, name: String, tags: [String] = [], sourceFormat: String, sourceFile: String? = nil,
                description: String = "", recipeYAML: String? = nil, guid: String? = nil) {
        self.cube = cube
        self.name = name
        self.tags = tags
        self.sourceFormat = sourceFormat
        self.sourceFile = sourceFile
        self.description = description
        self.recipeYAML = recipeYAML
        self.guid = guid
    }
}

/// What storing a look did.
public enum AddLookOutcome: Sendable, Equatable {
    /// A new look was stored.
    case added(LookRecord)
    /// A look with the same cube content was already in the catalog; nothing was written.
    case existing(LookRecord)

    /// The stored or existing look.
    public var record: LookRecord {
        switch self {
        case .added(let r), .existing(let r): return r
        }
    }
}
