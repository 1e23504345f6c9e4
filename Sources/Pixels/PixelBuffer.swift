/// An image in memory: interleaved RGB or RGBA samples at 8 or 16 bits, rows top to bottom, no padding.
public struct PixelBuffer: Sendable, Equatable {
    /// Bits per sample.
    public enum Depth: Int, Sendable, Codable, CaseIterable {
        case eight = 8
        case sixteen = 16
    }

    /// Samples, in the width of the depth.
    public enum Samples: Sendable, Equatable {
        case eight([UInt8])
        case sixteen([UInt16])
    }

    /// Pixels per row.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// 3 for RGB, 4 for RGBA.
    public let channels: Int
    /// The interleaved samples, `width · height · channels` of them.
    public var samples: Samples

    /// Bits per sample.
    public var depth: Depth {
        if case .eight = samples { return .eight }
        return .sixteen
    }

    /// Wraps samples; the count must be `width · height · channels`.
    public init(width: Int, height: Int, channels: Int, samples: Samples) throws(ImageIOError) {
        guard channels == 3 || channels == 4 else { throw .unsupportedChannels(channels) }
        let count: Int
        switch samples {
        case .eight(let s): count = s.count
        case .sixteen(let s): count = s.count
        }
        guard width > 0, height > 0, count == width * height * channels else {
            throw .sampleCountMismatch(width: width, height: height, channels: channels, found: count)
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    /// A black image of the given shape.
    public init(width: Int, height: Int, channels: Int, depth: Depth) throws(ImageIOError) {
        let n = width * height * channels
        try self.init(width: width, height: height, channels: channels,
                      samples: depth == .eight ? .eight(.init(repeating: 0, count: n))
                                               : .sixteen(.init(repeating: 0, count: n)))
    }

    /// Sample `channel` of pixel `(x, y)` as a fraction of full scale (v/255 or v/65535).
    public func normalized(x: Int, y: Int, channel: Int) -> Float {
        let i = (y * width + x) * channels + channel
        switch samples {
        case .eight(let s): return Float(s[i]) / 255
        case .sixteen(let s): return Float(s[i]) / 65535
        }
    }
}
