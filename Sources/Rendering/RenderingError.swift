/// Errors from rendering images and galleries: unreadable inputs, unusable colour descriptions, gallery folders.
public enum RenderingError: Error, Equatable, CustomStringConvertible {
    /// A file rendering needed could not be read.
    case unreadable(path: String, reason: String)
    /// An image's colour description cannot be used (a profile LittleCMS rejects).
    case colorProfile(file: String, message: String)
    /// A gallery could not be built (no photos, an unwritable folder, a look whose cube cannot be loaded).
    case gallery(String)
    /// An output in memory that cannot receive the input's pixels (another shape, overlapping memory).
    case outputMismatch(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .colorProfile(let file, let message):
            return "\(file): \(message)"
        case .gallery(let message):
            return "gallery: \(message)"
        case .outputMismatch(let message):
            return message
        }
    }
}
