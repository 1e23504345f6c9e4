import CTurboJPEG
import Foundation

/// A decoded JPEG: upright 8-bit RGB pixels and the metadata worth carrying to the output.
public struct JPEGDecoded: Sendable, Equatable {
    /// Upright RGB pixels (the EXIF orientation has been applied).
    public var pixels: PixelBuffer
    /// The orientation the file was stored in (already applied to `pixels`).
    public var storedOrientation: Int
    /// The embedded ICC profile, to copy to the output.
    public var iccProfile: [UInt8]?
}

/// Whole-image JPEG reading and writing through libjpeg-turbo.
///
/// JPEG is decoded whole, not in bands: TurboJPEG 2.1 has no scanline API, and a JPEG's 8-bit YCbCr data is at
/// most a third of the RGB size anyway. Output is written without an EXIF orientation (pixels are already
/// upright), with the input's ICC profile when one is given.
public enum JPEGImage {
    /// Default encoder quality (ImageMagick's is 92 too).
    public static let defaultQuality = 92

    /// Reads a JPEG file, upright.
    public static func read(path: String, maxPixels: Int = PNGReader.defaultMaxPixels) throws(ImageIOError)
        -> JPEGDecoded {
        var data = try readFile(path)
        return try decodeReleasing(&data, name: path, maxPixels: maxPixels, minLongSide: nil)
    }

    /// Reads a JPEG file at a reduced size: DCT scaling (1/2, 1/4, 1/8) to the smallest size whose long side is
    /// still at least `minLongSide` (or full size), which costs far less than decoding whole and shrinking.
    public static func read(path: String, minLongSide: Int, maxPixels: Int = PNGReader.defaultMaxPixels)
        throws(ImageIOError) -> JPEGDecoded {
        var data = try readFile(path)
        return try decodeReleasing(&data, name: path, maxPixels: maxPixels, minLongSide: minLongSide)
    }

    /// Decodes JPEG bytes; `name` labels errors.
    public static func decode(_ data: [UInt8], name: String, maxPixels: Int = PNGReader.defaultMaxPixels,
                              minLongSide: Int? = nil) throws(ImageIOError) -> JPEGDecoded {
        // Emptying this reference later only drops it; the caller's array is untouched and never copied.
        var bytes = data
        return try decodeReleasing(&bytes, name: name, maxPixels: maxPixels, minLongSide: minLongSide)
    }

    /// Decodes `data` straight into the pixel buffer's storage, then empties `data` before making the pixels
    /// upright, so a quarter turn's second buffer never coexists with the compressed bytes.
    private static func decodeReleasing(_ data: inout [UInt8], name: String, maxPixels: Int,
                                        minLongSide: Int?) throws(ImageIOError) -> JPEGDecoded {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { throw .notJPEG(file: name) }
        guard let handle = tjInitDecompress() else {
            throw .outOfMemory(file: name, detail: "cannot create a JPEG decoder")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0, width > 0, height > 0 else { throw .corruptJPEG(file: name, detail: message(handle)) }
        guard Int(width) * Int(height) <= maxPixels else {
            throw .tooManyPixels(file: name, width: Int(width), height: Int(height), limit: maxPixels)
        }
        var (w, h) = (Int(width), Int(height))
        if let minLongSide { (w, h) = scaledSize(width: w, height: h, minLongSide: minLongSide) }
        let markers = JPEGMarkers(parsing: data)
        let count = w * h * 3
        var status: Int32 = -1
        var pixels = data.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
                status = tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress, Int32(w), 0,
                                       Int32(h), Int32(TJPF_RGB.rawValue), Int32(TJFLAG_ACCURATEDCT))
                // On failure the bytes may be partly unwritten: keep none of them.
                initialized = status == 0 ? count : 0
            }
        }
        // Warnings (a premature end of data, a damaged segment) count as failures: the pixels would be partly grey.
        guard status == 0 else { throw .corruptJPEG(file: name, detail: message(handle)) }
        data = []
        let upright = JPEGOrientation.uprightSize(width: w, height: h, orientation: markers.orientation)
        JPEGOrientation.makeUpright(&pixels, width: w, height: h, channels: 3, orientation: markers.orientation)
        return JPEGDecoded(pixels: try PixelBuffer(width: upright.width, height: upright.height, channels: 3,
                                                   samples: .eight(pixels)),
                           storedOrientation: markers.orientation, iccProfile: markers.iccProfile)
    }

    /// Writes `image` as a JPEG at `path` atomically; 16-bit samples are rounded to 8 bits and alpha is dropped.
    ///
    /// The encoder's output goes to the file as it lies in TurboJPEG's buffer, with the ICC segments written
    /// between its pieces: no copy of the compressed image is made.
    public static func write(_ image: PixelBuffer, to path: String, quality: Int = defaultQuality,
                             iccProfile: [UInt8]? = nil) throws(ImageIOError) {
        let segments = JPEGMarkers.iccSegments(iccProfile ?? [])
        try withCompressed(image, quality: quality, name: path) { (jpeg) throws(ImageIOError) in
            let at = segments.isEmpty ? jpeg.count : iccOffset(in: jpeg)
            do {
                try AtomicFile.write(to: path) { temp in
                    guard let file = fopen(temp, "wb") else {
                        throw AtomicFileError(path: path, errno: errno)
                    }
                    var written = fwrite(jpeg.baseAddress, 1, at, file) == at
                    written = written && segments.withUnsafeBufferPointer {
                        fwrite($0.baseAddress, 1, $0.count, file) == $0.count
                    }
                    let rest = jpeg.count - at
                    written = written && fwrite(jpeg.baseAddress.map { $0 + at }, 1, rest, file) == rest
                    let closed = fclose(file) == 0
                    guard closed, written else {
                        throw AtomicFileError(path: path, errno: errno)
                    }
                }
            } catch {
                throw .cannotWrite(file: path, reason: "\(error)")
            }
        }
    }

    /// Encodes `image` as JPEG bytes: 4:4:4 chroma at quality ≥ 90, 4:2:0 below (ImageMagick's rule).
    public static func encode(_ image: PixelBuffer, quality: Int = defaultQuality, iccProfile: [UInt8]? = nil,
                              name: String = "<memory>") throws(ImageIOError) -> [UInt8] {
        let segments = JPEGMarkers.iccSegments(iccProfile ?? [])
        return try withCompressed(image, quality: quality, name: name) { jpeg in
            let at = segments.isEmpty ? jpeg.count : iccOffset(in: jpeg)
            return Array(jpeg[0..<at]) + segments + Array(jpeg[at...])
        }
    }

    /// Compresses `image` and lends TurboJPEG's output buffer to `body`, freeing it afterwards.
    ///
    /// The buffer is reserved at TurboJPEG's worst-case size up front: only the pages the encoder writes become
    /// resident, and it is never grown by copying.
    private static func withCompressed<T>(
        _ image: PixelBuffer, quality: Int, name: String,
        _ body: (UnsafeBufferPointer<UInt8>) throws(ImageIOError) -> T
    ) throws(ImageIOError) -> T {
        guard (1...100).contains(quality) else {
            throw .invalidOptions("JPEG quality \(quality) is not in 1…100")
        }
        let samples: [UInt8]
        switch image.samples {
        case .eight(let s): samples = s
        case .sixteen(let s): samples = s.map { UInt8((UInt32($0) * 255 + 32_767) / 65_535) }
        }
        guard let handle = tjInitCompress() else {
            throw .outOfMemory(file: name, detail: "cannot create a JPEG encoder")
        }
        defer { tjDestroy(handle) }
        let format = image.channels == 4 ? TJPF_RGBX : TJPF_RGB
        let subsampling = Int32((quality >= 90 ? TJSAMP_444 : TJSAMP_420).rawValue)
        var flags = Int32(TJFLAG_ACCURATEDCT)
        var size = tjBufSize(Int32(image.width), Int32(image.height), subsampling)
        var output: UnsafeMutablePointer<UInt8>?
        // tjBufSize answers UInt.max for an impossible size, and tjAlloc takes an Int32: past that, let it grow.
        if size <= UInt(Int32.max), let reserved = tjAlloc(Int32(size)) {
            output = reserved
            flags |= Int32(TJFLAG_NOREALLOC)
        } else {
            size = 0
        }
        defer { if let output { tjFree(output) } }
        let status = samples.withUnsafeBufferPointer { src in
            tjCompress2(handle, src.baseAddress, Int32(image.width), 0, Int32(image.height),
                        Int32(format.rawValue), &output, &size, subsampling, Int32(quality), flags)
        }
        guard status == 0, let output else { throw .corruptJPEG(file: name, detail: message(handle)) }
        return try body(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// Where ICC segments go: after the JFIF APP0 segment if the encoder wrote one, else right after SOI.
    private static func iccOffset(in jpeg: UnsafeBufferPointer<UInt8>) -> Int {
        guard jpeg.count >= 4 else { return jpeg.count }
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            let at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
            return at <= jpeg.count ? at : jpeg.count
        }
        return 2
    }

    /// The smallest TurboJPEG scaled size whose long side is at least `minLongSide` (full size if none is).
    static func scaledSize(width: Int, height: Int, minLongSide: Int) -> (Int, Int) {
        var best = (width, height)
        for denominator in [2, 4, 8] {
            // TJSCALED: ceil(dimension · 1/denominator).
            let w = (width + denominator - 1) / denominator, h = (height + denominator - 1) / denominator
            if max(w, h) >= minLongSide { best = (w, h) }
        }
        return best
    }

    static func readFile(_ path: String) throws(ImageIOError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or unreadable"
                                                                       : "no such file"
            throw .cannotOpen(file: path, reason: reason)
        }
        return [UInt8](data)
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
