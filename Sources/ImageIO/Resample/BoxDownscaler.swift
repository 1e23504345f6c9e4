import Pixels

/// Shrinks an image by an integer box filter as its rows arrive, holding one output row of sums at a time.
public struct BoxDownscaler {
    /// Source size, the integer shrink factor and the output size.
    public let width: Int, height: Int, factor: Int, outWidth: Int, outHeight: Int
    private var sums: [Float]
    private var rowsInSum = 0
    private var inputRow = 0
    private var output: [UInt8]
    private var outputRow = 0

    /// A downscaler for a `width × height` image to at most `maxLongSide` on its long side.
    public init(width: Int, height: Int, maxLongSide: Int) {
        self.width = width
        self.height = height
        factor = max(1, (max(width, height) + maxLongSide - 1) / maxLongSide)
        outWidth = (width + factor - 1) / factor
        outHeight = (height + factor - 1) / factor
        sums = [Float](repeating: 0, count: outWidth * 3)
        output = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
    }

    /// Adds `rows` whole rows of 8-bit samples.
    public mutating func add(rows: Int, samples: UnsafeBufferPointer<UInt8>, channels: Int) {
        accumulate(rows: rows, channels: channels, scale: 1) { Float(samples[$0]) }
    }

    /// Adds `rows` whole rows of 16-bit samples (scaled to the 8-bit range).
    public mutating func add(rows: Int, samples: UnsafeBufferPointer<UInt16>, channels: Int) {
        accumulate(rows: rows, channels: channels, scale: 255 / 65535) { Float(samples[$0]) }
    }

    @inline(__always)
    private mutating func accumulate(rows: Int, channels: Int, scale: Float, _ sample: (Int) -> Float) {
        for row in 0..<rows {
            let base = row * width * channels
            for x in 0..<width {
                let i = base + x * channels, o = (x / factor) * 3
                sums[o] += sample(i) * scale
                sums[o + 1] += sample(i + 1) * scale
                sums[o + 2] += sample(i + 2) * scale
            }
            rowsInSum += 1
            inputRow += 1
            if rowsInSum == factor || inputRow == height { emitRow() }
        }
    }

    private mutating func emitRow() {
        let base = outputRow * outWidth * 3
        for x in 0..<outWidth {
            let columns = min(factor, width - x * factor)
            let weight = 1 / Float(columns * rowsInSum)
            for c in 0..<3 {
                output[base + x * 3 + c] = UInt8(min(255, max(0, (sums[x * 3 + c] * weight).rounded())))
                sums[x * 3 + c] = 0
            }
        }
        rowsInSum = 0
        outputRow += 1
    }

    /// The downscaled 8-bit RGB image.
    public func finish() throws(ImageIOError) -> PixelBuffer {
        try PixelBuffer(width: outWidth, height: outHeight, channels: 3, samples: .eight(output))
    }
}

/// The two sample widths a band reader delivers, so one band loop serves 8- and 16-bit files (previews, and the
/// image pipeline's `BandSample`).
public protocol BandRowSample: FixedWidthInteger {
    /// Reads `count` rows of this sample width from `reader` into `buffer`.
    static func readRows(_ reader: any ImageBandReader, _ count: Int, into buffer: UnsafeMutableBufferPointer<Self>)
        throws(ImageIOError)
}

extension UInt8: BandRowSample {
    public static func readRows(_ reader: any ImageBandReader, _ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>)
        throws(ImageIOError) { try reader.readRows(count, into: buffer) }
}

extension UInt16: BandRowSample {
    public static func readRows(_ reader: any ImageBandReader, _ count: Int, into buffer: UnsafeMutableBufferPointer<UInt16>)
        throws(ImageIOError) { try reader.readRows(count, into: buffer) }
}
