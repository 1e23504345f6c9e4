import CJPEGShim

/// How a JPEG file was compressed — its quantisation tables and chroma sampling — so other pixels can be put
/// through the same loss (look extraction models a JPEG after image this way).
public struct JPEGCompression: Sendable, Equatable {
    /// Luma then chroma quantisation table, 64 steps each in natural order.
    public let tables: [UInt16]
    /// The luma's sampling factors over the chroma's: (2, 2) is 4:2:0, (1, 1) 4:4:4.
    public let horizontal: Int, vertical: Int

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

    /// `rgb` (8-bit, interleaved, `width`×`height`) encoded with these tables and sampling, and decoded again.
    public func roundTrip(_ rgb: [UInt8], width: Int, height: Int) throws(ImageIOError) -> [UInt8] {
        guard rgb.count == 3 * width * height else {
            throw .invalidRows(file: "<memory>", detail: "\(rgb.count) samples for \(width)×\(height) RGB")
        }
        let writer = try JPEGWriter(memoryWidth: width, height: height, compression: self)
        try rgb.withUnsafeBufferPointer { (all) throws(ImageIOError) in try writer.writeRows(all) }
        let reader = try JPEGReader(data: try writer.finishData(), name: "<memory>", maxPixels: .max)
        var out = [UInt8](repeating: 0, count: rgb.count)
        try out.withUnsafeMutableBufferPointer { (all) throws(ImageIOError) in try reader.readRows(height, into: all) }
        return out
    }
}
