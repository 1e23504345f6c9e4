import CPNGShim
import Foundation

/// How hard a PNG is compressed: zlib level, row filter and zlib strategy.
public struct PNGWriteOptions: Sendable, Equatable {
    /// The PNG row filter applied before deflate.
    public enum Filter: Sendable, Equatable, CaseIterable {
        case none, sub, up, average, paeth
        /// One of the five per row, chosen as libpng would (smallest sum of the filtered bytes as signed magnitudes).
        case adaptive
    }

    /// The zlib strategy; `.automatic` is libpng's rule (Z_FILTERED when a filter other than none may be used).
    public enum Strategy: Sendable, Equatable, CaseIterable {
        case automatic, standard, filtered, huffmanOnly, rle
    }

    /// zlib level 0 (store) … 9 (smallest).
    public var compressionLevel: Int
    /// Row filter.
    public var filter: Filter
    /// zlib strategy.
    public var strategy: Strategy

    /// Options with the given level, filter and strategy.
    public init(compressionLevel: Int, filter: Filter, strategy: Strategy = .automatic) {
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.strategy = strategy
    }

    /// For photographs: adaptive filters with zlib's run-length strategy, chosen from a measurement.
    ///
    /// Deflate dominates writing a photo, and on a 24 MP photo run-length coding after filtering was both faster and
    /// smaller than zlib's other strategies at every level and filter (docs/design/performance.md).
    public static let photo = PNGWriteOptions(compressionLevel: 1, filter: .adaptive, strategy: .rle)

    /// Deflate level 1 after adaptive filtering: the better choice for photographs with sensor noise or grain.
    ///
    /// On noisy photos LZ77 matches beat run-length coding at similar speed (docs/design/performance.md).
    public static let grainyPhoto = PNGWriteOptions(compressionLevel: 1, filter: .adaptive, strategy: .standard)

    /// `.photo` or `.grainyPhoto`, whichever compresses `sample` (a band of the image's first rows) smaller.
    ///
    /// Which strategy wins depends on the picture (smooth gradients favour run-length coding, noise favours LZ77
    /// matches), and both run at similar speed, so a trial on a few rows beats any fixed choice.
    public static func forPhoto(sample: PixelBuffer) throws(ImageIOError) -> PNGWriteOptions {
        let smooth = try PNGImage.encode(sample, options: .photo).count
        let grainy = try PNGImage.encode(sample, options: .grainyPhoto).count
        return grainy < smooth ? .grainyPhoto : .photo
    }

    /// For cube PNGs and other small data images: smallest file, speed irrelevant.
    public static let data = PNGWriteOptions(compressionLevel: 9, filter: .adaptive)

    var filterBits: Int32 {
        switch filter {
        case .none: return Int32(LSPNG_FILTER_NONE)
        case .sub: return Int32(LSPNG_FILTER_SUB)
        case .up: return Int32(LSPNG_FILTER_UP)
        case .average: return Int32(LSPNG_FILTER_AVG)
        case .paeth: return Int32(LSPNG_FILTER_PAETH)
        case .adaptive: return Int32(LSPNG_FILTER_ALL)
        }
    }

    /// zlib's Z_* strategy numbers, which are part of zlib's stable API.
    var strategyCode: Int32 {
        switch strategy {
        case .automatic: return -1
        case .standard: return 0
        case .filtered: return 1
        case .huffmanOnly: return 2
        case .rle: return 3
        }
    }
}

/// Writes a PNG row by row, to a file (atomically: a temporary file renamed on `finish`) or to memory.
///
/// Rows are filtered and deflated on every core, the way pigz compresses: each band's filtered rows are cut into
/// 256 KiB blocks deflated in parallel, each primed with the previous 32 KiB as its dictionary and ended by a sync
/// flush, and the blocks join into one standard zlib stream (Adler-32 combined). The output grows by a few bytes
/// per block against one stream (0.001 % on a 24 MP photo). libpng writes the signature, IHDR and colour chunks.
///
/// A writer that is dropped without `finish`, or that fails, removes its temporary file: the destination is
/// either untouched or complete. Not thread-safe: one writer belongs to one task.
public final class PNGWriter {
    /// Destination path (or a label for memory output), used in error messages.
    public var path: String { shim.path }
    /// Pixels per row.
    public var width: Int { shim.width }
    /// Number of rows.
    public var height: Int { shim.height }
    /// 3 (RGB) or 4 (RGBA).
    public var channels: Int { shim.channels }
    /// Bits per sample.
    public let depth: PixelBuffer.Depth
    /// Rows written so far.
    public var rowsWritten: Int { shim.rowsWritten }

    private let shim: ShimWriter

    private static let encoder = ShimEncoder(
        format: "PNG", library: "libpng",
        writeRows: { lspng_writer_write_rows($0, $1, $2) }, finish: { lspng_writer_finish($0) },
        data: { lspng_writer_data($0, $1) }, message: { lspng_writer_message($0) },
        destroy: { lspng_writer_destroy($0) },
        ok: Int32(LSPNG_OK.rawValue), openFailed: Int32(LSPNG_ERR_OPEN.rawValue),
        writeFailed: Int32(LSPNG_ERR_WRITE.rawValue), noMemory: Int32(LSPNG_ERR_NOMEM.rawValue),
        misuse: Int32(LSPNG_ERR_USAGE.rawValue))

    /// Starts writing a PNG that will appear at `path` when `finish` succeeds, with `colorMetadata`'s chunks before
    /// the image data (any libpng refuses are left out; they never fail the image).
    public convenience init(path: String, width: Int, height: Int, channels: Int, depth: PixelBuffer.Depth,
                            options: PNGWriteOptions,
                            colorMetadata: PNGColorMetadata = PNGColorMetadata()) throws(ImageIOError) {
        try self.init(destination: path, temporaryPath: AtomicFile.temporaryPath(for: path), width: width,
                      height: height, channels: channels, depth: depth, options: options, color: colorMetadata)
    }

    /// Starts writing a PNG into memory; collect it with `finishData()`.
    convenience init(memoryWidth width: Int, height: Int, channels: Int, depth: PixelBuffer.Depth,
                     options: PNGWriteOptions, colorMetadata: PNGColorMetadata = PNGColorMetadata())
        throws(ImageIOError) {
        try self.init(destination: "<memory>", temporaryPath: nil, width: width, height: height,
                      channels: channels, depth: depth, options: options, color: colorMetadata)
    }

    private init(destination: String, temporaryPath: String?, width: Int, height: Int, channels: Int,
                 depth: PixelBuffer.Depth, options: PNGWriteOptions, color: PNGColorMetadata) throws(ImageIOError) {
        guard channels == 3 || channels == 4 else { throw .unsupportedChannels(channels) }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .invalidRows(file: destination, detail: "cannot write a \(width)×\(height) image")
        }
        guard (0...9).contains(options.compressionLevel) else {
            throw .invalidOptions("compression level \(options.compressionLevel) is not in 0…9")
        }
        guard let handle = lspng_writer_create() else {
            throw .outOfMemory(file: destination, detail: "cannot create a PNG writer")
        }
        shim = try ShimWriter(encoder: PNGWriter.encoder, handle: handle, path: destination,
                              temporaryPath: temporaryPath, width: width, height: height,
                              channels: channels) { handle in
            color.withShimColor { (shimColor) -> Int32 in
                let params = lspng_write_params(width: UInt32(width), height: UInt32(height), channels: Int32(channels),
                                                depth: Int32(depth.rawValue),
                                                compression_level: Int32(options.compressionLevel),
                                                filters: options.filterBits, strategy: options.strategyCode,
                                                color: shimColor)
                if let temporaryPath { return lspng_writer_open_file(handle, temporaryPath, params) }
                return lspng_writer_open_memory(handle, params)
            }
        }
        self.depth = depth
    }

    /// Appends whole rows of an 8-bit image; `rows.count` must be a multiple of width · channels.
    public func writeRows(_ rows: UnsafeBufferPointer<UInt8>) throws(ImageIOError) {
        try write(UnsafeRawPointer(rows.baseAddress), samples: rows.count, depth: .eight)
    }

    /// Appends whole rows of a 16-bit image (native byte order); `rows.count` must be a multiple of width · channels.
    public func writeRows(_ rows: UnsafeBufferPointer<UInt16>) throws(ImageIOError) {
        try write(UnsafeRawPointer(rows.baseAddress), samples: rows.count, depth: .sixteen)
    }

    /// Completes the image and moves the file into place; every row must have been written.
    public func finish() throws(ImageIOError) {
        try shim.finish()
    }

    /// Completes a memory image and returns its bytes.
    func finishData() throws(ImageIOError) -> [UInt8] {
        try shim.finishData()
    }

    private func write(_ pointer: UnsafeRawPointer?, samples: Int, depth: PixelBuffer.Depth) throws(ImageIOError) {
        guard depth == self.depth else { throw .depthMismatch(file: path, image: self.depth, buffer: depth) }
        try shim.write(pointer, samples: samples)
    }
}
