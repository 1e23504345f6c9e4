import ColorManagement
import Dispatch
import Foundation
import ImageIO
import LookCore

/// Streams an image from decoder through a cube to encoder in bands of rows, so memory stays bounded.
///
/// PNG, TIFF (libtiff, by strips or rows of tiles) and JPEG (libjpeg's scanlines) on either side stream through
/// `ImageBandReader` / `ImageBandWriter`: decoding is single-threaded, applying the cube and PNG deflate use every
/// core, and encoding runs on its own thread, overlapped with decoding the next band. A run holds two bands (8 MB
/// each by default) however large the image is. WebP, HEIF and AVIF are decoded whole, and so is a JPEG stored with
/// an EXIF orientation other than 1: turning it upright needs every row (a quarter turn makes the first output row
/// from the last column).
/// Colour management (`Options.color`): the input's colour description is read first, and the conversions input →
/// look working space and look → output space are composed into the one cube (`ColorManagedLook`), so applying
/// stays one lookup per pixel. When input, look and output spaces are the same the look is applied as it is, bit
/// for bit; by default the output is in the input's space and keeps its colour description.
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
        /// Things the user should know about this image (a colour description that was partly ignored).
        public var warnings: [String] = []
        /// The input's profile when it differs from the look's working space, so its pixels were converted into
        /// that space for the look (and back, or to the output's space); nil when they were graded as stored.
        public var convertedFrom: ColorConversion?
    }

    /// Settings for a file-to-file run.
    public struct Options: Sendable {
        /// Images with more pixels are refused before anything is allocated.
        public var maxPixels: Int = PNGReader.defaultMaxPixels
        /// Encoder settings for a PNG output; nil picks per image from a trial on its first rows
        /// (`PNGWriteOptions.forPhoto`).
        public var writeOptions: PNGWriteOptions?
        /// Target size of one band in bytes; bands are whole rows. Two bands are in memory at once.
        public var bandBytes: Int = 8 << 20
        /// Cores for the cube stage (nil: all).
        public var threads: Int?
        /// Quality (nil: a JPEG input's own, else the default), TIFF compression (nil: a TIFF input's own, else
        /// LZW) and WebP lossless.
        public var encoder = EncoderOptions()
        /// Look working space, output space and gamut handling.
        public var color = ColorSettings()

        /// Default settings.
        public init() {}
    }

    /// Applies `cube` (a look in `options.color.workingSpace`) to the image at `input`, colour-managed, writing
    /// `output` atomically; returns per-stage timings.
    @discardableResult
    public static func apply(
        _ cube: ColorCube, interpolation: Interpolation = .tetrahedral,
        input: String, output: String, options: Options = Options()
    ) throws -> Timings {
        let look = ColorManagedLook(look: cube, workingSpace: options.color.workingSpace, interpolation: interpolation)
        return try run(input: input, output: output, options: options) { color in
            try prepare(look, color: color, file: input, settings: options.color)
        }
    }

    /// Applies a prepared applier (reuse one across many images) to the image at `input`'s raw codes, writing
    /// `output` with the input's colour description; no colour management. Input by signature, output by extension.
    @discardableResult
    public static func apply(_ applier: CubeApplier, input: String, output: String, options: Options = Options()) throws -> Timings {
        try run(input: input, output: output, options: options) { Prepared(applier: applier, color: $0, warning: nil) }
    }

    /// An image's pixels converted into a look's working space for the look.
    public struct ColorConversion: Sendable, Equatable {
        /// The input's profile, as its description names it.
        public var input: String
        /// The look's working space.
        public var workingSpace: String
    }

    /// What one image is graded with once its colour description is known.
    public struct Prepared: Sendable {
        /// The applier of the one cube every pixel goes through (`applier.cube`: for callers that apply it
        /// themselves, on a GPU).
        public var applier: CubeApplier
        /// The colour description written to the output.
        public var color: ColorDescription
        /// A colour description that was partly ignored.
        public var warning: String?
        /// The conversion into the look's working space, when there is one (a note names it).
        public var conversion: ColorConversion? = nil
    }

    /// The cube for an image described by `color`: input → working space → look → output, composed. The one
    /// colour-management step of every apply and correct, from a file or from memory.
    public static func prepare(_ look: ColorManagedLook, color: ColorDescription, file: String,
                               settings: ColorSettings) throws -> Prepared {
        if settings.rawCodes {
            return Prepared(applier: CubeApplier(cube: look.look, interpolation: look.interpolation), color: color,
                            warning: nil)
        }
        let (inputProfile, warning) = try ImageColor.profile(for: color, file: file)
        let outputProfile: ColorProfile
        let outputColor: ColorDescription
        switch settings.output {
        case .input:
            (outputProfile, outputColor) = (inputProfile, color)
        case .profile(let profile):
            (outputProfile, outputColor) = (profile, ImageColor.description(for: profile))
        }
        let cube = try look.cube(input: inputProfile, output: outputProfile, intent: settings.intent,
                                 gridSize: settings.gridSize)
        let converted = !inputProfile.isEquivalent(to: look.workingSpace)
        return Prepared(applier: CubeApplier(cube: cube, interpolation: look.interpolation), color: outputColor,
                        warning: warning,
                        conversion: converted ? ColorConversion(input: inputProfile.description,
                                                                workingSpace: look.workingSpace.description) : nil)
    }

    private static func run(input: String, output: String, options given: Options,
                            prepare: (ColorDescription) throws -> Prepared) throws -> Timings {
        var options = given
        options.encoder = given.encoder.resolved(forInput: input)
        let outputFormat = try ImageFormat.forOutput(path: output)
        guard try ImageFormat.of(path: input).streams, outputFormat.streams else {
            return try applyWhole(prepare, input: input, output: output, options: options)
        }
        return try applyStreaming(prepare, input: input, output: output, options: options)
    }


    /// The writer for `output`'s format, carrying `color`: a PNG's options come from a trial on `sample` (the first
    /// rows) unless given; a TIFF keeps the input's compression unless told; a JPEG gets the quality.
    private static func makeWriter(output: String, reader: any ImageBandReader, color: ColorDescription,
                                   sample: PixelBuffer, options: Options) throws -> any ImageBandWriter {
        switch try ImageFormat.forOutput(path: output) {
        case .tiff:
            return try TIFFWriter(path: output, width: reader.width, height: reader.height, channels: reader.channels,
                                  depth: reader.depth,
                                  compression: options.encoder.tiffCompression
                                      ?? (reader as? TIFFReader)?.compression ?? .lzw,
                                  iccProfile: color.embeddableICC)
        case .jpeg:
            return try JPEGWriter(path: output, width: reader.width, height: reader.height, channels: reader.channels,
                                  quality: options.encoder.effectiveQuality, subsampling: options.encoder.subsampling,
                                  iccProfile: color.embeddableICC)
        default:
            let chosen = try options.writeOptions ?? PNGWriteOptions.forPhoto(sample: sample)
            return try PNGWriter(path: output, width: reader.width, height: reader.height, channels: reader.channels,
                                 depth: reader.depth, options: chosen, colorMetadata: color.png)
        }
    }

    /// A warning to show when the output loses precision the input had (16-bit PNG or TIFF written as 8-bit).
    public static func depthWarning(input: String, output: String) -> String? {
        guard let format = try? ImageFormat.forOutput(path: output), format != .png, format != .tiff,
              let reader = (try? ImageFormat.bandReader(path: input, maxPixels: .max)) ?? nil,
              reader.depth == .sixteen else { return nil }
        return "\(input) has 16-bit samples; the \(format.rawValue.uppercased()) \(output) keeps 8 bits per sample "
            + "(write .png or .tif to keep 16)"
    }

    private static func applyWhole(_ prepare: (ColorDescription) throws -> Prepared, input: String, output: String,
                                   options: Options) throws -> Timings {
        let start = now()
        var timings = Timings()
        let decoded = try ImageFormat.readImage(path: input, maxPixels: options.maxPixels)
        var image = decoded.pixels
        var t = now()
        timings.decode = t - start
        let prepared = try prepare(decoded.color)
        let applier = prepared.applier
        timings.warnings += prepared.warning.map { [$0] } ?? []
        timings.convertedFrom = prepared.conversion
        // The image's own reference is dropped before writing, so `s` is the array's only owner and the cube is
        // applied in place rather than to a copy-on-write duplicate of the whole image.
        switch image.samples {
        case .eight(var s):
            image.samples = .eight([])
            try s.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: image.channels, threads: options.threads) }
            image.samples = .eight(s)
        case .sixteen(var s):
            image.samples = .sixteen([])
            try s.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: image.channels, threads: options.threads) }
            image.samples = .sixteen(s)
        }
        timings.apply = now() - t
        t = now()
        try ImageFormat.write(image, to: output, color: prepared.color, options: options.encoder)
        timings.encode = now() - t
        timings.wall = now() - start
        return timings
    }

    private static func applyStreaming(_ prepare: (ColorDescription) throws -> Prepared, input: String,
                                       output: String, options: Options) throws -> Timings {
        guard let reader = try ImageFormat.bandReader(path: input, maxPixels: options.maxPixels) else {
            return try applyWhole(prepare, input: input, output: output, options: options)
        }
        let prepared = try prepare(reader.color)
        var timings: Timings
        switch reader.depth {
        case .eight: timings = try stream(UInt8.self, reader: reader, prepared: prepared, output: output, options: options)
        case .sixteen: timings = try stream(UInt16.self, reader: reader, prepared: prepared, output: output, options: options)
        }
        timings.warnings += prepared.warning.map { [$0] } ?? []
        timings.convertedFrom = prepared.conversion
        return timings
    }

    /// Decodes and applies band k+1 on this thread (the cube on every core) while band k is deflated on an encoder
    /// thread: deflate is the slowest stage, so overlapping hides decode and apply behind it. Two band buffers
    /// alternate; a buffer is refilled only after the encoder has released it.
    private static func stream<Sample: BandSample>(
        _: Sample.Type, reader: any ImageBandReader, prepared: Prepared, output: String, options: Options
    ) throws -> Timings {
        let applier = prepared.applier
        let start = now()
        let info = (width: reader.width, height: reader.height, channels: reader.channels)
        let rowSamples = info.width * info.channels
        let bandRows = max(1, min(info.height, options.bandBytes / max(1, rowSamples * MemoryLayout<Sample>.size)))
        let buffers = (0..<2).map { _ in UnsafeMutableBufferPointer<Sample>.allocate(capacity: bandRows * rowSamples) }
        defer { buffers.forEach { $0.deallocate() } }
        let released = buffers.map { _ in DispatchSemaphore(value: 1) }
        let encoder = DispatchQueue(label: "lookstudio.png-encoder")
        // Runs before the buffers are freed, on every exit path: no encode may still be using them.
        defer { encoder.sync {} }
        let state = Locked(EncoderState())
        var writer: (any ImageBandWriter)?
        var timings = Timings()
        var done = 0
        var band = 0
        while done < info.height {
            let n = min(bandRows, info.height - done)
            let slot = band % 2
            released[slot].wait()
            // Until the band is handed to the encoder this thread holds the slot; any throw (the writer cannot be
            // created, a row cannot be read) gives it back, since libdispatch traps on disposing a semaphore whose
            // value is below its initial one.
            var handedOff = false
            defer { if !handedOff { released[slot].signal() } }
            if let failure = state.current.failure { throw failure }
            let rows = UnsafeMutableBufferPointer(rebasing: buffers[slot][0..<(n * rowSamples)])
            var t = now()
            try Sample.readRows(reader, n, into: rows)
            timings.decode += now() - t
            t = now()
            try Sample.apply(applier, to: rows, channels: info.channels, threads: options.threads)
            timings.apply += now() - t
            if writer == nil {
                t = now()
                let sampleRows = min(n, 64)
                let sample = try PixelBuffer(width: info.width, height: sampleRows, channels: info.channels,
                                             samples: Sample.samples(UnsafeBufferPointer(rebasing: rows[0..<(sampleRows * rowSamples)])))
                writer = try makeWriter(output: output, reader: reader, color: prepared.color, sample: sample,
                                        options: options)
                timings.encode += now() - t
            }
            nonisolated(unsafe) let pending = UnsafeBufferPointer(rows)
            nonisolated(unsafe) let target = writer
            let release = released[slot]
            handedOff = true
            encoder.async {
                defer { release.signal() }
                guard state.current.failure == nil, let target else { return }
                let t = now()
                do {
                    try Sample.write(target, pending)
                } catch {
                    state.withLock { if $0.failure == nil { $0.failure = error } }
                }
                state.withLock { $0.seconds += now() - t }
            }
            done += n
            band += 1
        }
        encoder.sync {}
        if let failure = state.current.failure { throw failure }
        let t = now()
        try writer?.finish()
        timings.encode += state.current.seconds + now() - t
        timings.wall = now() - start
        return timings
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// The encoder thread's outcome, read by the decoding thread.
private struct EncoderState {
    var failure: (any Error)?
    var seconds = 0.0
}

/// The two sample widths a band can have; lets one streaming loop serve 8- and 16-bit images.
protocol BandSample: BandRowSample, Sendable {
    static func apply(_ applier: CubeApplier, to buffer: UnsafeMutableBufferPointer<Self>, channels: Int,
                      threads: Int?) throws
    static func write(_ writer: any ImageBandWriter, _ buffer: UnsafeBufferPointer<Self>) throws
    static func samples(_ buffer: UnsafeBufferPointer<Self>) -> PixelBuffer.Samples
}

extension UInt8: BandSample {
    static func apply(_ applier: CubeApplier, to buffer: UnsafeMutableBufferPointer<UInt8>, channels: Int,
                      threads: Int?) throws {
        try applier.apply(to: buffer, channels: channels, threads: threads)
    }
    static func write(_ writer: any ImageBandWriter, _ buffer: UnsafeBufferPointer<UInt8>) throws {
        try writer.writeRows(buffer)
    }
    static func samples(_ buffer: UnsafeBufferPointer<UInt8>) -> PixelBuffer.Samples { .eight(Array(buffer)) }
}

extension UInt16: BandSample {
    static func apply(_ applier: CubeApplier, to buffer: UnsafeMutableBufferPointer<UInt16>, channels: Int,
                      threads: Int?) throws {
        try applier.apply(to: buffer, channels: channels, threads: threads)
    }
    static func write(_ writer: any ImageBandWriter, _ buffer: UnsafeBufferPointer<UInt16>) throws {
        try writer.writeRows(buffer)
    }
    static func samples(_ buffer: UnsafeBufferPointer<UInt16>) -> PixelBuffer.Samples { .sixteen(Array(buffer)) }
}
