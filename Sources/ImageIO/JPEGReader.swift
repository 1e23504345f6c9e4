import CJPEGShim
import Foundation
import Pixels

/// Reads a JPEG band by band through libjpeg-turbo's scanline API: 8-bit RGB rows, top to bottom as stored.
///
/// Memory stays at libjpeg's few rows of working space for baseline files; a progressive JPEG needs its whole
/// coefficient buffer (libjpeg's rule, about 2 bytes per sample). The EXIF orientation and ICC profile are read
/// from the header but not applied: `JPEGImage` turns whole images upright, the image pipeline streams only
/// upright files.
public final class JPEGReader {
    /// Output pixels per row (after DCT scaling).
    public let width: Int
    /// Output rows.
    public let height: Int
    /// The size stored in the file, before DCT scaling.
    public let storedWidth: Int, storedHeight: Int
    /// The EXIF orientation and ICC profile.
    public let markers: JPEGMarkers
    /// The IJG quality (1…100) whose scaled standard tables best match the file's quantisation tables; nil when
    /// the file defines none.
    public let quality: Int?
    /// The file's quantisation tables and chroma sampling, when its layout can be re-created (`JPEGCompression`).
    public let compression: JPEGCompression?
    /// Grey or colour (YCbCr), 8-bit: both are delivered as RGB.
    public let stored: StoredFormat
    /// The file path or name used in error messages.
    public let name: String
    /// Rows delivered so far.
    public private(set) var rowsRead = 0

    private let handle: OpaquePointer
    /// Keeps memory input alive while libjpeg reads it.
    private let memory: UnsafeMutableBufferPointer<UInt8>?

    /// Opens a JPEG file and reads its header, refusing images over `maxPixels` before allocating for them;
    /// `scaleDenominator` 1, 2, 4 or 8 decodes at that fraction of the size (DCT scaling).
    public convenience init(path: String, maxPixels: Int = PNGReader.defaultMaxPixels,
                            scaleDenominator: Int = 1) throws(ImageIOError) {
        try InputFile.requireImageFile(path)
        guard let handle = lsjpeg_reader_create() else {
            throw .outOfMemory(file: path, detail: "cannot create a JPEG reader")
        }
        var head: [UInt8] = [0, 0]
        if let file = fopen(path, "rb") {
            if fread(&head, 1, 2, file) != 2 { head = [] }
            fclose(file)
        }
        let status = lsjpeg_reader_open_file(handle, path)
        if status != Int32(LSJPEG_ERR_OPEN.rawValue), head != [0xFF, 0xD8] {
            lsjpeg_reader_destroy(handle)
            throw .notJPEG(file: path)
        }
        try self.init(handle: handle, memory: nil, openStatus: status, name: path, maxPixels: maxPixels,
                      scaleDenominator: scaleDenominator)
    }

    /// Reads a JPEG held in memory (the bytes are copied); `name` labels errors.
    public convenience init(data: [UInt8], name: String, maxPixels: Int = PNGReader.defaultMaxPixels,
                            scaleDenominator: Int = 1) throws(ImageIOError) {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { throw .notJPEG(file: name) }
        guard let handle = lsjpeg_reader_create() else {
            throw .outOfMemory(file: name, detail: "cannot create a JPEG reader")
        }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
        _ = copy.initialize(from: data)
        let status = lsjpeg_reader_open_memory(handle, copy.baseAddress, copy.count)
        try self.init(handle: handle, memory: copy, openStatus: status, name: name, maxPixels: maxPixels,
                      scaleDenominator: scaleDenominator)
    }

    private init(handle: OpaquePointer, memory: UnsafeMutableBufferPointer<UInt8>?, openStatus: Int32, name: String,
                 maxPixels: Int, scaleDenominator: Int) throws(ImageIOError) {
        func fail(_ error: ImageIOError) -> ImageIOError {
            lsjpeg_reader_destroy(handle)
            memory?.deallocate()
            return error
        }
        guard openStatus == Int32(LSJPEG_OK.rawValue) else {
            throw fail(JPEGReader.error(openStatus, handle: handle, name: name))
        }
        guard lsjpeg_reader_is_cmyk(handle) == 0 else {
            let base = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
            throw fail(.unsupportedImage(file: name, detail: "a CMYK JPEG (separated for print), which LookStudio "
                + "does not read: convert it to RGB first, e.g. with ImageMagick "
                + "`convert \(name) -colorspace sRGB \(base)-rgb.jpg`"))
        }
        var w: UInt32 = 0, h: UInt32 = 0
        lsjpeg_reader_size(handle, &w, &h)
        guard Int(w) * Int(h) <= maxPixels else {
            throw fail(.tooManyPixels(file: name, width: Int(w), height: Int(h), limit: maxPixels))
        }
        quality = JPEGQuality.estimate(tables: (0..<2).compactMap { index in
            var table = [UInt16](repeating: 0, count: 64)
            return lsjpeg_reader_quant_table(handle, Int32(index), &table) == 1 ? table : nil
        })
        compression = JPEGCompression(reader: handle)
        stored = StoredFormat(colorType: lsjpeg_reader_is_grey(handle) != 0 ? .grey : .rgb, bitDepth: 8)
        var markerSize = 0
        let markerBytes = lsjpeg_reader_markers(handle, &markerSize)
        markers = JPEGMarkers(parsing: markerBytes.map { Array(UnsafeBufferPointer(start: $0, count: markerSize)) } ?? [])
        var outW: UInt32 = 0, outH: UInt32 = 0
        let started = lsjpeg_reader_start(handle, Int32(scaleDenominator), &outW, &outH)
        guard started == Int32(LSJPEG_OK.rawValue) else {
            throw fail(JPEGReader.error(started, handle: handle, name: name))
        }
        self.handle = handle
        self.memory = memory
        self.name = name
        storedWidth = Int(w)
        storedHeight = Int(h)
        width = Int(outW)
        height = Int(outH)
    }

    deinit {
        lsjpeg_reader_destroy(handle)
        memory?.deallocate()
    }

    /// Decodes the next `count` rows into `buffer` (at least count · width · 3 samples).
    public func readRows(_ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImageIOError) {
        guard count >= 0, count <= height - rowsRead, buffer.count >= count * width * 3 else {
            throw .invalidRows(file: name, detail: "\(count) rows requested with \(height - rowsRead) left "
                               + "and room for \(buffer.count / max(1, width * 3))")
        }
        guard count > 0 else { return }
        let status = lsjpeg_reader_read_rows(handle, buffer.baseAddress, UInt32(count))
        guard status == Int32(LSJPEG_OK.rawValue) else { throw JPEGReader.error(status, handle: handle, name: name) }
        rowsRead += count
    }

    /// The smallest DCT scale (1, 2, 4 or 8) whose long side is still at least `minLongSide` (1 if none is).
    public static func scaleDenominator(width: Int, height: Int, minLongSide: Int) -> Int {
        var best = 1
        for denominator in [2, 4, 8] {
            // libjpeg's scaled size: ceil(dimension / denominator).
            let w = (width + denominator - 1) / denominator, h = (height + denominator - 1) / denominator
            if max(w, h) >= minLongSide { best = denominator }
        }
        return best
    }

    /// The DCT scale for a preview box-shrunk to at most `maxLongSide` (`BoxDownscaler`): of the scales whose
    /// preview comes out as large as from the smallest scaled size still ≥ `maxLongSide`, the cheapest. A 24 MP
    /// photo (6000 × 4000) decodes at 1/4 straight to the 1500 × 1000 that 1/2 and a 2× box gave; a 12 MP one at 1/2
    /// to the 2000 × 1500 that a whole decode and a 2× box gave.
    public static func previewDenominator(width: Int, height: Int, maxLongSide: Int) -> Int {
        func preview(_ d: Int) -> (Int, Int) {
            let s = BoxDownscaler(width: (width + d - 1) / d, height: (height + d - 1) / d, maxLongSide: maxLongSide)
            return (s.outWidth, s.outHeight)
        }
        let base = scaleDenominator(width: width, height: height, minLongSide: maxLongSide)
        let size = preview(base)
        return [8, 4, 2].first { $0 > base && preview($0) == size } ?? base
    }

    private static func error(_ status: Int32, handle: OpaquePointer, name: String) -> ImageIOError {
        let message = String(cString: lsjpeg_reader_message(handle))
        switch UInt32(bitPattern: status) {
        case LSJPEG_ERR_OPEN.rawValue:
            return .cannotOpen(file: name, reason: message == "No such file or directory" ? "no such file" : message)
        case LSJPEG_ERR_NOMEM.rawValue: return .outOfMemory(file: name, detail: message)
        case LSJPEG_ERR_USAGE.rawValue: return .invalidRows(file: name, detail: message)
        default: return .corruptJPEG(file: name, detail: message)
        }
    }
}
