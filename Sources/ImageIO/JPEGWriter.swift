import CJPEGShim
import Foundation

/// Writes a JPEG band by band through libjpeg-turbo's scanline API, to a file (atomically: a temporary file renamed
/// on `finish`) or to memory.
///
/// Output is 8-bit RGB without an EXIF orientation (pixels are written upright), with an ICC profile in APP2
/// segments when one is given. 16-bit rows are rounded to 8 bits and alpha is dropped. A writer dropped without
/// `finish`, or that fails, removes its temporary file. Not thread-safe: one writer belongs to one task.
public final class JPEGWriter {
    /// Destination path (or a label for memory output), used in error messages.
    public let path: String
    /// Pixels per row.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// 3 (RGB) or 4 (RGBA, alpha ignored).
    public let channels: Int
    /// Rows written so far.
    public private(set) var rowsWritten = 0

    private var handle: OpaquePointer?
    private let temporaryPath: String?
    private var finished = false
    private var narrowed: [UInt8] = []

    /// Starts writing a JPEG that appears at `path` when `finish` succeeds: quality 1…100 (4:4:4 chroma at ≥ 90,
    /// 4:2:0 below, ImageMagick's rule), `iccProfile` in APP2 segments when given.
    public convenience init(path: String, width: Int, height: Int, channels: Int,
                            quality: Int = JPEGImage.defaultQuality, iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        try self.init(destination: path, temporaryPath: AtomicFile.temporaryPath(for: path), width: width,
                      height: height, channels: channels, quality: quality, iccProfile: iccProfile)
    }

    /// Starts writing a JPEG into memory; collect it with `finishData()`.
    public convenience init(memoryWidth width: Int, height: Int, channels: Int, quality: Int = JPEGImage.defaultQuality,
                            iccProfile: [UInt8]? = nil, name: String = "<memory>") throws(ImageIOError) {
        try self.init(destination: name, temporaryPath: nil, width: width, height: height, channels: channels,
                      quality: quality, iccProfile: iccProfile)
    }

    private init(destination: String, temporaryPath: String?, width: Int, height: Int, channels: Int, quality: Int,
                 iccProfile: [UInt8]?) throws(ImageIOError) {
        guard channels == 3 || channels == 4 else { throw .unsupportedChannels(channels) }
        guard (1...100).contains(quality) else { throw .invalidOptions("JPEG quality \(quality) is not in 1…100") }
        guard width > 0, height > 0, width <= 65_500, height <= 65_500 else {
            throw .invalidRows(file: destination, detail: "a JPEG cannot be \(width)×\(height) (at most 65500 a side)")
        }
        guard let handle = lsjpeg_writer_create() else {
            throw .outOfMemory(file: destination, detail: "cannot create a JPEG writer")
        }
        // APP2 chunks are numbered in one byte: a profile needing more than 255 of them cannot be stored.
        let fits = (iccProfile?.count ?? 0) <= 255 * JPEGMarkers.iccChunkSize
        let profile = fits ? iccProfile ?? [] : []
        let status = profile.withUnsafeBufferPointer {
            lsjpeg_writer_open(handle, temporaryPath, UInt32(width), UInt32(height), Int32(channels), Int32(quality),
                               profile.isEmpty ? nil : $0.baseAddress, $0.count)
        }
        guard status == Int32(LSJPEG_OK.rawValue) else {
            let error = JPEGWriter.error(status, handle: handle, path: destination)
            lsjpeg_writer_destroy(handle)
            if let temporaryPath { unlink(temporaryPath) }
            throw error
        }
        self.handle = handle
        self.path = destination
        self.temporaryPath = temporaryPath
        self.width = width
        self.height = height
        self.channels = channels
    }

    deinit {
        abandon()
    }

    /// Appends whole rows of 8-bit samples; `rows.count` must be a multiple of width · channels.
    public func writeRows(_ rows: UnsafeBufferPointer<UInt8>) throws(ImageIOError) {
        try write(rows)
    }

    /// Appends whole rows of 16-bit samples, rounded to 8 bits (v · 255 / 65535, to nearest).
    public func writeRows(_ rows: UnsafeBufferPointer<UInt16>) throws(ImageIOError) {
        if narrowed.count < rows.count { narrowed = [UInt8](repeating: 0, count: rows.count) }
        for i in 0..<rows.count { narrowed[i] = UInt8((UInt32(rows[i]) * 255 + 32_767) / 65_535) }
        try narrowed.withUnsafeBufferPointer { (all) throws(ImageIOError) in
            try write(UnsafeBufferPointer(rebasing: all[0..<rows.count]))
        }
    }

    /// Completes the image and moves the file into place; every row must have been written.
    public func finish() throws(ImageIOError) {
        try finishEncoding()
        guard let temporaryPath else { return }
        do {
            try AtomicFile.commit(temporary: temporaryPath, to: path)
        } catch {
            unlink(temporaryPath)
            throw .cannotWrite(file: path, reason: error.reason)
        }
    }

    /// Completes a memory image and returns its bytes.
    public func finishData() throws(ImageIOError) -> [UInt8] {
        try finishEncoding()
        var size = 0
        guard let handle, let bytes = lsjpeg_writer_data(handle, &size) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    private func finishEncoding() throws(ImageIOError) {
        guard let handle, !finished else {
            throw .invalidRows(file: path, detail: "the JPEG writer was already finished or has failed")
        }
        let status = lsjpeg_writer_finish(handle)
        guard status == Int32(LSJPEG_OK.rawValue) else { throw fail(status) }
        finished = true
    }

    private func write(_ rows: UnsafeBufferPointer<UInt8>) throws(ImageIOError) {
        guard let handle, !finished else {
            throw .invalidRows(file: path, detail: "the JPEG writer was already finished or has failed")
        }
        let count = try RowCount.check(samples: rows.count, rowSamples: width * channels, written: rowsWritten,
                                       height: height, path: path)
        guard count > 0 else { return }
        let status = lsjpeg_writer_write_rows(handle, rows.baseAddress, UInt32(count))
        guard status == Int32(LSJPEG_OK.rawValue) else { throw fail(status) }
        rowsWritten += count
    }

    /// Turns a C failure into an error and drops the partial output.
    private func fail(_ status: Int32) -> ImageIOError {
        let error = handle.map { JPEGWriter.error(status, handle: $0, path: path) }
            ?? .cannotWrite(file: path, reason: "writer closed")
        abandon()
        return error
    }

    private func abandon() {
        if let handle {
            lsjpeg_writer_destroy(handle)
            self.handle = nil
        }
        if !finished, let temporaryPath { unlink(temporaryPath) }
    }

    private static func error(_ status: Int32, handle: OpaquePointer, path: String) -> ImageIOError {
        let message = String(cString: lsjpeg_writer_message(handle))
        switch UInt32(bitPattern: status) {
        case LSJPEG_ERR_OPEN.rawValue, LSJPEG_ERR_WRITE.rawValue: return .cannotWrite(file: path, reason: message)
        case LSJPEG_ERR_NOMEM.rawValue: return .outOfMemory(file: path, detail: message)
        case LSJPEG_ERR_USAGE.rawValue: return .invalidRows(file: path, detail: message)
        default: return .cannotWrite(file: path, reason: "libjpeg: \(message)")
        }
    }
}
