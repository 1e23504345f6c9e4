import ColorManagement
import ImageIO

/// The sample types an image holds: `UInt8` and `UInt16` (native-endian).
public protocol PixelSample: FixedWidthInteger, UnsignedInteger, Sendable {}
extension UInt8: PixelSample {}
extension UInt16: PixelSample {}

/// An image in a Swift array — interleaved RGB or RGBA samples, rows back to back — with its ICC profile (nil:
/// sRGB). The convenient form for Swift callers; `Image` wraps memory the caller manages itself.
public struct Pixels<Sample: PixelSample>: Sendable, Equatable {
    /// The samples, `width · height · channels` of them.
    public var samples: [Sample]
    /// Pixels per row, rows, and channels (3 or 4).
    public let width: Int, height: Int, channels: Int
    /// The ICC profile the samples are encoded in (nil: sRGB).
    public var icc: [UInt8]?

    /// Checks that `samples` holds `width · height · channels` values.
    public init(samples: [Sample], width: Int, height: Int, channels: Int, icc: [UInt8]? = nil)
        throws(LookStudioError) {
        let (wh, o1) = width.multipliedReportingOverflow(by: height)
        let (count, o2) = wh.multipliedReportingOverflow(by: channels)
        guard width > 0, height > 0, channels == 3 || channels == 4, !o1, !o2, samples.count == count else {
            throw LookStudioError(.invalidArgument, "\(samples.count) samples do not make a \(width)×\(height) image "
                                  + "with \(channels) channels (3 or 4)")
        }
        self.samples = samples
        self.width = width
        self.height = height
        self.channels = channels
        self.icc = icc
    }

    /// Runs `body` with an `Image` over the samples (read only: an input).
    func withImage<T>(_ body: (Image) throws(LookStudioError) -> T) throws(LookStudioError) -> T {
        let bytes = width * channels * MemoryLayout<Sample>.size
        let result: Result<T, LookStudioError> = samples.withUnsafeBytes { raw in
            Result { () throws(LookStudioError) in
                // Never written: an input image is only read.
                let base = UnsafeMutableRawPointer(mutating: raw.baseAddress)
                return try body(try Image(pixels: base, width: width, height: height, channels: channels,
                                          bits: Sample.bitWidth, rowBytes: bytes, icc: icc))
            }
        }
        return try result.get()
    }
}

extension Engine {
    /// `pixels` rendered with `params` (the look alone without an analysis, the correction with one), as new
    /// pixels of the same shape, with the output's ICC profile.
    public func apply<Sample>(_ params: Params, to pixels: Pixels<Sample>,
                              analysis: Analysis? = nil) throws(LookStudioError) -> Pixels<Sample> {
        var out = pixels
        out.icc = params.output.named.map { ColorProfile($0).data } ?? pixels.icc
        let bytes = pixels.width * pixels.channels * MemoryLayout<Sample>.size
        let result: Result<Void, LookStudioError> = out.samples.withUnsafeMutableBytes { target in
            Result { () throws(LookStudioError) in
                let output = try Image(pixels: target.baseAddress, width: pixels.width, height: pixels.height,
                                       channels: pixels.channels, bits: Sample.bitWidth, rowBytes: bytes)
                try pixels.withImage { (input) throws(LookStudioError) in
                    try apply(params, to: input, analysis: analysis, into: output)
                }
            }
        }
        try result.get()
        return out
    }

    /// Analyses `pixels` once, for any number of applies.
    public func detect<Sample>(_ pixels: Pixels<Sample>) throws(LookStudioError) -> Analysis {
        try pixels.withImage { (image) throws(LookStudioError) in try detect(image) }
    }
}

extension Pixels {
    /// Decodes an image file (PNG, JPEG, TIFF, WebP, HEIF, AVIF) as LookStudio reads it, with its ICC profile; an
    /// image whose samples are not `Sample`'s width (a 16-bit PNG read as `Pixels<UInt8>`) is refused.
    public static func read(file: String) throws(LookStudioError) -> Pixels<Sample> {
        let decoded = try classified { try ImageFormat.readImage(path: file) }
        let image = decoded.pixels
        let samples: [Sample]? = switch image.samples {
        case .eight(let s): s as? [Sample]
        case .sixteen(let s): s as? [Sample]
        }
        guard let samples else {
            throw LookStudioError(.invalidArgument, "\(file) has \(image.depth.rawValue)-bit samples; read it as "
                                  + "Pixels<UInt\(image.depth.rawValue)>")
        }
        return try Pixels(samples: samples, width: image.width, height: image.height, channels: image.channels,
                          icc: decoded.color.iccProfile?.data)
    }

    /// Writes the pixels, with their ICC profile, in the format the file's extension names.
    public func write(file: String) throws(LookStudioError) {
        let buffer: PixelBuffer.Samples = Sample.self == UInt8.self
            ? .eight(samples.map { UInt8(truncatingIfNeeded: $0) })
            : .sixteen(samples.map { UInt16(truncatingIfNeeded: $0) })
        try classified {
            let image = try PixelBuffer(width: width, height: height, channels: channels, samples: buffer)
            try ImageFormat.write(image, to: file, color: ColorDescription(iccBytes: icc))
        }
    }
}
