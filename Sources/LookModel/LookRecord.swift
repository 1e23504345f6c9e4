import Foundation

/// A look's catalog entry without its cube: what `looks list` and `looks show` print.
public struct LookRecord: Sendable, Equatable, Codable {
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

/// What ``Catalog/saveVersion(guid:_:)`` did.
public struct VersionOutcome: Sendable, Equatable {
    /// The look as it was.
    public var before: LookRecord
    /// The look now: same GUID, name, tags and description; the new cube as version `before.version + 1`.
    public var after: LookRecord
    /// False when the new cube is the current one already: nothing was written and no version added.
    public var changed: Bool { before.version != after.version }

    /// What a version save did.
    public init(before: LookRecord, after: LookRecord) {
        self.before = before
        self.after = after
    }
}

/// What removing a look broke, when forced.
public struct LookRemoval: Sendable, Equatable {
    /// Labels of the scenes whose default look was cleared.
    public var clearedScenes: [Int]
    /// "GUID (NAME)" of the looks whose recipe names the removed look: their cubes stay, `looks rebuild` fails.
    public var brokenRecipes: [String]

    /// What a removal cleared and broke.
    public init(clearedScenes: [Int], brokenRecipes: [String]) {
        self.clearedScenes = clearedScenes
        self.brokenRecipes = brokenRecipes
    }
}
