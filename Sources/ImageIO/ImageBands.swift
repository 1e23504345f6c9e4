import Pixels

/// A decoder that hands out an image's rows top to bottom, band by band, so memory stays bounded by the band.
///
/// PNG, TIFF and JPEG conform; any format with a row or strip API can (the image pipeline streams through this shape).
public protocol ImageBandReader: AnyObject {
    /// Pixels per row.
    var width: Int { get }
    /// Number of rows.
    var height: Int { get }
    /// 3 (RGB) or 4 (RGBA).
    var channels: Int { get }
    /// Bits per sample of the rows handed out.
    var depth: PixelBuffer.Depth { get }
    /// The image's colour description, as data (the pipeline decides what to do with it).
    var color: ColorDescription { get }
    /// Reads the next `count` rows of an 8-bit image into `buffer`.
    func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImageIOError)
    /// Reads the next `count` rows of a 16-bit image (native byte order) into `buffer`.
    func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt16>) throws(ImageIOError)
}

/// An encoder that takes an image's rows top to bottom and commits the file on `finish`.
public protocol ImageBandWriter: AnyObject {
    /// Appends whole rows of 8-bit samples.
    func writeRows(_ rows: UnsafeBufferPointer<UInt8>) throws(ImageIOError)
    /// Appends whole rows of 16-bit samples (native byte order).
    func writeRows(_ rows: UnsafeBufferPointer<UInt16>) throws(ImageIOError)
    /// Completes the image; the output appears only now.
    func finish() throws(ImageIOError)
}

extension PNGReader: ImageBandReader {
    /// Pixels per row.
    public var width: Int { info.width }
    /// Number of rows.
    public var height: Int { info.height }
    /// 3 (RGB) or 4 (RGBA).
    public var channels: Int { info.channels }
    /// Bits per sample.
    public var depth: PixelBuffer.Depth { info.depth }
    /// The iCCP, sRGB, gAMA and cHRM chunks as a colour description.
    public var color: ColorDescription { ColorDescription(png: colorMetadata) }
}

extension PNGWriter: ImageBandWriter {}

extension JPEGReader: ImageBandReader {
    /// Always 3: JPEGs are decoded to RGB.
    public var channels: Int { 3 }
    /// Always 8-bit.
    public var depth: PixelBuffer.Depth { .eight }
    /// The ICC profile of the APP2 segments, or untagged.
    public var color: ColorDescription { ColorDescription(iccBytes: markers.iccProfile) }

    /// JPEG rows are 8-bit: asking for 16 is a depth mismatch.
    public func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt16>) throws(ImageIOError) {
        throw .depthMismatch(file: name, image: .eight, buffer: .sixteen)
    }
}

extension JPEGWriter: ImageBandWriter {}

extension TIFFReader: ImageBandReader {}

extension TIFFWriter: ImageBandWriter {}
