import Dispatch
import ImageIO
import LookCore

/// Streams an image from decoder through a cube to encoder in bands of rows, so memory stays bounded.
///
/// Decoding and encoding are single-threaded in libpng; applying the cube uses every core. Memory is about three
/// bands (one being decoded, one being applied, one being encoded) however large the image is.
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

    /// Applies a prepared applier (reuse one across many images) to the PNG at `input`, writing `output`.
    @discardableResult
    public static func apply(_ applier: CubeApplier, input: String, output: String, options: Options = Options()) throws -> Timings {
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
