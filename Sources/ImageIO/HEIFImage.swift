import CHeif
import Foundation
import Pixels

/// HEIF (HEVC) and AVIF (AV1) through libheif, whole images: libheif decodes and encodes whole pictures.
///
/// In: the primary image, 8-bit files as 8-bit RGB(A), 10- and 12-bit files as 16-bit RGB(A) (scaled to full range),
/// with the ICC profile or, failing that, the nclx colour code points. Out: 8-bit RGB(A) with the ICC profile,
/// when libheif has an encoder for the format (Debian's links x265 for HEVC and libaom for AV1).
public enum HEIFImage {
    /// libheif initialises itself lazily on first use, which is not thread-safe (its documentation says to call
    /// `heif_init` first); parallel decodes crashed the test run without this.
    private static let initialised: Bool = heif_init(nil).code == heif_error_Ok

    /// Encoders (x265, libaom) are created one at a time: their global setup is not safe to run concurrently.
    private static let encoderLock = NSLock()

    /// libheif's own default side limit; the pixel limit only ever lowers it.
    private static let maxSide = 32768

    /// Derived images (grid, identity, overlay) within derived images: cameras nest two levels (a rotation of a grid
    /// of tiles, each with an alpha plane at most one more); eight leaves room and bounds libheif's recursion.
    static let maxDerivationDepth = 8

    /// Reads the primary image of a HEIF or AVIF file.
    public static func decode(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> DecodedImage {
        try decode(try InputFile.contents(of: path), name: path, format: ImageFormat.of(path: path),
                   maxPixels: maxPixels)
    }

    /// A libheif error's own message, trimmed, or its code when it has none.
    private static func text(of error: heif_error) -> String {
        (error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Decodes HEIF/AVIF bytes; `name` labels errors.
    public static func decode(_ bytes: [UInt8], name: String, format: ImageFormat = .heif,
                              maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError) -> DecodedImage {
        switch try open(bytes, name: name, format: format, maxPixels: maxPixels, headerOnly: false) {
        case .image(let image): return image
        case .header: throw .corruptImage(file: name, format: "HEIF", detail: "no decoded image")
        }
    }

    /// What a HEIF or AVIF file holds, from its headers (the file's boxes) without decoding a picture.
    public static func header(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> ImageInfo {
        let bytes = try InputFile.contents(of: path)
        switch try open(bytes, name: path, format: ImageFormat.of(path: path), maxPixels: maxPixels, headerOnly: true) {
        case .header(let info): return info
        case .image(let image):
            return ImageInfo(format: image.format, width: image.pixels.width, height: image.pixels.height,
                             channels: image.pixels.channels, depth: image.pixels.depth, color: image.color)
        }
    }

    /// A header read, or a picture decoded.
    private enum Opened {
        case header(ImageInfo)
        case image(DecodedImage)
    }

    private static func open(_ bytes: [UInt8], name: String, format: ImageFormat, maxPixels: Int,
                             headerOnly: Bool) throws(ImageIOError) -> Opened {
        _ = initialised
        // libheif reads from this memory for the context's whole life, so it outlives every use below.
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        defer { raw.deallocate() }
        raw.copyBytes(from: bytes)
        guard let context = heif_context_alloc() else { throw .outOfMemory(file: name, detail: "HEIF context") }
        defer { heif_context_free(context) }
        let file = HEIFFile(name: name, label: format == .avif ? "AVIF" : "HEIF", maxPixels: maxPixels)
        // libheif checks every item's declared size ('ispe') against this side limit while it reads the file, tiles
        // included; it never raises libheif's own default, measured at 32768.
        heif_context_set_maximum_image_size_limit(context, Int32(min(maxPixels, maxSide)))
        try file.check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, bytes.count, nil),
                       "libheif cannot read the file")
        var handle: OpaquePointer?
        try file.check(heif_context_get_primary_image_handle(context, &handle), "no primary image")
        guard let handle else { throw .corruptImage(file: name, format: file.label, detail: "no primary image") }
        defer { heif_image_handle_release(handle) }
        let (width, height) = try checkPrimary(context, handle, bytes: bytes, file: file)
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        let wide = bits > 8
        let channels = alpha ? 4 : 3
        if headerOnly {
            // libheif gives -1 bits when the file does not say; such a picture is decoded to 8 bits.
            let stored = StoredFormat(colorType: alpha ? .rgba : .rgb, bitDepth: bits > 0 ? bits : 8)
            return .header(ImageInfo(format: format, width: width, height: height, channels: channels,
                                     depth: wide ? .sixteen : .eight, color: colorDescription(handle),
                                     stored: stored))
        }
        // libheif's decoded planes plus this copy of them, at the delivered sample width.
        try DecodeBudget.checkWhole(file: name, width: width, height: height,
                                    bytesPerPixel: 2 * channels * (wide ? 2 : 1), encodedBytes: bytes.count)
        let pixels = try decodePixels(handle, width: width, height: height, channels: channels, bits: bits,
                                      file: file)
        return .image(DecodedImage(pixels: pixels, color: colorDescription(handle), format: format))
    }

    /// One file's errors from libheif: its name, its container for messages, and the pixel limit a security limit
    /// comes from.
    private struct HEIFFile {
        let name: String
        let label: String
        let maxPixels: Int

        /// Throws `error` as this file's, unless it is libheif's "OK".
        func check(_ error: heif_error, _ what: String) throws(ImageIOError) {
            guard error.code != heif_error_Ok else { return }
            let message = text(of: error)
            if error.subcode == heif_suberror_Security_limit_exceeded {
                throw .sideOverLimit(file: name, detail: "\(what): \(message)", maxSide: maxSide)
            }
            throw .corruptImage(file: name, format: label, detail: "\(what): \(message)")
        }
    }

    /// The primary image's size, refused over the pixel limit or when its derivations (grids, overlays) go deeper
    /// or decode more images than a photo has; the context's side limit is lowered to what that size can decode to.
    private static func checkPrimary(_ context: OpaquePointer, _ handle: OpaquePointer, bytes: [UInt8],
                                     file: HEIFFile) throws(ImageIOError) -> (width: Int, height: Int) {
        let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
        guard width > 0, height > 0 else {
            throw .corruptImage(file: file.name, format: file.label, detail: "no image size")
        }
        guard width * height <= file.maxPixels else {
            throw .tooManyPixels(file: file.name, width: width, height: height, limit: file.maxPixels)
        }
        // libheif checks a grid's or overlay's canvas, which it reads from the item's data rather than 'ispe', against
        // the side limit only when it decodes: a fuzz finding declared a 24×16 grid whose descriptor, read at a
        // damaged offset, asked for canvases of 400 MB a plane. A real canvas is the item's 'ispe' size (cropping and
        // rotation come after it), so the limit drops to what that size can legitimately decode to, never rising.
        let ispeSide = max(Int(heif_image_handle_get_ispe_width(handle)),
                           Int(heif_image_handle_get_ispe_height(handle)), width, height)
        heif_context_set_maximum_image_size_limit(context,
                                                  Int32(min(file.maxPixels, maxSide, codedSideLimit(ispeSide))))
        var primary: heif_item_id = 0
        try file.check(heif_context_get_primary_image_ID(context, &primary), "no primary image")
        // Tiles together cover the declared size: more decodes than one per 64×64 pixels (HEVC's largest coding
        // unit; cameras write 512×512 tiles), plus a margin for alpha and depth planes, is no photo.
        let maxImages = 64 + width * height / 4096
        if let problem = HEIFDerivation(bytes: bytes).problem(decoding: primary, maxDepth: maxDerivationDepth,
                                                              maxImages: maxImages) {
            throw .corruptImage(file: file.name, format: file.label, detail: HEIFDerivation.describe(problem))
        }
        return (width, height)
    }

    /// The primary image decoded to interleaved RGB(A) at 8 bits, or at 16 for a deeper image.
    private static func decodePixels(_ handle: OpaquePointer, width: Int, height: Int, channels: Int, bits: Int,
                                     file: HEIFFile) throws(ImageIOError) -> PixelBuffer {
        let wide = bits > 8, alpha = channels == 4
        let chroma = wide ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                          : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var image: OpaquePointer?
        let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil)
        if decoded.subcode == heif_suberror_Security_limit_exceeded {
            throw .corruptImage(file: file.name, format: file.label, detail: "a grid or overlay canvas is larger "
                + "than the \(width)×\(height) image it makes (\(text(of: decoded))); the file is damaged or hostile")
        }
        try file.check(decoded, "libheif cannot decode it")
        guard let image else { throw .corruptImage(file: file.name, format: file.label, detail: "no decoded image") }
        defer { heif_image_release(image) }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .corruptImage(file: file.name, format: file.label, detail: "the decoded image has no pixels")
        }
        let rowSamples = width * channels
        // A damaged file can declare one size in its header and decode to another: the copy below trusts only a
        // plane that matches what was declared (found by the heif fuzz target as a heap overflow).
        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        let decodedBits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        guard decodedWidth == width, decodedHeight == height, (decodedBits > 8) == wide,
              Int(stride) >= rowSamples * (wide ? 2 : 1) else {
            throw .corruptImage(file: file.name, format: file.label,
                                detail: "the header declares \(width)×\(height) at \(bits) bits but the image decodes "
                                    + "to \(decodedWidth)×\(decodedHeight) at \(decodedBits) bits")
        }
        let samples: PixelBuffer.Samples
        if wide {
            // Little-endian samples at the decoded depth (0…2^bits − 1), scaled to 0…65535 with rounding. A damaged
            // stream can hold values past its depth, or declare another depth in its header (a fuzz finding: the
            // conversion trapped): scale by what was decoded and clamp.
            let top = UInt32((1 << min(decodedBits, 16)) - 1)
            var out = [UInt16](repeating: 0, count: rowSamples * height)
            for y in 0..<height {
                let row = plane + y * Int(stride)
                for i in 0..<rowSamples {
                    let v = min(UInt32(row[2 * i]) | UInt32(row[2 * i + 1]) << 8, top)
                    out[y * rowSamples + i] = UInt16((v * 65535 + top / 2) / top)
                }
            }
            samples = .sixteen(out)
        } else {
            var out = [UInt8](repeating: 0, count: rowSamples * height)
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    (o.baseAddress! + y * rowSamples).update(from: plane + y * Int(stride), count: rowSamples)
                }
            }
            samples = .eight(out)
        }
        return try PixelBuffer(width: width, height: height, channels: channels, samples: samples)
    }

    /// The side limit for a picture whose declared longer side is `side`: libheif refuses a side equal to its limit or
    /// above. Codecs code whole blocks and libheif (from Debian's 1.15.1-1+deb12u2 on) checks the coded size, not the
    /// declared one: HEVC pads to its coding tree blocks (up to 64 samples) and libheif's x265 encoder pads pictures
    /// smaller than one block up to 64×64 (a 40×30 HEIC is coded 64×64, a 1080×1350 one 1080×1352); AV1's
    /// superblocks are up to 128. The side rounded up to 128 keeps every such picture and still refuses a damaged
    /// grid descriptor asking for a canvas of thousands of samples a side on a picture of tens.
    static func codedSideLimit(_ side: Int) -> Int {
        let block = 128
        return (max(side, 1) + block - 1) / block * block + 1
    }

    private static func colorDescription(_ handle: OpaquePointer) -> ColorDescription {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 {
            var icc = [UInt8](repeating: 0, count: size)
            if heif_image_handle_get_raw_color_profile(handle, &icc).code == heif_error_Ok {
                return ColorDescription(iccBytes: icc)
            }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let n = nclx {
            defer { heif_nclx_color_profile_free(n) }
            return ColorDescription(codePoints: .init(primaries: Int(n.pointee.color_primaries.rawValue),
                                                      transfer: Int(n.pointee.transfer_characteristics.rawValue),
                                                      matrix: Int(n.pointee.matrix_coefficients.rawValue),
                                                      fullRange: n.pointee.full_range_flag != 0))
        }
        return ColorDescription()
    }

    /// Whether libheif here can encode `format` (.heif: HEVC, .avif: AV1).
    public static func canEncode(_ format: ImageFormat) -> Bool {
        _ = initialised
        encoderLock.lock()
        defer { encoderLock.unlock() }
        guard let context = heif_context_alloc() else { return false }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        let ok = heif_context_get_encoder_for_format(context, compression(format), &encoder).code == heif_error_Ok
        if let encoder { heif_encoder_release(encoder) }
        return ok && encoder != nil
    }

    /// Writes `image` (16-bit rounded to 8) as HEIF or AVIF at `quality` (0…100), atomically.
    public static func write(_ image: PixelBuffer, to path: String, format: ImageFormat, quality: Int,
                             iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        _ = initialised
        encoderLock.lock()
        defer { encoderLock.unlock() }
        guard let context = heif_context_alloc() else { throw .outOfMemory(file: path, detail: "HEIF context") }
        defer { heif_context_free(context) }
        let label = format == .avif ? "AVIF" : "HEIF"
        func check(_ error: heif_error, _ what: String) throws(ImageIOError) {
            guard error.code != heif_error_Ok else { return }
            throw .corruptImage(file: path, format: label, detail: "\(what): \(text(of: error))")
        }
        var encoder: OpaquePointer?
        guard heif_context_get_encoder_for_format(context, compression(format), &encoder).code == heif_error_Ok,
              let encoder else {
            throw .unsupportedImage(file: path, detail: "this libheif has no \(label) encoder (write .png, .tif or .jpg)")
        }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(min(max(quality, 0), 100))), "quality")
        if format == .avif { _ = heif_encoder_set_parameter(encoder, "speed", "6") }
        var picture: OpaquePointer?
        let alpha = image.channels == 4
        try check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB,
                                    alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &picture),
                  "cannot create the picture")
        guard let picture else { throw .outOfMemory(file: path, detail: "HEIF picture") }
        defer { heif_image_release(picture) }
        try check(heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8),
                  "cannot add the pixel plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride) else {
            throw .outOfMemory(file: path, detail: "HEIF plane")
        }
        let samples = WebPImage.eightBit(image.samples)
        let rowSamples = image.width * image.channels
        samples.withUnsafeBufferPointer { s in
            for y in 0..<image.height {
                (plane + y * Int(stride)).update(from: s.baseAddress! + y * rowSamples, count: rowSamples)
            }
        }
        if let iccProfile, !iccProfile.isEmpty {
            try check(heif_image_set_raw_color_profile(picture, "prof", iccProfile, iccProfile.count), "ICC profile")
        }
        try check(heif_context_encode_image(context, picture, encoder, nil, nil), "cannot encode")
        // `heif_context_write_to_file` ignores its stream's failures (a full disk left a 0-byte file and reported
        // success), so the file is collected in memory and written with checked write(2) calls.
        let bytes = try serialise(context, path: path, label: label)
        try AtomicFile.writeImage(bytes, to: path)
    }

    /// The encoded file's bytes, gathered through libheif's writer callback.
    private static func serialise(_ context: OpaquePointer, path: String, label: String) throws(ImageIOError)
        -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data, size > 0 {
                sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        let result = withExtendedLifetime(sink) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard result.code == heif_error_Ok else {
            throw .corruptImage(file: path, format: label, detail: "cannot write: \(text(of: result))")
        }
        return sink.bytes
    }

    private static func compression(_ format: ImageFormat) -> heif_compression_format {
        format == .avif ? heif_compression_AV1 : heif_compression_HEVC
    }

    /// The format an ISO-BMFF `ftyp` box's major brand names, or nil when it is not HEIF/AVIF.
    static func format(brand: [UInt8]) -> ImageFormat? {
        switch String(decoding: brand, as: UTF8.self) {
        case "avif", "avis": return .avif
        case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1": return .heif
        default: return nil
        }
    }
}

extension HEIFImage: ImageCodec {
    public static func encode(_ image: PixelBuffer, to path: String, format: ImageFormat, color: ColorDescription,
                              options: EncoderOptions) throws(ImageIOError) {
        try write(image, to: path, format: format, quality: options.effectiveQuality, iccProfile: color.embeddableICC)
    }
}
