import Foundation
import Pixels

/// The image file formats LookStudio reads and writes, chosen by a file's first bytes or its extension.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable, Codable {
    case png, jpeg, tiff, webp, heif, avif

    /// Extensions each format is written under.
    public var extensions: [String] {
        switch self {
        case .png: return ["png"]
        case .jpeg: return ["jpg", "jpeg"]
        case .tiff: return ["tif", "tiff"]
        case .webp: return ["webp"]
        case .heif: return ["heic", "heif"]
        case .avif: return ["avif"]
        }
    }

    /// Whether rows can be read and written in bands (libpng and libtiff), so the image is never held whole.
    public var streams: Bool { self == .png || self == .tiff || self == .jpeg }

    /// The format of an existing file from its signature, falling back to its extension when it is too short.
    public static func of(path: String) throws(ImageIOError) -> ImageFormat {
        try InputFile.requireImageFile(path)
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
            if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
            // Classic and BigTIFF, little- and big-endian.
            if [[0x49, 0x49, 0x2A, 0], [0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2B, 0], [0x4D, 0x4D, 0, 0x2B]]
                .contains(where: { head.starts(with: $0) }) { return .tiff }
            if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
                return .webp
            }
            if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8),
               let format = HEIFImage.format(brand: Array(head[8..<12])) {
                return format
            }
            if let format = fromExtension(path) { return format }
            throw .unknownImageFormat(file: path)
        }
        throw .cannotOpen(file: path, reason: FileManager.default.fileExists(atPath: path)
                          ? "permission denied" : "no such file")
    }

    /// The format to write for `path`, from its extension.
    public static func forOutput(path: String) throws(ImageIOError) -> ImageFormat {
        guard let format = fromExtension(path) else { throw .unknownImageFormat(file: path) }
        return format
    }

    /// The format an extension names, or nil (case-insensitive: .PNG, .JPG, .jpeg).
    public static func fromExtension(_ path: String) -> ImageFormat? {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        return allCases.first { $0.extensions.contains(ext) }
    }

    /// Reads a whole image of either format (upright) with its ICC profile: a JPEG's APP2 profile or a PNG's iCCP.
    public static func read(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> (pixels: PixelBuffer, iccProfile: [UInt8]?) {
        let decoded = try readWithColor(path: path, maxPixels: maxPixels)
        return (decoded.pixels, decoded.color.iccProfile?.data)
    }

    /// Reads a whole image of either format (upright) with its colour description: a PNG's colour chunks, or a
    /// JPEG's ICC profile as `iccProfile`.
    public static func readWithColor(path: String, maxPixels: Int = PNGReader.defaultMaxPixels)
        throws(ImageIOError) -> (pixels: PixelBuffer, color: PNGColorMetadata) {
        switch try of(path: path) {
        case .png: return try PNGImage.readWithColor(path: path, maxPixels: maxPixels)
        case .jpeg:
            let decoded = try JPEGImage.read(path: path, maxPixels: maxPixels)
            return (decoded.pixels, PNGColorMetadata(iccProfile: decoded.iccProfile))
        default:
            let decoded = try readImage(path: path, maxPixels: maxPixels)
            return (decoded.pixels, decoded.color.png)
        }
    }

    /// Reads a whole image (upright) with its format and colour description.
    public static func readImage(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> DecodedImage {
        try of(path: path).codec.decode(path: path, maxPixels: maxPixels)
    }

    /// Writes a whole image in the format `path`'s extension names, atomically, with `color`: all of it in a PNG,
    /// the ICC profile (an RGB one) in the other formats.
    public static func write(_ image: PixelBuffer, to path: String, color: ColorDescription,
                             options: EncoderOptions = EncoderOptions()) throws(ImageIOError) {
        let format = try forOutput(path: path)
        try format.codec.encode(image, to: path, format: format, color: color, options: options)
    }

    /// Writes a whole image in the format `path`'s extension names, atomically; a PNG gets `iccProfile` as iCCP.
    public static func write(_ image: PixelBuffer, to path: String, jpegQuality: Int = JPEGImage.defaultQuality,
                             iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        try write(image, to: path, jpegQuality: jpegQuality, color: PNGColorMetadata(iccProfile: iccProfile))
    }

    /// Writes a whole image in the format `path`'s extension names, atomically, with a colour description: all of
    /// it in a PNG; in a JPEG only the ICC profile, and only an RGB one (the JPEG is RGB), since JPEG has no place
    /// for the other chunks.
    public static func write(_ image: PixelBuffer, to path: String, jpegQuality: Int = JPEGImage.defaultQuality,
                             color: PNGColorMetadata) throws(ImageIOError) {
        switch try forOutput(path: path) {
        case .png: try PNGImage.write(image, to: path, colorMetadata: color)
        case .jpeg: try JPEGImage.write(image, to: path, quality: jpegQuality, iccProfile: color.jpegICCProfile)
        default:
            try write(image, to: path, color: ColorDescription(png: color),
                      options: EncoderOptions(quality: jpegQuality))
        }
    }
}

/// What an image file holds, read from its header alone (no pixel is decoded).
public struct ImageInfo: Sendable, Equatable {
    /// The file's format.
    public var format: ImageFormat
    /// Pixels per row, upright.
    public var width: Int
    /// Rows, upright.
    public var height: Int
    /// Channels delivered: 3 (RGB) or 4 (RGBA).
    public var channels: Int
    /// Bits per delivered sample.
    public var depth: PixelBuffer.Depth
    /// What the file says about its colours.
    public var color: ColorDescription
    /// How the file stores its pixels: a grey or palette file is still delivered as RGB.
    public var stored: StoredFormat
    /// The EXIF orientation the pixels are turned upright by (1: stored upright; `JPEGOrientation`).
    public var orientation = 1

    /// What a file holds; `stored` defaults to the delivered shape, for formats that store pixels as delivered.
    init(format: ImageFormat, width: Int, height: Int, channels: Int, depth: PixelBuffer.Depth,
         color: ColorDescription, stored: StoredFormat? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.channels = channels
        self.depth = depth
        self.color = color
        self.stored = stored ?? StoredFormat(channels: channels, depth: depth)
    }
}

extension ImageFormat {
    /// Reads what `path` holds without grading it.
    public static func info(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> ImageInfo {
        try of(path: path).codec.header(path: path, maxPixels: maxPixels)
    }
}
