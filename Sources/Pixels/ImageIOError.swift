/// Errors from decoding and encoding images.
public enum ImageIOError: Error, Equatable, CustomStringConvertible {
    case unsupportedChannels(Int)
    case sampleCountMismatch(width: Int, height: Int, channels: Int, found: Int)
    /// The file could not be opened or created.
    case cannotOpen(file: String, reason: String)
    /// The bytes do not start with the PNG signature.
    case notPNG(file: String)
    /// libpng stopped part-way: the data is cut short or damaged.
    case corruptPNG(file: String, detail: String)
    /// The header announces more pixels than the caller allows; nothing was allocated.
    case tooManyPixels(file: String, width: Int, height: Int, limit: Int)
    /// Decoding would allocate more than `DecodeBudget` allows (`what`: a row, a strip, the whole image); nothing
    /// was allocated.
    case tooManyBytes(file: String, what: String, bytes: Int, limit: Int)
    /// An allocation failed while decoding or encoding.
    case outOfMemory(file: String, detail: String)
    /// Writing, flushing or renaming the output failed.
    case cannotWrite(file: String, reason: String)
    /// Replacing `file` would keep its original as `backup`, which is already there (an earlier replacement's
    /// backup, which may be the real original); nothing was written.
    case backupExists(file: String, backup: String)
    /// Rows were requested in a buffer of the wrong sample width for the image.
    case depthMismatch(file: String, image: PixelBuffer.Depth, buffer: PixelBuffer.Depth)
    /// A row request or row write does not fit the image or the buffer given.
    case invalidRows(file: String, detail: String)
    /// Encoder settings out of range.
    case invalidOptions(String)
    /// The bytes do not start with a JPEG start-of-image marker.
    case notJPEG(file: String)
    /// libjpeg-turbo could not decode or encode the image (cut short, damaged, or an unsupported kind such as CMYK).
    case corruptJPEG(file: String, detail: String)
    /// Neither the extension nor the first bytes name an image format LookStudio reads or writes.
    case unknownImageFormat(file: String)
    /// A TIFF, WebP, HEIF or AVIF file its library could not decode (cut short, damaged), or could not encode.
    case corruptImage(file: String, format: String, detail: String)
    /// A valid file of a kind LookStudio does not handle (CMYK TIFF, 32-bit float samples, no encoder).
    case unsupportedImage(file: String, detail: String)
    /// The decoder refused a side longer than `maxSide`, the longest the caller's pixel limit allows, while reading.
    case sideOverLimit(file: String, detail: String, maxSide: Int)

    /// The file or name the error is about, when there is one.
    public var file: String? {
        switch self {
        case .unsupportedChannels, .sampleCountMismatch, .invalidOptions: return nil
        case .cannotOpen(let file, _), .notPNG(let file), .corruptPNG(let file, _),
             .tooManyPixels(let file, _, _, _), .tooManyBytes(let file, _, _, _), .outOfMemory(let file, _), .cannotWrite(let file, _),
             .backupExists(let file, _),
             .depthMismatch(let file, _, _), .invalidRows(let file, _), .notJPEG(let file),
             .corruptJPEG(let file, _), .unknownImageFormat(let file), .corruptImage(let file, _, _),
             .unsupportedImage(let file, _), .sideOverLimit(let file, _, _):
            return file
        }
    }

    /// What went wrong, without the file name (for callers that put the name in their own error).
    public var reason: String {
        switch self {
        case .unsupportedChannels(let c):
            return "images must have 3 (RGB) or 4 (RGBA) channels in memory, not \(c)"
        case .sampleCountMismatch(let w, let h, let c, let found):
            return "a \(w)×\(h) image with \(c) channels needs \(w * h * c) samples, found \(found)"
        case .cannotOpen(_, let reason):
            return "cannot open (\(reason))"
        case .notPNG:
            return "not a PNG file"
        case .corruptPNG(_, let detail):
            return "truncated or corrupt PNG (libpng: \(detail))"
        case .tooManyPixels(_, let w, let h, let limit):
            return "\(w)×\(h) = \(DecodeBudget.grouped(w * h)) pixels is over the limit of "
                + "\(DecodeBudget.grouped(limit)) pixels"
        case .tooManyBytes(_, let what, let bytes, let limit):
            let size = bytes == Int.max ? "more than the address space" : "\(DecodeBudget.grouped(bytes)) bytes"
            return "\(what) would take \(size), over the decode budget of \(DecodeBudget.grouped(limit)) bytes; "
                + "the header is damaged or hostile, or the image is too large to decode here"
        case .outOfMemory(_, let detail):
            return "out of memory (\(detail))"
        case .cannotWrite(_, let reason):
            return "cannot write (\(reason))"
        case .backupExists(_, let backup):
            return "cannot replace it: its backup \(backup) exists from an earlier replacement; move the backup "
                + "away first, or replace the file without keeping a backup"
        case .depthMismatch(_, let image, let buffer):
            return "the image has \(image.rawValue)-bit samples but rows were requested as \(buffer.rawValue)-bit"
        case .invalidRows(_, let detail):
            return detail
        case .invalidOptions(let detail):
            return "invalid PNG write options: \(detail)"
        case .notJPEG:
            return "not a JPEG file"
        case .corruptJPEG(_, let detail):
            return "cannot decode or encode JPEG (libjpeg-turbo: \(detail))"
        case .unknownImageFormat:
            return "not a PNG, JPEG, TIFF, WebP, HEIF or AVIF image (use .png, .jpg, .tif, .webp, .heic or .avif)"
        case .corruptImage(_, let format, let detail):
            return "truncated or corrupt \(format) (\(detail))"
        case .unsupportedImage(_, let detail):
            return detail
        case .sideOverLimit(_, let detail, let maxSide):
            return "\(detail) (the side limit is the pixel limit, at most \(maxSide))"
        }
    }

    public var description: String { file.map { "\($0): \(reason)" } ?? reason }
}
