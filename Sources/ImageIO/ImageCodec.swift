// ImageIO is Pixels plus the other codecs: its clients see PixelBuffer, the PNG codec and ImageIOError through it.
@_exported import Pixels

/// One image file format's whole-file decoding, header reading and encoding: every codec file conforms, and
/// `ImageFormat.codec` is the one table from format to codec, so a new format is a new file plus a line there.
public protocol ImageCodec {
    /// Decodes a whole image, upright, with its colour description.
    static func decode(path: String, maxPixels: Int) throws(ImageIOError) -> DecodedImage
    /// Reads size, depth and colour description from the header alone.
    static func header(path: String, maxPixels: Int) throws(ImageIOError) -> ImageInfo
    /// Writes `image` atomically as `format` (a codec may write several formats, as libheif does HEIF and AVIF).
    static func encode(_ image: PixelBuffer, to path: String, format: ImageFormat, color: ColorDescription,
                       options: EncoderOptions) throws(ImageIOError)
    /// A row-streaming reader, or nil when the format (or this file) decodes whole.
    static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)?
}

extension ImageCodec {
    /// Formats that decode whole have no band reader.
    public static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)? {
        nil
    }
}

extension ImageFormat {
    /// The codec that reads and writes this format.
    public var codec: any ImageCodec.Type {
        switch self {
        case .png: return PNGImage.self
        case .jpeg: return JPEGImage.self
        case .tiff: return TIFFImage.self
        case .webp: return WebPImage.self
        case .heif, .avif: return HEIFImage.self
        }
    }
}
