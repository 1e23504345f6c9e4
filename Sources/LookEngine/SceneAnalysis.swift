import ImageIO

/// Image statistics the scene detector decides on, all over the downscaled copy, values as fractions 0…1 of
/// full scale on the encoded (gamma) values. Luma is Rec. 709 (0.2126 R + 0.7152 G + 0.0722 B); chroma is
/// max(R,G,B) − min(R,G,B).
public struct SceneStatistics: Sendable, Equatable, Codable {
    /// Size of the source image.
    public var sourceWidth = 0, sourceHeight = 0
    /// Size of the copy the statistics were computed on (long side ≤ `SceneAnalysis.maxLongSide`).
    public var analysedWidth = 0, analysedHeight = 0
    /// Mean of each channel.
    public var meanRed = 0.0, meanGreen = 0.0, meanBlue = 0.0
    /// Mean, median, 5th and 95th percentile of luma.
    public var meanLuma = 0.0, medianLuma = 0.0, lumaP05 = 0.0, lumaP95 = 0.0
    /// Mean chroma and its 99th percentile (a few coloured pixels must not hide a grey image, nor JPEG noise make one).
    public var meanChroma = 0.0, chromaP99 = 0.0
    /// Pixels with chroma < 0.04 (grey to the eye).
    public var greyFraction = 0.0
    /// Pixels with luma > 0.85 and chroma < 0.10 (white or near-white).
    public var nearWhiteFraction = 0.0
    /// Near-white pixels within the outer eighth of the frame on each side (a product shot's backdrop).
    public var borderNearWhiteFraction = 0.0
    /// Pixels with luma < 0.15.
    public var darkFraction = 0.0
    /// Pixels matching all three skin rules (RGB, Kovač et al. 2003; YCbCr, Chai & Ngan 1999; HSV saturation).
    public var skinFraction = 0.0
    /// Pixels where green and blue both exceed red by more than 0.08 (water seen through water).
    public var blueGreenFraction = 0.0

    /// All zero.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case sourceWidth = "source_width", sourceHeight = "source_height"
        case analysedWidth = "analysed_width", analysedHeight = "analysed_height"
        case meanRed = "mean_red", meanGreen = "mean_green", meanBlue = "mean_blue"
        case meanLuma = "mean_luma", medianLuma = "median_luma", lumaP05 = "luma_p05", lumaP95 = "luma_p95"
        case meanChroma = "mean_chroma", chromaP99 = "chroma_p99", greyFraction = "grey_fraction"
        case nearWhiteFraction = "near_white_fraction", borderNearWhiteFraction = "border_near_white_fraction"
        case darkFraction = "dark_fraction", skinFraction = "skin_fraction", blueGreenFraction = "blue_green_fraction"
    }
}

/// One image analysed once: a downscaled copy and its statistics, reusable for detection and many renders.
public struct SceneAnalysis: Sendable, Equatable {
    /// The long side of the analysed copy is at most this many pixels.
    public static let maxLongSide = 2048

    /// The downscaled copy (8-bit RGB, box-filtered), also useful for previews and contact sheets.
    public let preview: PixelBuffer
    /// The statistics of `preview`.
    public let statistics: SceneStatistics
    /// Faces found in the image, in source pixel coordinates (empty until face detection fills it).
    public var faces: [FaceRegion] = []

    /// Analyses an image in memory (downscaled first when it is larger than `maxLongSide`); the statistics are
    /// measured in sRGB, so an image described as another space (`color`) is converted first.
    public init(image: PixelBuffer, color: ColorDescription = ColorDescription(), file: String = "image")
        throws(ImageIOError) {
        var scaler = BoxDownscaler(width: image.width, height: image.height, maxLongSide: Self.maxLongSide)
        switch image.samples {
        case .eight(let s):
            s.withUnsafeBufferPointer { scaler.add(rows: image.height, samples: $0, channels: image.channels) }
        case .sixteen(let s):
            s.withUnsafeBufferPointer { scaler.add(rows: image.height, samples: $0, channels: image.channels) }
        }
        try self.init(preview: Self.inSRGB(scaler.finish(), color: color, file: file), sourceWidth: image.width,
                      sourceHeight: image.height)
    }

    /// Analyses an image file. PNG and TIFF stream in bands into the downscaled copy (the full image is never
    /// held); JPEG decodes at a DCT-reduced size close to `maxLongSide`; the other formats decode whole.
    public init(path: String, maxPixels: Int = PNGReader.defaultMaxPixels,
                bandBytes: Int = 4 << 20) throws(ImageIOError) {
        switch try ImageFormat.of(path: path) {
        case .jpeg:
            let full = try JPEGImage.read(path: path, minLongSide: Self.maxLongSide, maxPixels: maxPixels)
            try self.init(image: full.pixels, color: ColorDescription(iccBytes: full.iccProfile), file: path)
        default:
            guard let reader = try BandReader.open(path: path, maxPixels: maxPixels) else {
                let decoded = try ImageFormat.readImage(path: path, maxPixels: maxPixels)
                try self.init(image: decoded.pixels, color: decoded.color, file: path)
                return
            }
            let info = (width: reader.width, height: reader.height, channels: reader.channels, depth: reader.depth)
            var scaler = BoxDownscaler(width: info.width, height: info.height, maxLongSide: Self.maxLongSide)
            let rowSamples = info.width * info.channels
            let bandRows = max(1, min(info.height, bandBytes / max(1, rowSamples * (info.depth == .eight ? 1 : 2))))
            switch info.depth {
            case .eight:
                try Self.streamBands(UInt8.self, reader: reader, bandRows: bandRows) {
                    scaler.add(rows: $1, samples: $0, channels: info.channels)
                }
            case .sixteen:
                try Self.streamBands(UInt16.self, reader: reader, bandRows: bandRows) {
                    scaler.add(rows: $1, samples: $0, channels: info.channels)
                }
            }
            try self.init(preview: Self.inSRGB(scaler.finish(), color: reader.color, file: path),
                          sourceWidth: info.width, sourceHeight: info.height)
        }
    }

    /// Reads every row of `reader` in bands of `bandRows`, handing each band and its row count to `body`.
    private static func streamBands<Sample: PNGRowSample>(
        _: Sample.Type, reader: BandReader, bandRows: Int,
        _ body: (UnsafeBufferPointer<Sample>, Int) -> Void
    ) throws(ImageIOError) {
        let info = (width: reader.width, height: reader.height, channels: reader.channels)
        var band = [Sample](repeating: 0, count: bandRows * info.width * info.channels)
        try band.withUnsafeMutableBufferPointer { (buffer) throws(ImageIOError) in
            var done = 0
            while done < info.height {
                let n = min(bandRows, info.height - done)
                try Sample.readRows(reader, n, into: buffer)
                body(UnsafeBufferPointer(buffer), n)
                done += n
            }
        }
    }

    private init(preview: PixelBuffer, sourceWidth: Int, sourceHeight: Int) {
        self.preview = preview
        var stats = SceneAnalysis.measure(preview)
        stats.sourceWidth = sourceWidth
        stats.sourceHeight = sourceHeight
        self.statistics = stats
    }

    /// Computes the statistics of an 8-bit RGB image.
    static func measure(_ image: PixelBuffer) -> SceneStatistics {
        guard case .eight(let samples) = image.samples else { return SceneStatistics() }
        var lumaHistogram = [Int](repeating: 0, count: 256)
        var chromaHistogram = [Int](repeating: 0, count: 256)
        var sum = SIMD3<Double>(), grey = 0, white = 0, borderWhite = 0, border = 0, dark = 0, skin = 0
        var blueGreen = 0
        let w = image.width, h = image.height, c = image.channels
        let bx = max(1, w / 8), by = max(1, h / 8)
        samples.withUnsafeBufferPointer { p in
            for y in 0..<h {
                let inBorderRow = y < by || y >= h - by
                for x in 0..<w {
                    let i = (y * w + x) * c
                    let r = Int(p[i]), g = Int(p[i + 1]), b = Int(p[i + 2])
                    sum += SIMD3(Double(r), Double(g), Double(b))
                    // Luma in 1/255 steps, rounded: 0.2126, 0.7152, 0.0722 in 1/10000.
                    let luma = (2126 * r + 7152 * g + 722 * b + 5000) / 10000
                    let chroma = max(r, g, b) - min(r, g, b)
                    lumaHistogram[luma] += 1
                    chromaHistogram[chroma] += 1
                    if chroma < 10 { grey += 1 }
                    let isWhite = luma > 217 && chroma < 26
                    if isWhite { white += 1 }
                    if inBorderRow || x < bx || x >= w - bx {
                        border += 1
                        if isWhite { borderWhite += 1 }
                    }
                    if luma < 38 { dark += 1 }
                    if g > r + 20 && b > r + 20 { blueGreen += 1 }
                    if isSkin(r, g, b) { skin += 1 }
                }
            }
        }
        let n = Double(w * h)
        var s = SceneStatistics()
        s.analysedWidth = w
        s.analysedHeight = h
        s.meanRed = sum.x / n / 255
        s.meanGreen = sum.y / n / 255
        s.meanBlue = sum.z / n / 255
        s.meanLuma = zip(lumaHistogram.indices, lumaHistogram).reduce(0.0) { $0 + Double($1.0 * $1.1) } / n / 255
        s.medianLuma = percentile(lumaHistogram, 0.5, total: w * h)
        s.lumaP05 = percentile(lumaHistogram, 0.05, total: w * h)
        s.lumaP95 = percentile(lumaHistogram, 0.95, total: w * h)
        s.meanChroma = zip(chromaHistogram.indices, chromaHistogram).reduce(0.0) { $0 + Double($1.0 * $1.1) } / n / 255
        s.chromaP99 = percentile(chromaHistogram, 0.99, total: w * h)
        s.greyFraction = Double(grey) / n
        s.nearWhiteFraction = Double(white) / n
        s.borderNearWhiteFraction = border > 0 ? Double(borderWhite) / Double(border) : 0
        s.darkFraction = Double(dark) / n
        s.skinFraction = Double(skin) / n
        s.blueGreenFraction = Double(blueGreen) / n
        return s
    }

    /// All three rules must agree: the RGB rule alone accepts most wood and fur, the YCbCr box alone much sand;
    /// the HSV saturation band (0.23…0.68, Sobottka & Pitas 1998) drops saturated oranges such as polished wood.
    static func isSkin(_ r: Int, _ g: Int, _ b: Int) -> Bool {
        guard r > 95, g > 40, b > 20, max(r, g, b) - min(r, g, b) > 15, r - g > 15, r > b else { return false }
        // r is the maximum here, so HSV saturation is (r − min) / r.
        let spread = r - min(g, b)
        guard spread * 100 >= 23 * r, spread * 100 <= 68 * r else { return false }
        // JPEG (BT.601 full-range) chroma, ×1000 to stay in integers.
        let cb = 128_000 - 168_736 * r / 1000 - 331_264 * g / 1000 + 500 * b
        let cr = 128_000 + 500 * r - 418_688 * g / 1000 - 81_312 * b / 1000
        return (77_000...127_000).contains(cb) && (133_000...173_000).contains(cr)
    }

    /// The value (as a fraction of 255) below which `fraction` of the histogram's mass lies.
    static func percentile(_ histogram: [Int], _ fraction: Double, total: Int) -> Double {
        let target = Int((Double(total) * fraction).rounded(.up))
        var seen = 0
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen >= max(1, target) { return Double(value) / 255 }
        }
        return 1
    }
}

/// Shrinks an image by an integer box filter as its rows arrive, holding one output row of sums at a time.
struct BoxDownscaler {
    let width: Int, height: Int, factor: Int, outWidth: Int, outHeight: Int
    private var sums: [Float]
    private var rowsInSum = 0
    private var inputRow = 0
    private var output: [UInt8]
    private var outputRow = 0

    init(width: Int, height: Int, maxLongSide: Int) {
        self.width = width
        self.height = height
        factor = max(1, (max(width, height) + maxLongSide - 1) / maxLongSide)
        outWidth = (width + factor - 1) / factor
        outHeight = (height + factor - 1) / factor
        sums = [Float](repeating: 0, count: outWidth * 3)
        output = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
    }

    /// Adds `rows` whole rows of 8-bit samples.
    mutating func add(rows: Int, samples: UnsafeBufferPointer<UInt8>, channels: Int) {
        accumulate(rows: rows, channels: channels, scale: 1) { Float(samples[$0]) }
    }

    /// Adds `rows` whole rows of 16-bit samples (scaled to the 8-bit range).
    mutating func add(rows: Int, samples: UnsafeBufferPointer<UInt16>, channels: Int) {
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
    func finish() throws(ImageIOError) -> PixelBuffer {
        try PixelBuffer(width: outWidth, height: outHeight, channels: 3, samples: .eight(output))
    }
}

/// The two sample widths a PNG reader delivers, so one band loop serves 8- and 16-bit files (scene analysis here,
/// the image pipeline's `BandSample`).
protocol PNGRowSample: FixedWidthInteger {
    static func readRows(_ reader: BandReader, _ count: Int, into buffer: UnsafeMutableBufferPointer<Self>)
        throws(ImageIOError)
}

extension UInt8: PNGRowSample {
    static func readRows(_ reader: BandReader, _ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>)
        throws(ImageIOError) {
        switch reader {
        case .png(let r): try r.readRows(count, into: buffer)
        case .tiff(let r): try r.readRows(count, into: buffer)
        }
    }
}

extension UInt16: PNGRowSample {
    static func readRows(_ reader: BandReader, _ count: Int, into buffer: UnsafeMutableBufferPointer<UInt16>)
        throws(ImageIOError) {
        switch reader {
        case .png(let r): try r.readRows(count, into: buffer)
        case .tiff(let r): try r.readRows(count, into: buffer)
        }
    }
}
