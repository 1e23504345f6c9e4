import CWebP
import Foundation
import Pixels

/// WebP reading and writing through libwebp, whole images (libwebp's simple and picture APIs have no row
/// streaming that LookStudio's band pipeline could use; WebP is capped at 16383 × 16383 pixels anyway).
///
/// Lossy and lossless in; lossless (exact, even under transparent alpha) or lossy at a quality out. An ICC profile
/// travels in the ICCP chunk (libwebpmux). WebP holds 8 bits per sample: 16-bit images are rounded to 8.
public enum WebPImage {
    /// Whether a file's bitstream is lossless (VP8L), lossy (VP8), or mixed (animation frames).
    public enum Compression: String, Sendable, Equatable {
        case lossy, lossless, mixed
    }

    /// Reads a WebP file whole, with its ICC profile.
    public static func decode(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> DecodedImage {
        try decode(try InputFile.contents(of: path), name: path, maxPixels: maxPixels)
    }

    /// Decodes WebP bytes; `name` labels errors.
    public static func decode(_ bytes: [UInt8], name: String,
                              maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) -> DecodedImage {
        let features = try features(bytes, name: name, maxPixels: maxPixels)
        let width = Int(features.width), height = Int(features.height)
        let channels = features.has_alpha != 0 ? 4 : 3
        try DecodeBudget.checkWhole(file: name, width: width, height: height, bytesPerPixel: channels,
                                    encodedBytes: bytes.count)
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        let ok = bytes.withUnsafeBufferPointer { input in
            samples.withUnsafeMutableBufferPointer { out -> Bool in
                let stride = Int32(width * channels)
                let result = channels == 4
                    ? WebPDecodeRGBAInto(input.baseAddress, input.count, out.baseAddress, out.count, stride)
                    : WebPDecodeRGBInto(input.baseAddress, input.count, out.baseAddress, out.count, stride)
                return result != nil
            }
        }
        guard ok else { throw .corruptImage(file: name, format: "WebP", detail: "libwebp cannot decode the image") }
        let pixels = try PixelBuffer(width: width, height: height, channels: channels, samples: .eight(samples))
        return DecodedImage(pixels: pixels, color: ColorDescription(iccBytes: iccProfile(bytes)), format: .webp)
    }

    /// What a WebP file holds, from its header alone (no pixel is decoded).
    public static func header(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> ImageInfo {
        let bytes = try InputFile.contents(of: path)
        let features = try features(bytes, name: path, maxPixels: maxPixels)
        return ImageInfo(format: .webp, width: Int(features.width), height: Int(features.height),
                         channels: features.has_alpha != 0 ? 4 : 3, depth: .eight,
                         color: ColorDescription(iccBytes: iccProfile(bytes)))
    }

    /// The bitstream's features from its header, refused over `maxPixels`; `name` labels errors.
    private static func features(_ bytes: [UInt8], name: String,
                                 maxPixels: Int) throws(ImageIOError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        guard bytes.withUnsafeBufferPointer({ lswebp_features($0.baseAddress, $0.count, &features) }) != 0 else {
            throw .corruptImage(file: name, format: "WebP", detail: "libwebp cannot read the header")
        }
        let width = Int(features.width), height = Int(features.height)
        guard width * height <= maxPixels else {
            throw .tooManyPixels(file: name, width: width, height: height, limit: maxPixels)
        }
        return features
    }

    /// The bitstream kind of the WebP file at `path`, from its chunk headers alone; nil when it is no WebP file.
    ///
    /// The bitstream chunk sits behind any ICC profile (VP8X, ICCP, then VP8), so a file's first bytes do not
    /// always say; the walk seeks from header to header instead of reading what lies between.
    public static func compression(path: String) -> Compression? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func bytes(at offset: UInt64, _ count: Int) -> [UInt8]? {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count),
                  data.count == count else { return nil }
            return [UInt8](data)
        }
        guard let riff = bytes(at: 0, 12), riff[0..<4].elementsEqual("RIFF".utf8),
              riff[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        var offset: UInt64 = 12
        // A WebP file holds a handful of chunks before its bitstream; the bound only stops a crafted endless walk.
        for _ in 0..<64 {
            guard let head = bytes(at: offset, 8) else { return nil }
            switch String(decoding: head[0..<4], as: UTF8.self) {
            case "VP8 ": return .lossy
            case "VP8L": return .lossless
            case "ANIM", "ANMF": return .mixed
            default:
                let size = head[4..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                offset += 8 + size + (size & 1)
            }
        }
        return nil
    }

    /// Encodes `image` (16-bit samples rounded to 8) as WebP, lossless or lossy at `quality` (1…100).
    public static func encode(_ image: PixelBuffer, lossless: Bool, quality: Int = JPEGImage.defaultQuality,
                              iccProfile: [UInt8]? = nil, name: String = "WebP image") throws(ImageIOError) -> [UInt8] {
        guard image.width <= Int(WEBP_MAX_DIMENSION), image.height <= Int(WEBP_MAX_DIMENSION) else {
            throw .unsupportedImage(file: name, detail: "WebP holds at most \(WEBP_MAX_DIMENSION) pixels a side; "
                                    + "this image is \(image.width)×\(image.height) (write .png or .tif)")
        }
        let samples = eightBit(image.samples)
        var config = WebPConfig()
        guard lswebp_config(&config, Float(min(max(quality, 0), 100)), lossless ? 1 : 0) != 0 else {
            throw .invalidOptions("WebP quality \(quality) is not accepted")
        }
        var picture = WebPPicture()
        guard lswebp_picture(&picture) != 0 else { throw .outOfMemory(file: name, detail: "WebP picture") }
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let stride = Int32(image.width * image.channels)
        let imported = samples.withUnsafeBufferPointer {
            image.channels == 4 ? WebPPictureImportRGBA(&picture, $0.baseAddress, stride)
                                : WebPPictureImportRGB(&picture, $0.baseAddress, stride)
        }
        guard imported != 0 else { throw .outOfMemory(file: name, detail: "importing pixels into libwebp") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        let encoded = withUnsafeMutablePointer(to: &writer) { w -> Int32 in
            picture.custom_ptr = UnsafeMutableRawPointer(w)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let mem = writer.mem else {
            throw .corruptImage(file: name, format: "WebP", detail: "libwebp could not encode (error \(picture.error_code.rawValue))")
        }
        let bitstream = Array(UnsafeBufferPointer(start: mem, count: writer.size))
        guard let iccProfile, !iccProfile.isEmpty else { return bitstream }
        return try withProfile(bitstream, iccProfile, name: name)
    }

    /// Writes `image` as WebP atomically.
    public static func write(_ image: PixelBuffer, to path: String, lossless: Bool,
                             quality: Int = JPEGImage.defaultQuality, iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        let bytes = try encode(image, lossless: lossless, quality: quality, iccProfile: iccProfile, name: path)
        try AtomicFile.writeImage(bytes, to: path)
    }

    static func eightBit(_ samples: PixelBuffer.Samples) -> [UInt8] {
        switch samples {
        case .eight(let s): return s
        case .sixteen(let s): return s.map { UInt8((UInt32($0) * 255 + 32767) / 65535) }
        }
    }

    static func iccProfile(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            guard let mux = lswebp_mux_create(input.baseAddress, input.count) else { return nil }
            defer { WebPMuxDelete(mux) }
            var chunk = WebPData()
            guard WebPMuxGetChunk(mux, "ICCP", &chunk) == WEBP_MUX_OK, let data = chunk.bytes, chunk.size > 0 else {
                return nil
            }
            return Array(UnsafeBufferPointer(start: data, count: chunk.size))
        }
    }

    private static func withProfile(_ bitstream: [UInt8], _ profile: [UInt8], name: String) throws(ImageIOError)
        -> [UInt8] {
        guard let mux = lswebp_mux_new() else { throw .outOfMemory(file: name, detail: "WebP mux") }
        defer { WebPMuxDelete(mux) }
        var assembled = WebPData()
        let status = bitstream.withUnsafeBufferPointer { image in
            profile.withUnsafeBufferPointer { icc -> WebPMuxError in
                var imageData = WebPData(bytes: image.baseAddress, size: image.count)
                var iccData = WebPData(bytes: icc.baseAddress, size: icc.count)
                var s = WebPMuxSetImage(mux, &imageData, 1)
                if s == WEBP_MUX_OK { s = WebPMuxSetChunk(mux, "ICCP", &iccData, 1) }
                if s == WEBP_MUX_OK { s = WebPMuxAssemble(mux, &assembled) }
                return s
            }
        }
        defer { WebPDataClear(&assembled) }
        guard status == WEBP_MUX_OK, let data = assembled.bytes else {
            throw .corruptImage(file: name, format: "WebP", detail: "libwebpmux could not add the ICC profile")
        }
        return Array(UnsafeBufferPointer(start: data, count: assembled.size))
    }
}

extension WebPImage: ImageCodec {
    public static func encode(_ image: PixelBuffer, to path: String, format: ImageFormat, color: ColorDescription,
                              options: EncoderOptions) throws(ImageIOError) {
        try write(image, to: path, lossless: options.webpLossless, quality: options.effectiveQuality,
                  iccProfile: color.embeddableICC)
    }
}
