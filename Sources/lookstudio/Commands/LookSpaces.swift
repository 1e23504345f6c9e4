import ColorManagement
import LookCatalog

/// A catalog look's working space as a profile.
enum LookSpaces {
    /// sRGB until looks carry a working space.
    static func profile(of record: LookRecord) throws -> ColorProfile { ColorProfile(.sRGB) }
}
