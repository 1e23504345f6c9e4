/// Errors from building, reading and using colour profiles.
public enum ColorManagementError: Error, Equatable, CustomStringConvertible {
    /// LittleCMS refused the bytes as an ICC profile, or the profile cannot take part in an RGB transform.
    case rejectedProfile(source: String, reason: String)
    /// A named space that LookStudio does not know.
    case unknownSpace(String)
    /// LittleCMS could not build a transform between two profiles.
    case cannotTransform(from: String, to: String)
    /// A grid size outside 2…256.
    case invalidGridSize(Int)
    /// An ICC file named on the command line cannot be read.
    case unreadableProfile(path: String)
    /// An image's (or a named file's) profile cannot be used; `message` says why.
    case unusableProfile(file: String, message: String)

    public var description: String {
        switch self {
        case .rejectedProfile(let source, let reason):
            return "\(source): not a usable ICC profile (\(reason))"
        case .unknownSpace(let name):
            return "unknown colour space \"\(name)\" (use srgb, display-p3, adobe-rgb, rec2020 or an .icc file)"
        case .cannotTransform(let from, let to):
            return "LittleCMS cannot convert from \"\(from)\" to \"\(to)\""
        case .invalidGridSize(let n):
            return "grid size \(n) is outside 2…256"
        case .unreadableProfile(let path):
            return "cannot read \(path): no such file or not readable"
        case .unusableProfile(let file, let message):
            return "\(file): \(message)"
        }
    }
}
