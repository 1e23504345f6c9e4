import Foundation
import GRDB
import LookCore
import LookModel

/// Looks are read with one SELECT that joins their tags.
extension LookRecord: FetchableRecord {
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
        let joined: String? = row["tags"]
        self.init(guid: row["guid"], name: row["name"], cubeSize: row["cube_size"], layout: row["layout"],
                  contentHash: row["content_hash"], sourceFormat: row["source_format"],
                  sourceFile: row["source_file"], description: row["description"], recipeYAML: row["recipe_yaml"],
                  createdAt: row["created_at"], tags: joined.map { $0.split(separator: "\u{1F}").map(String.init) } ?? [],
                  workingSpace: row["working_space"],
                  workingSpaceICC: (row["working_space_icc"] as Data?).map { [UInt8]($0) })
        version = row["version"] ?? 1
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
