import ColorManagement
import Foundation
import ImageIO
import LookCore

/// An upright RGB image as Float samples (0…1) in a look's working space, rows top to bottom.
public struct PairImage: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `3 · width · height` samples, RGB interleaved.
    public var rgb: [Float]
    /// How the file was JPEG-compressed, when these samples are its decoded pixels upright as stored (no rotation
    /// or resizing since), so the fit can model the loss; nil otherwise.
    public var compression: JPEGCompression?
    /// The spaces of a compressed file's codes and of these samples, when the samples were converted from the
    /// file's profile (the loss happened to the file's codes, so the fit models it there); nil when the samples
    /// are the file's codes.
    public var compressedIn: Conversion?
    /// The lossy codec other than JPEG the file was stored with (its chroma is likely 4:2:0); nil otherwise, and for
    /// samples made from others (resized, cropped).
    public var lossyCodec: LossyCodec?

    /// A conversion between the colour space a file was encoded in and the working space of the samples.
    public struct Conversion: Sendable, Equatable {
        /// The file's own profile.
        public let file: ColorProfile
        /// The samples' (the look's working space).
        public let samples: ColorProfile
    }

    /// Wraps samples; `rgb.count` must be `3 · width · height`.
    public init(width: Int, height: Int, rgb: [Float]) throws(ExtractionError) {
        guard width > 0, height > 0, rgb.count == 3 * width * height else {
            throw .invalidInput("an image of \(width)×\(height) needs \(3 * width * height) samples, got \(rgb.count)")
        }
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// Wraps samples whose count the caller computed from the same width and height.
    init(sized width: Int, _ height: Int, rgb: [Float]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// How far (in 0…1) a file's profile may move a colour from the working space and still be read as that space,
    /// unconverted: one 8-bit code, the fit's own noise floor. Most edited photos carry an sRGB profile built from
    /// tabulated curves and rounded colorants (the common "sRGB IEC61966-2.1" one moves some colours by about a
    /// code against the parametric sRGB); converting such a file changes nothing visible, but its pixels would no
    /// longer be the JPEG's as decoded, and the fit would lose the file's compression model (docs/EXTRACT.md).
    static let sameSpaceTolerance: Float = 1 / 255

    /// Reads any format ImageIO decodes (PNG, JPEG, TIFF, WebP, HEIC/AVIF), 8 or 16 bits, upright (ImageIO applies
    /// the EXIF orientation), converted from its embedded ICC profile into `workingSpace`.
    ///
    /// Untagged files are read as sRGB, as browsers and editors do; alpha is dropped (a look changes colour only).
    /// An image with more than `maxPixels` pixels is refused before it is decoded.
    public static func load(path: String, workingSpace: ColorProfile = ColorProfile(.sRGB),
                            maxPixels: Int = PNGReader.defaultMaxPixels) throws(ExtractionError) -> PairImage {
        let decoded: DecodedImage
        do {
            decoded = try ImageFormat.readImage(path: path, maxPixels: maxPixels)
        } catch {
            throw .unreadable(file: path, cause: error)
        }
        var image = try PairImage(pixels: decoded.pixels)
        image.lossyCodec = LossyCodec.of(path: path)
        let source = try profile(of: decoded.color, path: path)
        if !source.isEquivalent(to: workingSpace, tolerance: sameSpaceTolerance) {
            do {
                let transform = try ColorTransform(from: source, to: workingSpace)
                image.rgb.withUnsafeMutableBufferPointer { transform.convert($0) }
            } catch {
                throw .colorSpace(file: path, reason: error.description)
            }
            for i in image.rgb.indices { image.rgb[i] = min(max(image.rgb[i], 0), 1) }
            if let compression = storedCompression(path: path, width: image.width, height: image.height) {
                image.compression = compression
                image.compressedIn = Conversion(file: source, samples: workingSpace)
            }
        } else {
            image.compression = storedCompression(path: path, width: image.width, height: image.height)
        }
        return image
    }

    /// The colours of the image at `path` as sRGB floats (three per pixel), converted from its embedded profile as
    /// `load` converts, read from a copy at most `maxLongSide` pixels long: PNG and TIFF stream through a box
    /// filter and a JPEG decodes at a DCT-reduced size (`ImagePreview`), so a census of a large photo holds neither
    /// the decoded file nor a float image of it.
    public static func colourSample(path: String, maxLongSide: Int = censusLongSide,
                                    maxPixels: Int = PNGReader.defaultMaxPixels) throws(ExtractionError) -> [Float] {
        let preview: ImagePreview
        do {
            preview = try ImagePreview(path: path, maxLongSide: maxLongSide, maxPixels: maxPixels)
        } catch {
            throw .unreadable(file: path, cause: error)
        }
        let rgb = floats(preview.pixels)
        let sRGB = ColorProfile(.sRGB)
        let source = try profile(of: preview.color, path: path)
        guard !source.isEquivalent(to: sRGB, tolerance: sameSpaceTolerance) else { return rgb }
        do {
            return try ColorTransform(from: source, to: sRGB).converting(rgb).map { min(max($0, 0), 1) }
        } catch {
            throw .colorSpace(file: path, reason: error.description)
        }
    }

    /// The long side of `colourSample`'s copy: about 0.5 MP of a 3:2 photo, enough for the share of 32³ colour
    /// cells (a box of a few pixels blurs only edges, where a colour between two shown ones is shown as much).
    public static let censusLongSide = 1024

    /// The colour space a decoded file's pixels are in: its embedded RGB profile, else sRGB.
    static func profile(of color: ColorDescription, path: String) throws(ExtractionError) -> ColorProfile {
        guard let icc = color.iccProfile, icc.colorSpace == nil || icc.colorSpace == "RGB " else {
            return ColorProfile(.sRGB)
        }
        do {
            return try ColorProfile(iccData: icc.data, source: path)
        } catch {
            throw .colorSpace(file: path, reason: error.description)
        }
    }

    /// The compression of a JPEG file whose decoded pixels, `width`×`height`, are its own turned upright by its
    /// EXIF orientation and nothing else (a resized copy no longer sits on the file's 8×8 blocks).
    static func storedCompression(path: String, width: Int, height: Int) -> JPEGCompression? {
        guard (try? ImageFormat.of(path: path)) == .jpeg,
              let reader = try? JPEGReader(path: path, maxPixels: .max), var compression = reader.compression
        else { return nil }
        let upright = JPEGOrientation.uprightSize(width: reader.width, height: reader.height,
                                                  orientation: reader.markers.orientation)
        guard upright == (width, height) else { return nil }
        compression.orientation = reader.markers.orientation
        return compression
    }

    /// Float samples of an 8- or 16-bit buffer (v/255, v/65535), alpha dropped.
    public init(pixels: PixelBuffer) throws(ExtractionError) {
        try self.init(width: pixels.width, height: pixels.height, rgb: Self.floats(pixels))
    }

    /// A buffer's pixels as RGB floats (v/255, v/65535), alpha dropped.
    static func floats(_ pixels: PixelBuffer) -> [Float] {
        let n = pixels.width * pixels.height, c = pixels.channels
        var out = [Float](repeating: 0, count: 3 * n)
        switch pixels.samples {
        case .eight(let s):
            for j in 0..<n { for k in 0..<3 { out[3 * j + k] = Float(s[c * j + k]) / 255 } }
        case .sixteen(let s):
            for j in 0..<n { for k in 0..<3 { out[3 * j + k] = Float(s[c * j + k]) / 65535 } }
        }
        return out
    }

    /// The image averaged down (or up) to `newWidth`×`newHeight` with an area (box) filter: each output pixel is the
    /// mean of the source area it covers, partial pixels weighted by their overlap, so no colour is invented.
    public func boxResized(width newWidth: Int, height newHeight: Int) -> PairImage {
        if newWidth == width && newHeight == height { return self }
        let xs = PairImage.boxWeights(from: width, to: newWidth)
        let ys = PairImage.boxWeights(from: height, to: newHeight)
        // Horizontal pass into a row-resized buffer, then vertical; separable, so cost is O(source pixels).
        var horizontal = [Float](repeating: 0, count: 3 * newWidth * height)
        rgb.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let s = 3 * width * y, d = 3 * newWidth * y
                    for (x, taps) in xs.enumerated() {
                        var acc = SIMD3<Float>()
                        for (i, w) in taps { acc += w * SIMD3(src[s + 3 * i], src[s + 3 * i + 1], src[s + 3 * i + 2]) }
                        dst[d + 3 * x] = acc.x
                        dst[d + 3 * x + 1] = acc.y
                        dst[d + 3 * x + 2] = acc.z
                    }
                }
            }
        }
        var out = [Float](repeating: 0, count: 3 * newWidth * newHeight)
        for (y, taps) in ys.enumerated() {
            let d = 3 * newWidth * y
            for (row, w) in taps {
                let s = 3 * newWidth * row
                for i in 0..<(3 * newWidth) { out[d + i] += w * horizontal[s + i] }
            }
        }
        return PairImage(sized: newWidth, newHeight, rgb: out)
    }

    /// For each output index, the source indices it covers and their overlap weights (summing to 1).
    static func boxWeights(from source: Int, to target: Int) -> [[(Int, Float)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { o in
            let lo = Double(o) * scale, hi = Double(o + 1) * scale
            var taps: [(Int, Float)] = []
            var i = Int(lo.rounded(.down))
            while Double(i) < hi && i < source {
                let overlap = min(hi, Double(i + 1)) - max(lo, Double(i))
                if overlap > 0 { taps.append((i, Float(overlap / scale))) }
                i += 1
            }
            return taps
        }
    }

    /// Rec. 709 luma of each pixel (structure comparisons only; not a colour measurement).
    var luma: [Float] {
        (0..<(width * height)).map { ColorScience.luma(SIMD3(rgb[3 * $0], rgb[3 * $0 + 1], rgb[3 * $0 + 2])) }
    }
}

extension PairImage {
    /// `cube` applied to every pixel with the arithmetic of `apply` (same interpolation, same clamping), over all
    /// cores; the evaluations and benchmarks make their "true look" after-images with it.
    public func applying(_ cube: ColorCube, interpolation: Interpolation = .tetrahedral) -> PairImage {
        var out = rgb
        let sampler = BatchSampler(cube, interpolation: interpolation)
        rgb.withUnsafeBufferPointer { source in out.withUnsafeMutableBufferPointer { target in
            sampler.applyOnAllCores(source, into: target)
        } }
        return PairImage(sized: width, height, rgb: out)
    }

    /// The central `side`×`side` pixels (the whole image where it is smaller), starting on even coordinates.
    func centralWindow(_ side: Int) -> PairImage {
        let w = min(side, width), h = min(side, height)
        let x0 = (width - w) / 4 * 2, y0 = (height - h) / 4 * 2
        if w == width && h == height { return self }
        var out = [Float](repeating: 0, count: 3 * w * h)
        for y in 0..<h {
            let s = 3 * ((y0 + y) * width + x0)
            out.replaceSubrange((3 * w * y)..<(3 * w * (y + 1)), with: rgb[s..<(s + 3 * w)])
        }
        return PairImage(sized: w, h, rgb: out)
    }

    /// Samples rounded to 8-bit codes, as an editor's 8-bit export stores them.
    public var quantized8: PairImage {
        var out = self
        for i in out.rgb.indices { out.rgb[i] = (min(max(out.rgb[i], 0), 1) * 255).rounded() / 255 }
        return out
    }

    /// 8-bit pixels (RGB) of the image, for writing with ImageIO.
    public func pixels8() throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, channels: 3,
                        samples: .eight(rgb.map { UInt8(min(max($0, 0), 1) * 255 + 0.5) }))
    }
}

extension BatchSampler {
    /// `apply(_:into:)` over all cores, in chunks of whole RGB triples; also the 8-bit codes when `codes` is given.
    func applyOnAllCores(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>,
                         codes: UnsafeMutableBufferPointer<UInt8>? = nil) {
        let colours = input.count / 3, chunks = LookExtractor.chunkCount * 4
        nonisolated(unsafe) let source = input, target = output, quantised = codes
        DispatchQueue.concurrentPerform(iterations: chunks) { k in
            let range = (3 * (colours * k / chunks))..<(3 * (colours * (k + 1) / chunks))
            let from = UnsafeMutableBufferPointer(mutating: UnsafeBufferPointer(rebasing: source[range]))
            let to = UnsafeMutableBufferPointer(rebasing: target[range])
            if let quantised {
                apply(from, into: to, codes: UnsafeMutableBufferPointer(rebasing: quantised[range]))
            } else {
                apply(from, into: to)
            }
        }
    }
}
