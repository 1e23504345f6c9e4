import Correction
import Extraction
import ImageIO
import ImageMetadata
import LookCatalog
import LookFormats
import PluginHost

/// What the user can change to get past an error when the way out is a setting of theirs. The engine's and the
/// catalog's messages say what went wrong in values; each front end words the remedy as its own setting (the
/// command line names its option, the studio and the library API theirs).
public enum Remedy: Sendable, Equatable {
    /// Raise the pixel limit: the image is over it.
    case raisePixelLimit
    /// Write the output without the input's metadata, which its format cannot carry.
    case stripMetadata
    /// Use another catalog file: this one is no catalog, or its folder cannot be written.
    case otherCatalog
    /// Create the catalog at `path`, which a read-only open did not find.
    case createCatalog(path: String)
    /// Check the damaged catalog and recover what it still holds into a new file.
    case recoverCatalog
    /// Remove the look although scenes or other looks use it.
    case forceRemoval
    /// See the catalog's looks: none answers the reference given.
    case listLooks
    /// See the scenes: none has the label given.
    case listScenes
    /// See the adjustments the plugins provide: none has the id given.
    case listAdjustments
    /// Store `file`, a grade rather than a table, as a look, and use the look.
    case importAsLook(file: String)
    /// See look `guid`'s versions: it has not the one given.
    case listVersions(guid: String)
    /// Write the recovered catalog to a file that does not exist yet.
    case newRecoveryTarget
    /// Open the catalog once for writing, so that its migrations run.
    case migrateCatalog

    /// The remedy for `error`, when one of the user's settings is the way out.
    public init?(_ error: any Error) {
        switch error {
        case ImageIOError.tooManyPixels, ImageIOError.sideOverLimit: self = .raisePixelLimit
        case ExtractionError.unreadable(_, let cause): self.init(cause)
        case is MetadataError: self = .stripMetadata
        case CatalogError.notSQLite, CatalogError.cannotWrite: self = .otherCatalog
        case CatalogError.missing(let path): self = .createCatalog(path: path)
        case CatalogError.damaged: self = .recoverCatalog
        case CatalogError.lookUsed, CatalogError.lookInUse: self = .forceRemoval
        case CatalogError.lookNotFound, CorrectionError.lookMissing: self = .listLooks
        case PluginHostError.unknownAdjustment: self = .listAdjustments
        case let error as LookFormatsError where error.storesAsLook: self = .importAsLook(file: error.file)
        case CatalogError.sceneNotFound: self = .listScenes
        case CatalogError.versionNotFound(let guid, _, _): self = .listVersions(guid: guid)
        case CatalogError.recoveryTargetExists: self = .newRecoveryTarget
        case CatalogError.needsMigration: self = .migrateCatalog
        default: return nil
        }
    }
}
