import Dispatch
import ImageIO
import LookCore

/// Streams an image from decoder through a cube to encoder in bands of rows, so memory stays bounded.
///
/// Decoding and encoding are single-threaded in libpng; applying the cube uses every core. PNG to PNG holds one
/// band (decoded, applied and encoded in place) however large the image is. When JPEG is on either side the image
/// is held whole (TurboJPEG 2.1 decodes and encodes whole images): 3 bytes a pixel plus the compressed file.
public enum ImagePipeline {
    /// Time spent in each stage of one run, in seconds (stages overlap, so they may add up to more than wall).
    public struct Timings: Sendable, Equatable {
        /// Reading and inflating rows.
        public var decode: Double = 0
        /// Looking every pixel up in the cube.
        public var apply: Double = 0
        /// Filtering, deflating and writing rows.
        public var encode: Double = 0
        /// Start to finish.
        public var wall: Double = 0
    }

    /// Settings for a file-to-file run.
    public struct Options: Sendable {
        /// Images with more pixels are refused before anything is allocated.
        public var maxPixels: Int = PNGReader.defaultMaxPixels
        /// Encoder settings for the output.
        public var writeOptions: PNGWriteOptions = .photo
        /// Target size of one band in bytes; bands are whole rows.
        public var bandBytes: Int = 8 << 20
        /// Cores for the cube stage (nil: all).
        public var threads: Int?
        /// JPEG encoder quality, 1…100, when the output is a JPEG.
        public var jpegQuality: Int = JPEGImage.defaultQuality

        /// Default settings.
        public init() {}
    }

    /// Applies `cube` to the PNG at `input`, writing `output` atomically; returns per-stage timings.
    @discardableResult
    public static func apply(
        _ cube: ColorCube, interpolation: Interpolation = .tetrahedral,
        input: String, output: String, options: Options = Options()
    ) throws -> Timings {
        try apply(CubeApplier(cube: cube, interpolation: interpolation), input: input, output: output, options: options)
    }

    /// Applies a prepared applier (reuse one across many images) to the image at `input`, writing `output`; PNG
    /// and JPEG on either side (input by signature, output by extension).
    @discardableResult
    public static func apply(_ applier: CubeApplier, input: String, output: String, options: Options = Options()) throws -> Timings {
        let outputFormat = try ImageFormat.forOutput(path: output)
        guard try ImageFormat.of(path: input) == .png, outputFormat == .png else {
            return try applyWhole(applier, input: input, output: output, options: options)
        }
        return try applyStreaming(applier, input: input, output: output, options: options)
    }

    /// A warning to show when the output loses precision the input had (16-bit PNG written as 8-bit JPEG).
    public static func depthWarning(input: String, output: String) -> String? {
        guard (try? ImageFormat.forOutput(path: output)) == .jpeg, (try? ImageFormat.of(path: input)) == .png,
              let reader = try? PNGReader(path: input), reader.info.depth == .sixteen else { return nil }
        return "\(input) has 16-bit samples; the JPEG \(output) keeps 8 bits per sample (write .png to keep 16)"
    }

    private static func applyWhole(_ applier: CubeApplier, input: String, output: String,
                                   options: Options) throws -> Timings {
        let start = now()
        var timings = Timings()
        var (image, profile) = try ImageFormat.read(path: input, maxPixels: options.maxPixels)
        var t = now()
        timings.decode = t - start
        switch image.samples {
        case .eight(var s):
            try s.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: image.channels, threads: options.threads) }
            image.samples = .eight(s)
        case .sixteen(var s):
            try s.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: image.channels, threads: options.threads) }
            image.samples = .sixteen(s)
        }
        timings.apply = now() - t
        t = now()
        try ImageFormat.write(image, to: output, jpegQuality: options.jpegQuality, iccProfile: profile)
        timings.encode = now() - t
        timings.wall = now() - start
        return timings
    }

    private static func applyStreaming(_ applier: CubeApplier, input: String, output: String,
                                       options: Options) throws -> Timings {
        let start = now()
        var timings = Timings()
        let reader = try PNGReader(path: input, maxPixels: options.maxPixels)
        let info = reader.info
        let writer = try PNGWriter(path: output, width: info.width, height: info.height, channels: info.channels,
                                   depth: info.depth, options: options.writeOptions)
        let bytesPerRow = info.width * info.channels * (info.depth == .eight ? 1 : 2)
        let bandRows = max(1, min(info.height, options.bandBytes / max(1, bytesPerRow)))
        switch info.depth {
        case .eight:
            var band = [UInt8](repeating: 0, count: bandRows * info.width * info.channels)
            try band.withUnsafeMutableBufferPointer { buffer in
                try stream(rows: info.height, bandRows: bandRows, samplesPerRow: info.width * info.channels,
                           timings: &timings,
                           read: { n in try reader.readRows(n, into: buffer) },
                           apply: { n in
                               try applier.apply(to: UnsafeMutableBufferPointer(rebasing: buffer[0..<(n * info.width * info.channels)]),
                                                 channels: info.channels, threads: options.threads) },
                           write: { n in try writer.writeRows(UnsafeBufferPointer(rebasing: buffer[0..<(n * info.width * info.channels)])) })
            }
        case .sixteen:
            var band = [UInt16](repeating: 0, count: bandRows * info.width * info.channels)
            try band.withUnsafeMutableBufferPointer { buffer in
                try stream(rows: info.height, bandRows: bandRows, samplesPerRow: info.width * info.channels,
                           timings: &timings,
                           read: { n in try reader.readRows(n, into: buffer) },
                           apply: { n in
                               try applier.apply(to: UnsafeMutableBufferPointer(rebasing: buffer[0..<(n * info.width * info.channels)]),
                                                 channels: info.channels, threads: options.threads) },
                           write: { n in try writer.writeRows(UnsafeBufferPointer(rebasing: buffer[0..<(n * info.width * info.channels)])) })
            }
        }
        let t = now()
        try writer.finish()
        timings.encode += now() - t
        timings.wall = now() - start
        return timings
    }

    private static func stream(
        rows: Int, bandRows: Int, samplesPerRow: Int, timings: inout Timings,
        read: (Int) throws -> Void, apply: (Int) throws -> Void, write: (Int) throws -> Void
    ) throws {
        var done = 0
        while done < rows {
            let n = min(bandRows, rows - done)
            var t = now()
            try read(n)
            timings.decode += now() - t
            t = now()
            try apply(n)
            timings.apply += now() - t
            t = now()
            try write(n)
            timings.encode += now() - t
            done += n
        }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
