import LookCatalog

/// What `catalog verify` found.
public struct CatalogCheck: Sendable, Equatable {
    /// The catalog file.
    public var path: String
    /// Looks (versions included) checked.
    public var lookCount: Int
    /// One line per problem: "GUID: what is wrong", or "catalog: …" for the file itself.
    public var problems: [String]
}

/// What `catalog recover` saved.
public struct CatalogRecovery: Sendable, Equatable {
    /// The new catalog file.
    public var path: String
    /// Looks and scenes copied.
    public var looks: Int
    public var scenes: Int
    /// What could not be read, one line each.
    public var skipped: [String]
    /// Shipped looks and scenes that were lost and added again from the seed.
    public var reseeded: Int
}

extension Workspace {
    /// Checks SQLite's integrity and that every look blob decodes and matches its hash.
    public func verifyCatalog() throws -> CatalogCheck {
        let catalog = try openCatalog()
        let result = try catalog.verify()
        return CatalogCheck(path: catalog.path, lookCount: result.lookCount, problems: result.problems.map(\.description))
    }

    /// Copies every readable look and scene of this (damaged) catalog into a new catalog file at `target`.
    public func recoverCatalog(to target: String) throws -> CatalogRecovery {
        let report = try Catalog.recover(from: catalogPath, to: target)
        return CatalogRecovery(path: report.path, looks: report.looks, scenes: report.scenes, skipped: report.skipped,
                               reseeded: report.openReport.seededLooks.count + report.openReport.seededScenes.count)
    }
}
