import Extraction
import ImageIO
import ImageMetadata
import LookCatalog

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
        default: return nil
        }
    }
}
