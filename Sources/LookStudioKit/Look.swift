import LookModel

/// A look in the catalog, as listed.
public struct Look: Sendable, Equatable {
    /// The look's GUID, stable for its life.
    public var guid: String
    /// Its unique name.
    public var name: String
    /// What it does, in the author's words.
    public var description: String
    /// Its tags.
    public var tags: [String]
    /// Entries per axis of its cube.
    public var cubeSize: Int
    /// Its version number (a look's edits are kept as versions).
    public var version: Int
    /// The space it was authored in ("srgb", "display-p3", …, or an ICC profile's description).
    public var workingSpace: String
}

extension Look {
    init(_ record: LookRecord) {
        self.init(guid: record.guid, name: record.name, description: record.description, tags: record.tags,
                  cubeSize: record.cubeSize, version: record.version, workingSpace: record.workingSpace)
    }
}
