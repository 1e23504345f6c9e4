import Foundation

/// One version of a look, as `looks versions` lists it.
public struct LookVersion: Sendable, Equatable {
    /// 1, 2, …
    public var version: Int
    /// Entries per cube axis.
    public var cubeSize: Int
    /// Content hash of this version's cube.
    public var contentHash: String
    /// What this version was made from: png, cube, 3dl, recipe or shipped.
    public var sourceFormat: String
    /// The file this version came from, if any.
    public var sourceFile: String?
    /// When this version was stored.
    public var createdAt: Date
    /// True for the look's current version.
    public var isCurrent: Bool

    /// Describes one stored version.
    public init(version: Int, cubeSize: Int, contentHash: String, sourceFormat: String, sourceFile: String?,
                createdAt: Date, isCurrent: Bool) {
        self.version = version
        self.cubeSize = cubeSize
        self.contentHash = contentHash
        self.sourceFormat = sourceFormat
        self.sourceFile = sourceFile
        self.createdAt = createdAt
        self.isCurrent = isCurrent
    }
}
