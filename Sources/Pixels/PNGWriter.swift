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
    /// Deflate dominates writing a photo. Encoding a 24-megapixel 8-bit RGB photo proxy (coffee.png upscaled 10×
    /// bilinearly plus ±1 code of noise, 54 MB at level 1 unfiltered), one thread, seconds and output size:
    ///
    ///     strategy  level  none          sub           up            paeth         adaptive
    ///     libpng    1      2.57 s 54.3   1.37 s 30.4   1.57 s 30.8   2.36 s 30.0   2.84 s 29.3 MB
    ///     libpng    2      3.02 s 53.8   1.89 s 29.5   2.07 s 30.0   2.51 s 29.2   2.85 s 28.5
    ///     libpng    3      2.51 s 53.6   3.73 s 28.7   3.12 s 29.2   3.03 s 28.4   3.36 s 27.7
    ///     libpng    4      2.53 s 55.2   2.53 s 26.5   2.51 s 27.0   2.95 s 25.5   3.69 s 25.2
    ///     libpng    5      2.19 s 55.2   4.17 s 26.8   4.30 s 27.3   4.88 s 25.9   4.83 s 25.6
    ///     libpng    6      2.09 s 55.2  17.21 s 26.8  20.82 s 27.4  24.19 s 26.1  24.00 s 25.7
    ///     default   6      —            18.60 s 27.4  19.42 s 28.0  16.99 s 27.1  12.65 s 26.5
    ///     rle       any    0.67 s 68.2   0.76 s 25.3   0.73 s 25.8   1.02 s 24.0   1.32 s 23.5
    ///
    /// ("libpng" is its own choice, Z_FILTERED when filtering.) Peers on the same file: ffmpeg PNG→PNG 3.71 s,
    /// 55.4 MB; ImageMagick 22.5 s, 25.5 MB. RLE after filtering is both the fastest and the smallest here: a
    /// photo's filtered residuals are small numbers that Huffman coding captures and LZ77 matching rarely finds.
    /// On the native-resolution samples it stays within 1–2 % of ImageMagick (coffee 445.7 vs 442.3 kB, chelsea
    /// 223.7 vs 220.1 kB), where level 6 adaptive is 5–20× slower for 0.5 % less.
    public static let photo = PNGWriteOptions(compressionLevel: 1, filter: .adaptive, strategy: .rle)

    /// Deflate level 1 after adaptive filtering: the better choice for photographs with sensor noise or grain.
    ///
    /// On a 24 MP synthetic photo with ±8 codes of noise (`lookstudio bench apply`'s image) it writes 38.2 MB in
    /// 1.55 s where `.photo` (RLE) writes 41.6 MB in 1.3–1.9 s; on the smooth native-size samples it is ~5 % larger.
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
