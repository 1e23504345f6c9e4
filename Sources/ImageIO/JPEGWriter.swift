import CJPEGShim
import Foundation
import Pixels

/// Writes a JPEG band by band through libjpeg-turbo's scanline API, to a file (atomically: a temporary file renamed
/// on `finish`) or to memory.
///
/// Output is 8-bit RGB without an EXIF orientation (pixels are written upright), with an ICC profile in APP2
/// segments when one is given. 16-bit rows are rounded to 8 bits and alpha is dropped. A writer dropped without
/// `finish`, or that fails, removes its temporary file. Not thread-safe: one writer belongs to one task.
public final class JPEGWriter {
    /// Destination path (or a label for memory output), used in error messages.
    public var path: String { shim.path }
    /// Pixels per row.
    public var width: Int { shim.width }
    /// Number of rows.
    public var height: Int { shim.height }
    /// 3 (RGB) or 4 (RGBA, alpha ignored).
    public var channels: Int { shim.channels }
    /// Rows written so far.
    public var rowsWritten: Int { shim.rowsWritten }

    private let shim: ShimWriter
    private var narrowed: [UInt8] = []

    private static let encoder = ShimEncoder(
        format: "JPEG", library: "libjpeg",
        writeRows: { lsjpeg_writer_write_rows($0, $1.assumingMemoryBound(to: UInt8.self), $2) },
        finish: { lsjpeg_writer_finish($0) }, data: { lsjpeg_writer_data($0, $1) },
        message: { lsjpeg_writer_message($0) }, destroy: { lsjpeg_writer_destroy($0) },
        ok: Int32(LSJPEG_OK.rawValue), openFailed: Int32(LSJPEG_ERR_OPEN.rawValue),
        writeFailed: Int32(LSJPEG_ERR_WRITE.rawValue), noMemory: Int32(LSJPEG_ERR_NOMEM.rawValue),
        misuse: Int32(LSJPEG_ERR_USAGE.rawValue))

    /// Starts writing a JPEG that appears at `path` when `finish` succeeds: quality 1…100, chroma `subsampling`
    /// (nil: 4:4:4 at quality ≥ 90, 4:2:0 below, ImageMagick's rule), `iccProfile` in APP2 segments when given.
    public convenience init(path: String, width: Int, height: Int, channels: Int,
                            quality: Int = JPEGImage.defaultQuality, subsampling: JPEGSubsampling? = nil,
                            iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        try self.init(destination: path, temporaryPath: AtomicFile.temporaryPath(for: path), width: width,
                      height: height, channels: channels, quality: quality, iccProfile: iccProfile,
                      subsampling: subsampling)
    }

    /// Starts writing a JPEG into memory; collect it with `finishData()`.
    public convenience init(memoryWidth width: Int, height: Int, channels: Int, quality: Int = JPEGImage.defaultQuality,
                            iccProfile: [UInt8]? = nil, name: String = "<memory>") throws(ImageIOError) {
        try self.init(destination: name, temporaryPath: nil, width: width, height: height, channels: channels,
                      quality: quality, iccProfile: iccProfile)
    }

    /// Starts writing an RGB JPEG into memory with another file's tables and chroma sampling (`JPEGCompression`).
    public convenience init(memoryWidth width: Int, height: Int, compression: JPEGCompression) throws(ImageIOError) {
        try self.init(destination: "<memory>", temporaryPath: nil, width: width, height: height, channels: 3,
                      quality: JPEGImage.defaultQuality, iccProfile: nil, compression: compression)
    }

    private init(destination: String, temporaryPath: String?, width: Int, height: Int, channels: Int, quality: Int,
                 iccProfile: [UInt8]?, compression: JPEGCompression? = nil,
                 subsampling: JPEGSubsampling? = nil) throws(ImageIOError) {
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
        shim = try ShimWriter(encoder: JPEGWriter.encoder, handle: handle, path: destination,
                              temporaryPath: temporaryPath, width: width, height: height,
                              channels: channels) { handle in
            if let compression {
                return lsjpeg_writer_open_tables(handle, temporaryPath, UInt32(width), UInt32(height),
                                                 Int32(channels), compression.tables, Int32(compression.horizontal),
                                                 Int32(compression.vertical))
            }
            return profile.withUnsafeBufferPointer {
                lsjpeg_writer_open(handle, temporaryPath, UInt32(width), UInt32(height), Int32(channels),
                                   Int32(quality), Int32(subsampling?.factors.horizontal ?? 0),
                                   Int32(subsampling?.factors.vertical ?? 0), profile.isEmpty ? nil : $0.baseAddress,
                                   $0.count)
            }
        }
    }

    /// Appends whole rows of 8-bit samples; `rows.count` must be a multiple of width · channels.
    public func writeRows(_ rows: UnsafeBufferPointer<UInt8>) throws(ImageIOError) {
        try shim.write(UnsafeRawPointer(rows.baseAddress), samples: rows.count)
    }

    /// Appends whole rows of 16-bit samples, rounded to 8 bits (v · 255 / 65535, to nearest).
    public func writeRows(_ rows: UnsafeBufferPointer<UInt16>) throws(ImageIOError) {
        if narrowed.count < rows.count { narrowed = [UInt8](repeating: 0, count: rows.count) }
        for i in 0..<rows.count { narrowed[i] = UInt8((UInt32(rows[i]) * 255 + 32_767) / 65_535) }
        try narrowed.withUnsafeBufferPointer { (all) throws(ImageIOError) in
            try shim.write(UnsafeRawPointer(all.baseAddress), samples: rows.count)
        }
    }

    /// Completes the image and moves the file into place; every row must have been written.
    public func finish() throws(ImageIOError) {
        try shim.finish()
    }

    /// Completes a memory image and returns its bytes.
    public func finishData() throws(ImageIOError) -> [UInt8] {
        try shim.finishData()
    }
}
