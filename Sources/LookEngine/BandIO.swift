import ImageIO

/// The decoders that deliver rows in bands (libpng, libtiff), behind one switch per band, never per pixel.
enum BandReader {
    case png(PNGReader)
    case tiff(TIFFReader)

    /// Opens `path` if its format streams; nil for formats decoded whole.
    static func open(path: String, maxPixels: Int) throws(ImageIOError) -> BandReader? {
        switch try ImageFormat.of(path: path) {
        case .png: return .png(try PNGReader(path: path, maxPixels: maxPixels))
        case .tiff: return .tiff(try TIFFReader(path: path, maxPixels: maxPixels))
        default: return nil
        }
    }

    var width: Int {
        switch self {
        case .png(let r): return r.info.width
        case .tiff(let r): return r.width
        }
    }

    var height: Int {
        switch self {
        case .png(let r): return r.info.height
        case .tiff(let r): return r.height
        }
    }

    var channels: Int {
        switch self {
        case .png(let r): return r.info.channels
        case .tiff(let r): return r.channels
        }
    }

    var depth: PixelBuffer.Depth {
        switch self {
        case .png(let r): return r.info.depth
        case .tiff(let r): return r.depth
        }
    }

    var color: ColorDescription {
        switch self {
        case .png(let r): return ColorDescription(png: r.colorMetadata)
        case .tiff(let r): return r.color
        }
    }

    /// The TIFF compression to write back by default: the input's own when it is a TIFF LookStudio can write.
    var tiffCompression: TIFFCompression? {
        if case .tiff(let r) = self { return r.compression }
        return nil
    }
}

/// The encoders that take rows in bands.
enum BandWriter {
    case png(PNGWriter)
    case tiff(TIFFWriter)

    func finish() throws {
        switch self {
        case .png(let w): try w.finish()
        case .tiff(let w): try w.finish()
        }
    }
}
