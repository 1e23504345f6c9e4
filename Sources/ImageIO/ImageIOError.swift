/// Errors from decoding and encoding images.
public enum ImageIOError: Error, Equatable, CustomStringConvertible {
    case unsupportedChannels(Int)
    case sampleCountMismatch(width: Int, height: Int, channels: Int, found: Int)

    public var description: String {
        switch self {
        case .unsupportedChannels(let c):
            return "images must have 3 (RGB) or 4 (RGBA) channels in memory, not \(c)"
        case .sampleCountMismatch(let w, let h, let c, let found):
            return "a \(w)×\(h) image with \(c) channels needs \(w * h * c) samples, found \(found)"
        }
    }
}
