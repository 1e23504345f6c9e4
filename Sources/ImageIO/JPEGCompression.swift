import CJPEGShim
import Dispatch
import Foundation

/// How a JPEG file was compressed — its quantisation tables and chroma sampling — so other pixels can be put
/// through the same loss (look extraction models a JPEG after image this way).
public struct JPEGCompression: Sendable, Equatable {
    /// Luma then chroma quantisation table, 64 steps each in natural order.
    public let tables: [UInt16]
    /// The luma's sampling factors over the chroma's: (2, 2) is 4:2:0, (1, 1) 4:4:4.
    public let horizontal: Int, vertical: Int
    /// The EXIF orientation the pixels this describes were turned upright by (1: they are as stored); a round trip
    /// turns them back onto the file's blocks first.
    public var orientation = 1

    /// Tables and sampling as `lsjpeg_reader_compression` reports them; nil for a layout it cannot re-create.
    public init?(tables: [UInt16], horizontal: Int, vertical: Int) {
        guard tables.count == 128, !tables.contains(0), (1...2).contains(horizontal), (1...2).contains(vertical) else {
            return nil
        }
        self.tables = tables
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The compression of the JPEG being read by `handle` (a CJPEGShim reader after its header).
    init?(reader handle: OpaquePointer) {
        var tables = [UInt16](repeating: 0, count: 128)
        var h: Int32 = 0, v: Int32 = 0
        guard lsjpeg_reader_compression(handle, &tables, &h, &v) == 1 else { return nil }
        self.init(tables: tables, horizontal: Int(h), vertical: Int(v))
    }

    /// The quality (1…100) whose standard tables these are closest to (`JPEGQuality.estimate`).
    public var quality: Int? { JPEGQuality.estimate(tables: [Array(tables.prefix(64)), Array(tables.suffix(64))]) }

    /// Rows in one MCU: blocks (and 4:2:0's chroma cells) never straddle a multiple of this from the top.
    public var mcuRows: Int { 8 * vertical }

    /// `rgb` (8-bit, interleaved, `width`×`height`) encoded with these tables and sampling, and decoded again.
    ///
    /// Done in horizontal strips on all cores (`strips` nil: one per core, at least 256 rows each), with the same
    /// result as one pass, bit for bit: a strip starts on an MCU row, so it holds the very blocks the whole image
    /// would; the decoder's chroma upsampling reads one chroma row beyond a block, so each strip is coded with one
    /// MCU row of its neighbours above and below, and those rows are dropped.
    public func roundTrip(_ rgb: [UInt8], width: Int, height: Int,
                          strips: Int? = nil) throws(ImageIOError) -> [UInt8] {
        guard rgb.count == 3 * width * height else {
            throw .invalidRows(file: "<memory>", detail: "\(rgb.count) samples for \(width)×\(height) RGB")
        }
        guard orientation == 1 else {
            let stored = JPEGOrientation.stored(rgb, width: width, height: height, channels: 3,
                                                orientation: orientation)
            let size = JPEGOrientation.uprightSize(width: width, height: height, orientation: orientation)
            var asStored = self
            asStored.orientation = 1
            return JPEGOrientation.upright(try asStored.roundTrip(stored, width: size.width, height: size.height,
                                                                  strips: strips),
                                           width: size.width, height: size.height, channels: 3,
                                           orientation: orientation)
        }
        let mcu = mcuRows
        let mcuCount = (height + mcu - 1) / mcu
        let wanted = strips ?? min(ProcessInfo.processInfo.activeProcessorCount, max(1, height / 256))
        let parts = max(1, min(wanted, mcuCount))
        var out = [UInt8](repeating: 0, count: rgb.count)
        var failures = [ImageIOError?](repeating: nil, count: parts)
        rgb.withUnsafeBufferPointer { source in out.withUnsafeMutableBufferPointer { target in
            failures.withUnsafeMutableBufferPointer { errors in
                nonisolated(unsafe) let input = source, output = target, failed = errors
                DispatchQueue.concurrentPerform(iterations: parts) { k in
                    let first = min(height, mcuCount * k / parts * mcu)
                    let last = min(height, mcuCount * (k + 1) / parts * mcu)
                    let top = max(0, first - mcu), bottom = min(height, last + mcu)
                    do throws(ImageIOError) {
                        let strip = try Self.roundTrip(
                            UnsafeBufferPointer(rebasing: input[(3 * width * top)..<(3 * width * bottom)]),
                            width: width, height: bottom - top, compression: self)
                        let keep = strip[(3 * width * (first - top))..<(3 * width * (last - top))]
                        _ = UnsafeMutableBufferPointer(rebasing: output[(3 * width * first)..<(3 * width * last)])
                            .update(fromContentsOf: keep)
                    } catch {
                        failed[k] = error
                    }
                }
            }
        } }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        return out
    }

    /// One encode and decode of `rgb` in memory.
    private static func roundTrip(_ rgb: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                  compression: JPEGCompression) throws(ImageIOError) -> [UInt8] {
        let writer = try JPEGWriter(memoryWidth: width, height: height, compression: compression)
        try writer.writeRows(rgb)
        let reader = try JPEGReader(data: try writer.finishData(), name: "<memory>", maxPixels: .max)
        var out = [UInt8](repeating: 0, count: rgb.count)
        try out.withUnsafeMutableBufferPointer { (all) throws(ImageIOError) in try reader.readRows(height, into: all) }
        return out
    }
}
