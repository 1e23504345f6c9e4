/// A lossy codec other than JPEG that an image file is stored with (JPEG's loss is `JPEGCompression`'s). All three
/// usually keep chroma at half resolution (4:2:0): lossy WebP always (VP8 has no other), HEIC and AVIF as phones
/// and editors export them.
public enum LossyCodec: String, Sendable, Equatable {
    case webp = "a lossy WebP"
    case heif = "a HEIC image"
    case avif = "an AVIF image"

    /// The codec of the file at `path`: a WebP whose bitstream is lossy (VP8), any HEIF or AVIF (lossless ones are
    /// rare); nil for other files and for those that cannot be read.
    public static func of(path: String) -> LossyCodec? {
        switch try? ImageFormat.of(path: path) {
        case .webp: return WebPImage.compression(path: path) == .lossy ? .webp : nil
        case .heif: return .heif
        case .avif: return .avif
        default: return nil
        }
    }
}
