import Foundation
import Pixels

/// A decoded JPEG: upright 8-bit RGB pixels and the metadata worth carrying to the output.
public struct JPEGDecoded: Sendable, Equatable {
    /// Upright RGB pixels (the EXIF orientation has been applied).
    public var pixels: PixelBuffer
    /// The orientation the file was stored in (already applied to `pixels`).
    public var storedOrientation: Int
    /// The embedded ICC profile, to copy to the output.
    public var iccProfile: [UInt8]?
    /// The whole image's upright size: `pixels`' own unless the file was read at a reduced size.
    public var sourceWidth: Int, sourceHeight: Int
}

/// Whole-image JPEG reading and writing, over the band reader and writer (libjpeg-turbo's scanline API).
///
/// Output is written without an EXIF orientation (pixels are already upright), with the input's ICC profile when
/// one is given. For images too large to hold, stream with `JPEGReader` and `JPEGWriter` instead.
public enum JPEGImage {
    /// Default encoder quality (ImageMagick's is 92 too).
    public static let defaultQuality = 92

    /// Reads a JPEG file, upright.
    public static func read(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> JPEGDecoded {
        try decodeWhole(JPEGReader(path: path, maxPixels: maxPixels))
    }

    /// Reads a JPEG file at a reduced size for a preview of at most `previewLongSide` (`ImagePreview`): DCT scaling
    /// (1/2, 1/4, 1/8, `JPEGReader.previewDenominator`), which costs far less than decoding whole and shrinking.
    public static func read(path: String, previewLongSide: Int, maxPixels: Int = PNGReader.defaultMaxPixels)
        throws(ImageIOError) -> JPEGDecoded {
        let probe = try JPEGReader(path: path, maxPixels: maxPixels)
        let denominator = JPEGReader.previewDenominator(width: probe.width, height: probe.height,
                                                        maxLongSide: previewLongSide)
        if denominator == 1 { return try decodeWhole(probe) }
        return try decodeReduced(JPEGReader(path: path, maxPixels: maxPixels, scaleDenominator: denominator),
                                 wholeOf: probe)
    }

    /// Decodes JPEG bytes; `name` labels errors.
    public static func decode(_ data: [UInt8], name: String, maxPixels: Int = PNGReader.defaultMaxPixels,
                              minLongSide: Int? = nil) throws(ImageIOError) -> JPEGDecoded {
        guard let minLongSide else { return try decodeWhole(JPEGReader(data: data, name: name, maxPixels: maxPixels)) }
        let probe = try JPEGReader(data: data, name: name, maxPixels: maxPixels)
        let denominator = JPEGReader.scaleDenominator(width: probe.width, height: probe.height,
                                                      minLongSide: minLongSide)
        if denominator == 1 { return try decodeWhole(probe) }
        return try decodeReduced(
            JPEGReader(data: data, name: name, maxPixels: maxPixels, scaleDenominator: denominator), wholeOf: probe)
    }

    /// Decodes with `reader`, a reduced-size reader of the image `probe` read whole, keeping the whole image's
    /// upright size (boxes found on the reduced pixels, faces, are given in the whole image's).
    private static func decodeReduced(_ reader: JPEGReader, wholeOf probe: JPEGReader) throws(ImageIOError)
        -> JPEGDecoded {
        var reduced = try decodeWhole(reader)
        (reduced.sourceWidth, reduced.sourceHeight) = JPEGOrientation.uprightSize(
            width: probe.width, height: probe.height, orientation: probe.markers.orientation)
        return reduced
    }

    /// Decodes every row into the pixel array, then turns it upright.
    private static func decodeWhole(_ reader: JPEGReader) throws(ImageIOError) -> JPEGDecoded {
        let (w, h) = (reader.width, reader.height)
        let count = w * h * 3
        var failure: ImageIOError?
        var pixels = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
            do throws(ImageIOError) {
                try reader.readRows(h, into: dst)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        let orientation = reader.markers.orientation
        let upright = JPEGOrientation.uprightSize(width: w, height: h, orientation: orientation)
        JPEGOrientation.makeUpright(&pixels, width: w, height: h, channels: 3, orientation: orientation)
        return JPEGDecoded(pixels: try PixelBuffer(width: upright.width, height: upright.height, channels: 3,
                                                   samples: .eight(pixels)),
                           storedOrientation: orientation, iccProfile: reader.markers.iccProfile,
                           sourceWidth: upright.width, sourceHeight: upright.height)
    }

    /// Writes `image` as a JPEG at `path` atomically; 16-bit samples are rounded to 8 bits and alpha is dropped.
    public static func write(_ image: PixelBuffer, to path: String, quality: Int = defaultQuality,
                             subsampling: JPEGSubsampling? = nil, iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        let writer = try JPEGWriter(path: path, width: image.width, height: image.height, channels: image.channels,
                                    quality: quality, subsampling: subsampling, iccProfile: iccProfile)
        try writeAll(image, to: writer)
        try writer.finish()
    }

    /// Encodes `image` as JPEG bytes: 4:4:4 chroma at quality ≥ 90, 4:2:0 below (ImageMagick's rule).
    public static func encode(_ image: PixelBuffer, quality: Int = defaultQuality, iccProfile: [UInt8]? = nil,
                              name: String = "<memory>") throws(ImageIOError) -> [UInt8] {
        let writer = try JPEGWriter(memoryWidth: image.width, height: image.height, channels: image.channels,
                                    quality: quality, iccProfile: iccProfile, name: name)
        try writeAll(image, to: writer)
        return try writer.finishData()
    }

    private static func writeAll(_ image: PixelBuffer, to writer: JPEGWriter) throws(ImageIOError) {
        switch image.samples {
        case .eight(let s): try s.withUnsafeBufferPointer { (p) throws(ImageIOError) in try writer.writeRows(p) }
        case .sixteen(let s): try s.withUnsafeBufferPointer { (p) throws(ImageIOError) in try writer.writeRows(p) }
        }
    }
}

extension JPEGImage: ImageCodec {
    public static func decode(path: String, maxPixels: Int) throws(ImageIOError) -> DecodedImage {
        let decoded = try read(path: path, maxPixels: maxPixels)
        return DecodedImage(pixels: decoded.pixels, color: ColorDescription(iccBytes: decoded.iccProfile),
                            format: .jpeg)
    }

    /// The header and markers only: a JPEG's size needs no decode.
    public static func header(path: String, maxPixels: Int) throws(ImageIOError) -> ImageInfo {
        let r = try JPEGReader(path: path, maxPixels: maxPixels)
        let upright = JPEGOrientation.uprightSize(width: r.width, height: r.height, orientation: r.markers.orientation)
        var info = ImageInfo(format: .jpeg, width: upright.width, height: upright.height, channels: r.channels,
                             depth: r.depth, color: r.color, stored: r.stored)
        info.orientation = r.markers.orientation
        return info
    }

    public static func encode(_ image: PixelBuffer, to path: String, format: ImageFormat, color: ColorDescription,
                              options: EncoderOptions) throws(ImageIOError) {
        try write(image, to: path, quality: options.effectiveQuality, subsampling: options.subsampling,
                  iccProfile: color.embeddableICC)
    }

    /// Streams only a JPEG that needs no rotation; a rotated one is decoded whole and turned upright.
    public static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)? {
        let jpeg = try JPEGReader(path: path, maxPixels: maxPixels)
        return jpeg.markers.orientation == 1 ? jpeg : nil
    }
}
