/// Interleaved 8- or 16-bit RGB / RGBA rows in memory the caller owns (an embedding app's image), with a row stride:
/// what the in-memory pipeline reads and writes instead of a file. Borrowed, never copied or freed here; whoever
/// makes one promises `rowBytes · (height − 1)` bytes plus one row at `base`, valid while it is used.
public struct PixelRows: @unchecked Sendable {
    /// The first row.
    public let base: UnsafeMutableRawPointer
    /// Pixels per row and rows.
    public let width: Int, height: Int
    /// 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// Bits per sample.
    public let depth: PixelBuffer.Depth
    /// Bytes from the start of one row to the next.
    public let rowBytes: Int

    /// Checks a description: positive sizes, 3 or 4 channels, 8 or 16 bits, a stride of at least one row, 16-bit
    /// rows 2-byte aligned, a byte count that fits the address space. `name` says whose description it is.
    public init(base: UnsafeMutableRawPointer?, width: Int, height: Int, channels: Int, bits: Int, rowBytes: Int,
                name: String = "image") throws(ImageIOError) {
        func refuse(_ detail: String) -> ImageIOError { .invalidRows(file: name, detail: detail) }
        guard width > 0, height > 0 else {
            throw refuse("width \(width) and height \(height) must both be at least 1 pixel")
        }
        guard channels == 3 || channels == 4 else {
            throw refuse("\(channels) channels: use 3 (RGB) or 4 (RGBA)")
        }
        guard let depth = PixelBuffer.Depth(rawValue: bits) else { throw refuse("\(bits) bits: use 8 or 16") }
        let bytes = bits / 8
        let (samples, o1) = width.multipliedReportingOverflow(by: channels * bytes)
        guard !o1 else { throw refuse("a row of \(width) pixels does not fit in memory") }
        guard rowBytes >= samples else {
            throw refuse("row stride \(rowBytes) bytes is smaller than one row of \(width) pixels × \(channels) "
                         + "channels × \(bytes) byte\(bytes == 1 ? "" : "s") = \(samples) bytes")
        }
        let (span, o2) = rowBytes.multipliedReportingOverflow(by: height - 1)
        guard !o2, !span.addingReportingOverflow(samples).overflow else {
            throw refuse("\(height) rows of stride \(rowBytes) bytes do not fit in memory")
        }
        guard let base else { throw refuse("the pixel pointer is NULL") }
        if depth == .sixteen, Int(bitPattern: base) % 2 != 0 || rowBytes % 2 != 0 {
            throw refuse("16-bit rows must start on even addresses: pointer and stride must be multiples of 2")
        }
        self.base = base
        self.width = width
        self.height = height
        self.channels = channels
        self.depth = depth
        self.rowBytes = rowBytes
    }

    /// Samples in one row.
    public var rowSamples: Int { width * channels }

    /// Bytes of pixels in one row (the stride may be more).
    public var rowLength: Int { rowSamples * (depth == .eight ? 1 : 2) }

    /// The start of row `y`.
    public func row(_ y: Int) -> UnsafeMutableRawPointer { base + y * rowBytes }

    /// True when every byte of one image's rows lies at the other's bytes, so reading one while writing the other
    /// is safe only row for row in place.
    public func isSameMemory(as other: PixelRows) -> Bool {
        base == other.base && rowBytes == other.rowBytes
    }

    /// True when the two images' byte ranges overlap at all.
    public func overlaps(_ other: PixelRows) -> Bool {
        let a = Int(bitPattern: base), b = Int(bitPattern: other.base)
        let aEnd = a + rowBytes * (height - 1) + rowLength
        let bEnd = b + other.rowBytes * (other.height - 1) + other.rowLength
        return a < bEnd && b < aEnd
    }
}
