import LookCatalog

/// What kind of failure an error is, for front ends that answer with a code (the studio's HTTP status, a C API's
/// error value): the thing asked for is missing, collides with what the catalog holds, could not be done now, or
/// cannot be done until someone repairs the catalog — else the request itself was wrong.
public enum FailureKind: Sendable, Equatable {
    /// A photo, look or scene that does not exist.
    case notFound
    /// The catalog holds something the write would collide with (a name, the same cube).
    case conflict
    /// SQLite could not do it now (locked past the busy timeout, a full disk): it may be retried.
    case unavailable
    /// The catalog cannot be written or read until it is repaired.
    case broken
    /// The request was wrong.
    case badRequest

    /// The kind of `error`.
    public init(_ error: any Error) {
        switch error {
        case WorkflowError.noSuchPhoto, CatalogError.lookNotFound, CatalogError.lookNotFoundNear,
             CatalogError.sceneNotFound, CatalogError.versionNotFound: self = .notFound
        case CatalogError.duplicateName, CatalogError.contentTaken, is StudioSameCube: self = .conflict
        case CatalogError.database: self = .unavailable
        // A file that is no catalog, or one a newer LookStudio wrote, cannot be opened at all until then.
        case CatalogError.readOnly, CatalogError.damaged, CatalogError.unreadableLog, CatalogError.notSQLite,
             CatalogError.notACatalog, CatalogError.newerSchema, CatalogError.needsMigration: self = .broken
        default: self = .badRequest
        }
    }
}
