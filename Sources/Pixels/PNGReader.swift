import CPNGShim

/// What a PNG header says, and the shape its rows are delivered in after conversion to RGB(A).
public struct PNGInfo: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// Channels per delivered pixel: 3 (RGB) or 4 (RGBA, when the file has alpha or a tRNS chunk).
    public let channels: Int
    /// Sample width of delivered rows: 16 only for 16-bit files; 1-, 2- and 4-bit files are widened to 8.
    public let depth: PixelBuffer.Depth
    /// How the file stores its pixels (grey, palette, … at 1 to 16 bits), before they are widened to RGB(A).
    public let stored: StoredFormat
    /// Whether the file is Adam7-interlaced (such files are decoded whole on the first row request).
    public let interlaced: Bool
}

/// Reads a PNG's rows top to bottom in bands, so an image can be processed without holding it whole.
///
/// Samples come back exactly as stored (palette and grey expanded to RGB, tRNS to alpha, low bit depths to 8,
/// 16-bit in native byte order); gamma, sRGB, iCCP and cHRM chunks are never applied, only reported as
/// `colorMetadata`. Not thread-safe: one reader belongs to one task.
public final class PNGReader {
    /// Largest image (width × height) read unless the caller raises it: 250 megapixels is about 1 GB as 8-bit RGBA.
    public static let defaultMaxPixels = 250_000_000

    /// The header, known before any pixel memory was allocated.
    public let info: PNGInfo
    /// The colour chunks the file holds (those libpng found malformed or contradictory are left out).
    public let colorMetadata: PNGColorMetadata
    /// The file path or name used in error messages.
    public let name: String
    /// Rows delivered so far.
    public private(set) var rowsRead = 0

    private let handle: OpaquePointer
    private let rowSamples: Int

    /// Opens a PNG file and reads its header, refusing images over `maxPixels` before allocating for them.
    public convenience init(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) {
        try InputFile.requireImageFile(path)
        guard let handle = lspng_reader_create() else {
            throw .outOfMemory(file: path, detail: "cannot create a PNG reader")
        }
        let status = lspng_reader_open_file(handle, path)
        try self.init(handle: handle, openStatus: status, name: path, maxPixels: maxPixels)
    }

    /// Reads a PNG held in memory (the bytes are copied); `name` labels errors.
    public convenience init(data: [UInt8], name: String,
                            maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) {
        guard let handle = lspng_reader_create() else {
            throw .outOfMemory(file: name, detail: "cannot create a PNG reader")
        }
        let status = data.withUnsafeBufferPointer { lspng_reader_open_memory(handle, $0.baseAddress, $0.count) }
        try self.init(handle: handle, openStatus: status, name: name, maxPixels: maxPixels)
    }

    private init(handle: OpaquePointer, openStatus: Int32, name: String, maxPixels: Int) throws(ImageIOError) {
        guard openStatus == Int32(LSPNG_OK.rawValue) else {
            let error = PNGReader.error(openStatus, handle: handle, name: name)
            lspng_reader_destroy(handle)
            throw error
        }
        let header = lspng_reader_info(handle)
        let width = Int(header.width), height = Int(header.height)
        guard width * height <= maxPixels else {
            lspng_reader_destroy(handle)
            throw .tooManyPixels(file: name, width: width, height: height, limit: maxPixels)
        }
        // libpng allocates its row buffers in `start`, and an interlaced image is decoded whole on the first read.
        do {
            let pixelBytes = Int(header.channels) * Int(header.depth == 16 ? 2 : 1)
            try DecodeBudget.checkRow(file: name, bytes: width * pixelBytes)
            if header.interlaced != 0 {
                try DecodeBudget.checkWhole(file: name, width: width, height: height, bytesPerPixel: pixelBytes)
            }
        } catch {
            lspng_reader_destroy(handle)
            throw error
        }
        let startStatus = lspng_reader_start(handle)
        guard startStatus == Int32(LSPNG_OK.rawValue) else {
            let error = PNGReader.error(startStatus, handle: handle, name: name)
            lspng_reader_destroy(handle)
            throw error
        }
        self.handle = handle
        self.name = name
        self.colorMetadata = PNGColorMetadata(lspng_reader_color(handle))
        self.info = PNGInfo(width: width, height: height, channels: Int(header.channels),
                            depth: header.depth == 16 ? .sixteen : .eight,
                            stored: PNGReader.stored(header), interlaced: header.interlaced != 0)
        self.rowSamples = width * Int(header.channels)
    }

    deinit {
        lspng_reader_destroy(handle)
    }

    /// Reads the next `count` rows of an 8-bit image into `buffer` (at least count · width · channels samples).
    public func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImageIOError) {
        try read(count, into: UnsafeMutableRawPointer(buffer.baseAddress), capacity: buffer.count, depth: .eight)
    }

    /// Reads the next `count` rows of a 16-bit image into `buffer` (at least count · width · channels samples).
    public func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt16>) throws(ImageIOError) {
        try read(count, into: UnsafeMutableRawPointer(buffer.baseAddress), capacity: buffer.count, depth: .sixteen)
    }

    private func read(_ count: Int, into pointer: UnsafeMutableRawPointer?, capacity: Int,
                      depth: PixelBuffer.Depth) throws(ImageIOError) {
        guard depth == info.depth else { throw .depthMismatch(file: name, image: info.depth, buffer: depth) }
        guard count >= 0, count <= info.height - rowsRead else {
            throw .invalidRows(file: name, detail: "asked for \(count) rows but \(info.height - rowsRead) of "
                               + "\(info.height) remain")
        }
        guard count > 0 else { return }
        guard capacity >= count * rowSamples, let pointer else {
            throw .invalidRows(file: name, detail: "\(count) rows need \(count * rowSamples) samples, the buffer "
                               + "holds \(capacity)")
        }
        let status = lspng_reader_read_rows(handle, pointer, UInt32(count))
        guard status == Int32(LSPNG_OK.rawValue) else { throw PNGReader.error(status, handle: handle, name: name) }
        rowsRead += count
    }

    private static func error(_ status: Int32, handle: OpaquePointer, name: String) -> ImageIOError {
        let message = String(cString: lspng_reader_message(handle))
        switch UInt32(bitPattern: status) {
        case LSPNG_ERR_OPEN.rawValue: return .cannotOpen(file: name, reason: message)
        case LSPNG_ERR_NOT_PNG.rawValue: return .notPNG(file: name)
        case LSPNG_ERR_NOMEM.rawValue: return .outOfMemory(file: name, detail: message)
        case LSPNG_ERR_USAGE.rawValue: return .invalidRows(file: name, detail: message)
        default: return .corruptPNG(file: name, detail: message)
        }
    }

    private static func stored(_ header: lspng_info) -> StoredFormat {
        let type: StoredFormat.ColorType
        // Colour types of the PNG specification, section 11.2.2; libpng refuses any other before this point.
        switch header.source_color_type {
        case 0: type = .grey
        case 3: type = .palette
        case 4: type = .greyAlpha
        case 6: type = .rgba
        default: type = .rgb
        }
        return StoredFormat(colorType: type, bitDepth: Int(header.source_bit_depth),
                            transparencyChunk: header.has_trns != 0)
    }
}
