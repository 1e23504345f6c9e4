import CTIFF
import Foundation
import Pixels

/// TIFF compression schemes LookStudio writes (it reads whatever libtiff decodes).
public enum TIFFCompression: String, Sendable, Equatable, CaseIterable, Codable {
    case none, lzw, deflate, packbits

    var code: UInt16 {
        switch self {
        case .none: return UInt16(COMPRESSION_NONE)
        case .lzw: return UInt16(COMPRESSION_LZW)
        case .deflate: return UInt16(COMPRESSION_ADOBE_DEFLATE)
        case .packbits: return UInt16(COMPRESSION_PACKBITS)
        }
    }

    /// The scheme a stored code means, or nil for one LookStudio does not write (JPEG-in-TIFF, CCITT, …).
    init?(code: UInt16) {
        switch Int32(code) {
        case COMPRESSION_NONE: self = .none
        case COMPRESSION_LZW: self = .lzw
        case COMPRESSION_ADOBE_DEFLATE, COMPRESSION_DEFLATE: self = .deflate
        case COMPRESSION_PACKBITS: self = .packbits
        default: return nil
        }
    }
}

/// Reads a TIFF's rows top to bottom in bands, strips or tiles alike, so a large image is never held whole.
///
/// 8- and 16-bit unsigned RGB and RGBA, chunky (interleaved) samples; 16-bit rows come back in native byte order.
/// A tiled file holds one row of tiles in memory. Not thread-safe: one reader belongs to one task.
public final class TIFFReader {
    /// Pixels per row.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// Bits per sample.
    public let depth: PixelBuffer.Depth
    /// The stored compression, when it is one LookStudio can write back.
    public let compression: TIFFCompression?
    /// The ICC profile tag.
    public let iccProfile: [UInt8]?
    /// Whether the file is tiled rather than stripped.
    public let tiled: Bool
    /// The file path used in errors.
    public let name: String
    /// Rows delivered so far.
    public private(set) var rowsRead = 0

    private let tif: OpaquePointer
    private let errors: UnsafeMutablePointer<lstiff_errors>
    private let rowBytes: Int
    private let tileWidth: Int, tileHeight: Int
    /// One row of tiles, `tileHeight` image rows; `bandStart` is the image row it begins at.
    private var band: UnsafeMutableRawBufferPointer?
    private var tile: UnsafeMutableRawBufferPointer?
    private var bandStart = -1

    /// Opens a TIFF and reads its first directory, refusing images over `maxPixels` before allocating for them.
    public init(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) {
        try InputFile.requireImageFile(path)
        let errors = UnsafeMutablePointer<lstiff_errors>.allocate(capacity: 1)
        errors.initialize(to: lstiff_errors())
        guard let tif = lstiff_open(path, "r", errors) else {
            let message = TIFFReader.message(errors)
            errors.deallocate()
            if !FileManager.default.isReadableFile(atPath: path) {
                throw .cannotOpen(file: path, reason: "no such file or permission denied")
            }
            throw .corruptImage(file: path, format: "TIFF", detail: message)
        }
        let layout: TIFFLayout
        do {
            layout = try TIFFLayout(tif, path: path, maxPixels: maxPixels)
        } catch {
            TIFFClose(tif)
            errors.deallocate()
            throw error
        }
        self.tif = tif
        self.errors = errors
        name = path
        width = layout.width
        height = layout.height
        channels = layout.channels
        depth = layout.bits == 16 ? .sixteen : .eight
        compression = TIFFCompression(code: layout.compression)
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        if lstiff_get_icc(tif, &length, &data) != 0, let data, length > 0 {
            iccProfile = Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
        } else {
            iccProfile = nil
        }
        rowBytes = width * channels * layout.bits / 8
        tiled = layout.tiled
        tileWidth = layout.tileWidth
        tileHeight = layout.tileHeight
    }

    deinit {
        TIFFClose(tif)
        errors.deallocate()
        band?.deallocate()
        tile?.deallocate()
    }

    /// The colour description: the ICC profile tag, or untagged.
    public var color: ColorDescription { ColorDescription(iccBytes: iccProfile) }

    /// Reads the next `count` rows of an 8-bit image into `buffer`.
    public func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImageIOError) {
        try read(count, into: UnsafeMutableRawBufferPointer(buffer), depth: .eight)
    }

    /// Reads the next `count` rows of a 16-bit image into `buffer`.
    public func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt16>) throws(ImageIOError) {
        try read(count, into: UnsafeMutableRawBufferPointer(buffer), depth: .sixteen)
    }

    private func read(_ count: Int, into buffer: UnsafeMutableRawBufferPointer,
                      depth requested: PixelBuffer.Depth) throws(ImageIOError) {
        guard requested == depth else { throw .depthMismatch(file: name, image: depth, buffer: requested) }
        guard count >= 0, count <= height - rowsRead else {
            throw .invalidRows(file: name, detail: "asked for \(count) rows but \(height - rowsRead) of \(height) remain")
        }
        guard buffer.count >= count * rowBytes, let base = buffer.baseAddress else {
            if count == 0 { return }
            throw .invalidRows(file: name, detail: "\(count) rows need \(count * rowBytes) bytes, the buffer holds "
                               + "\(buffer.count)")
        }
        for i in 0..<count {
            let target = base + i * rowBytes
            if tiled {
                try copyTiledRow(rowsRead, to: target)
            } else if TIFFReadScanline(tif, target, UInt32(rowsRead), 0) < 0 {
                throw failure("cannot read row \(rowsRead)")
            }
            rowsRead += 1
        }
    }

    private func copyTiledRow(_ row: Int, to target: UnsafeMutableRawPointer) throws(ImageIOError) {
        let start = row - row % tileHeight
        if start != bandStart {
            let tileBytes = TIFFTileSize(tif)
            guard tileWidth > 0, tileHeight > 0, tileBytes > 0 else { throw failure("the tile size is invalid") }
            if band == nil {
                band = .allocate(byteCount: rowBytes * min(tileHeight, height), alignment: 16)
                tile = .allocate(byteCount: Int(tileBytes), alignment: 16)
            }
            let pixelBytes = rowBytes / width
            let tileRowBytes = tileWidth * pixelBytes
            var x = 0
            while x < width {
                guard TIFFReadTile(tif, tile!.baseAddress, UInt32(x), UInt32(start), 0, 0) >= 0 else {
                    throw failure("cannot read the tile at x \(x), y \(start)")
                }
                let columns = min(tileWidth, width - x) * pixelBytes
                for r in 0..<min(tileHeight, height - start) {
                    (band!.baseAddress! + r * rowBytes + x * pixelBytes)
                        .copyMemory(from: tile!.baseAddress! + r * tileRowBytes, byteCount: columns)
                }
                x += tileWidth
            }
            bandStart = start
        }
        target.copyMemory(from: band!.baseAddress! + (row - start) * rowBytes, byteCount: rowBytes)
    }

    private func failure(_ what: String) -> ImageIOError {
        let detail = TIFFReader.message(errors)
        return .corruptImage(file: name, format: "TIFF", detail: detail.isEmpty ? what : "\(what): \(detail)")
    }

    static func message(_ errors: UnsafeMutablePointer<lstiff_errors>) -> String {
        withUnsafeBytes(of: errors.pointee.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Writes a TIFF's rows top to bottom in strips, to a temporary file renamed over the destination by `finish`.
///
/// RGB or RGBA (unassociated alpha), 8 or 16 bits, with horizontal differencing for LZW and Deflate, and the ICC
/// profile tag when given. Not thread-safe.
public final class TIFFWriter {
    /// Destination path.
    public let path: String
    /// Pixels per row.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// 3 or 4.
    public let channels: Int
    /// Bits per sample.
    public let depth: PixelBuffer.Depth
    /// Rows written so far.
    public private(set) var rowsWritten = 0

    private var tif: OpaquePointer?
    private let errors: UnsafeMutablePointer<lstiff_errors>
    private let temporary: String
    private let rowBytes: Int
    /// libtiff's predictor differences rows in place; rows are copied here so the caller's band is left intact.
    private let scratch: UnsafeMutableRawBufferPointer

    /// Creates the file and writes its tags.
    public init(path: String, width: Int, height: Int, channels: Int, depth: PixelBuffer.Depth,
                compression: TIFFCompression = .lzw, iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        guard channels == 3 || channels == 4 else { throw .unsupportedChannels(channels) }
        guard width > 0, height > 0, width <= Int(UInt32.max), height <= Int(UInt32.max) else {
            throw .invalidRows(file: path, detail: "cannot write a \(width)×\(height) TIFF")
        }
        self.path = path
        self.width = width
        self.height = height
        self.channels = channels
        self.depth = depth
        temporary = AtomicFile.temporaryPath(for: path)
        errors = .allocate(capacity: 1)
        errors.initialize(to: lstiff_errors())
        // Classic TIFF up to 4 GB of data, BigTIFF beyond (libtiff's "w8").
        let bytes = width * height * channels * depth.rawValue / 8
        errno = 0
        guard let tif = lstiff_open(temporary, bytes > 3_900_000_000 ? "w8" : "w", errors) else {
            // libtiff's message names the temporary file; the system's reason is what the user can act on.
            let code = errno
            let message = TIFFReader.message(errors)
            errors.deallocate()
            AtomicFile.discard(temporary: temporary)
            throw .cannotWrite(file: path, reason: code != 0 ? AtomicFileError(path: path, errno: code).reason
                                                             : message.isEmpty ? "cannot create the file" : message)
        }
        self.tif = tif
        rowBytes = width * channels * depth.rawValue / 8
        scratch = .allocate(byteCount: rowBytes, alignment: 16)
        _ = lstiff_set_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), UInt32(width))
        _ = lstiff_set_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), UInt32(height))
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), UInt16(depth.rawValue))
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), UInt16(channels))
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_PHOTOMETRIC), UInt16(PHOTOMETRIC_RGB))
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_PLANARCONFIG), UInt16(PLANARCONFIG_CONTIG))
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_ORIENTATION), UInt16(ORIENTATION_TOPLEFT))
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_COMPRESSION), compression.code)
        if compression == .lzw || compression == .deflate {
            _ = lstiff_set_u16(tif, UInt32(TIFFTAG_PREDICTOR), UInt16(PREDICTOR_HORIZONTAL))
        }
        if channels == 4 { _ = lstiff_set_alpha(tif) }
        if let iccProfile, !iccProfile.isEmpty {
            _ = iccProfile.withUnsafeBytes { lstiff_set_icc(tif, UInt32($0.count), $0.baseAddress) }
        }
        // Strips of about 256 KB: small enough to stream, large enough for Deflate and LZW to compress well.
        _ = lstiff_set_u32(tif, UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(max(1, min(height, (256 << 10) / rowBytes))))
    }

    deinit {
        if let tif {
            TIFFClose(tif)
            AtomicFile.discard(temporary: temporary)
        }
        errors.deallocate()
        scratch.deallocate()
    }

    /// Appends rows of an 8-bit image (`buffer.count` a whole number of rows).
    public func writeRows(_ rows: UnsafeBufferPointer<UInt8>) throws(ImageIOError) {
        try write(UnsafeRawBufferPointer(rows), depth: .eight)
    }

    /// Appends rows of a 16-bit image (native byte order).
    public func writeRows(_ rows: UnsafeBufferPointer<UInt16>) throws(ImageIOError) {
        try write(UnsafeRawBufferPointer(rows), depth: .sixteen)
    }

    private func write(_ rows: UnsafeRawBufferPointer, depth requested: PixelBuffer.Depth) throws(ImageIOError) {
        guard requested == depth else { throw .depthMismatch(file: path, image: depth, buffer: requested) }
        guard let tif else { throw .invalidRows(file: path, detail: "the TIFF is already finished") }
        guard rows.count % rowBytes == 0, rowsWritten + rows.count / rowBytes <= height else {
            throw .invalidRows(file: path, detail: "\(rows.count) bytes are not whole rows that fit the image")
        }
        guard let base = rows.baseAddress else { return }
        for i in 0..<(rows.count / rowBytes) {
            scratch.baseAddress!.copyMemory(from: base + i * rowBytes, byteCount: rowBytes)
            errno = 0
            guard TIFFWriteScanline(tif, scratch.baseAddress, UInt32(rowsWritten), 0) >= 0 else {
                throw .cannotWrite(file: path, reason: Self.reason(TIFFReader.message(errors), errno: errno,
                                                                   fallback: "libtiff could not write row \(rowsWritten)"))
            }
            rowsWritten += 1
        }
    }

    /// Flushes the last strip, closes the file and renames it over `path`.
    public func finish() throws(ImageIOError) {
        guard let tif else { return }
        guard rowsWritten == height else {
            throw .invalidRows(file: path, detail: "\(rowsWritten) of \(height) rows were written")
        }
        errno = 0
        let flushed = TIFFFlush(tif)
        let code = errno
        TIFFClose(tif)
        self.tif = nil
        guard flushed != 0 else {
            AtomicFile.discard(temporary: temporary)
            throw .cannotWrite(file: path, reason: Self.reason(TIFFReader.message(errors), errno: code,
                                                               fallback: "libtiff could not finish the file"))
        }
        do {
            try AtomicFile.commit(temporary: temporary, to: path)
        } catch {
            AtomicFile.discard(temporary: temporary)
            throw .cannotWrite(file: path, reason: error.reason)
        }
    }
}

extension TIFFWriter {
    /// libtiff's message ("Write error at scanline 256") with the system's reason it leaves out (a full disk).
    static func reason(_ message: String, errno code: Int32, fallback: String) -> String {
        let text = message.isEmpty ? fallback : message
        guard code != 0 else { return text }
        return text + ": " + AtomicFileError(path: "", errno: code).reason
    }
}

/// Whole-image TIFF reading and writing.
public enum TIFFImage {
    /// Reads a TIFF whole with its ICC profile.
    public static func read(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> DecodedImage {
        let reader = try TIFFReader(path: path, maxPixels: maxPixels)
        let count = reader.width * reader.height * reader.channels
        let samples: PixelBuffer.Samples
        switch reader.depth {
        case .eight:
            var s = [UInt8](repeating: 0, count: count)
            try s.withUnsafeMutableBufferPointer { (b) throws(ImageIOError) in try reader.readRows(reader.height, into: b) }
            samples = .eight(s)
        case .sixteen:
            var s = [UInt16](repeating: 0, count: count)
            try s.withUnsafeMutableBufferPointer { (b) throws(ImageIOError) in try reader.readRows(reader.height, into: b) }
            samples = .sixteen(s)
        }
        let pixels = try PixelBuffer(width: reader.width, height: reader.height, channels: reader.channels,
                                     samples: samples)
        return DecodedImage(pixels: pixels, color: reader.color, format: .tiff)
    }

    /// Writes `image` as a TIFF atomically.
    public static func write(_ image: PixelBuffer, to path: String, compression: TIFFCompression = .lzw,
                             iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        let writer = try TIFFWriter(path: path, width: image.width, height: image.height, channels: image.channels,
                                    depth: image.depth, compression: compression, iccProfile: iccProfile)
        switch image.samples {
        case .eight(let s): try s.withUnsafeBufferPointer { (b) throws(ImageIOError) in try writer.writeRows(b) }
        case .sixteen(let s): try s.withUnsafeBufferPointer { (b) throws(ImageIOError) in try writer.writeRows(b) }
        }
        try writer.finish()
    }
}

extension TIFFImage: ImageCodec {
    public static func decode(path: String, maxPixels: Int) throws(ImageIOError) -> DecodedImage {
        try read(path: path, maxPixels: maxPixels)
    }

    public static func header(path: String, maxPixels: Int) throws(ImageIOError) -> ImageInfo {
        let r = try TIFFReader(path: path, maxPixels: maxPixels)
        return ImageInfo(format: .tiff, width: r.width, height: r.height, channels: r.channels, depth: r.depth,
                         color: r.color)
    }

    public static func encode(_ image: PixelBuffer, to path: String, format: ImageFormat, color: ColorDescription,
                              options: EncoderOptions) throws(ImageIOError) {
        try write(image, to: path, compression: options.tiffCompression ?? .lzw, iccProfile: color.embeddableICC)
    }

    public static func bandReader(path: String, maxPixels: Int) throws(ImageIOError) -> (any ImageBandReader)? {
        try TIFFReader(path: path, maxPixels: maxPixels)
    }
}
