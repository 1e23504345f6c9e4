import ColorManagement
import Dispatch
import FaceDetection
import ImageIO
import LookCore
import LookModel


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
    /// Mean luma over the skin core of every face box (`SceneAnalysis.faceCore`), each face weighted by its area;
    /// 0 when no face was found. What the low-light rule and an exposure correction weigh for people.
    public var faceMeanLuma = 0.0
    /// Mean of each channel over the same face cores (skin colour, for white balance); 0 when no face was found.
    public var faceMeanRed = 0.0, faceMeanGreen = 0.0, faceMeanBlue = 0.0

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
        case faceMeanLuma = "face_mean_luma", faceMeanRed = "face_mean_red", faceMeanGreen = "face_mean_green"
        case faceMeanBlue = "face_mean_blue"
    }
}

/// One image analysed once: a downscaled copy and its statistics, reusable for detection and many renders.
public struct SceneAnalysis: Sendable, Equatable {
    /// The long side of the analysed copy is at most this many pixels.
    public static let maxLongSide = 2048

    /// The downscaled copy (8-bit RGB, box-filtered), also useful for previews and contact sheets.
    public let preview: PixelBuffer
    /// The statistics of `preview` (the face statistics over the face boxes in it).
    public private(set) var statistics: SceneStatistics
    /// Faces found in the image (dlib's frontal detector on a `FaceDetector.workingLongSide` copy of `preview`,
    /// scores ≥ `FaceDetector.scoreThreshold`), in source pixel coordinates, best first.
    public var faces: [FaceRegion] = []
    /// Why faces could not be looked for, when the detector failed (the analysis then has no faces).
    public var faceDetectionFailure: String?

    /// Analyses an image in memory (downscaled first when it is larger than `maxLongSide`); the statistics are
    /// measured in sRGB, so an image described as another space (`color`) is converted first; `detectFaces: false`
    /// skips face detection (for previews only).
    public init(image: PixelBuffer, color: ColorDescription = ColorDescription(), file: String = "image",
                detectFaces: Bool = true) throws(ImageIOError) {
        let preview = try ImagePreview(image: image, color: color, maxLongSide: Self.maxLongSide)
        self.init(preview, file: file, detectFaces: detectFaces)
    }

    /// Analyses rows in caller memory (an embedding app's image): for the same decoded pixels, the analysis a file
    /// gets from `init(path:)` when its preview streams (PNG, TIFF); a JPEG file's preview is a DCT-reduced decode
    /// instead, so its statistics differ slightly from those of its fully decoded pixels.
    public init(rows: PixelRows, color: ColorDescription = ColorDescription(), file: String = "image",
                detectFaces: Bool = true) throws(ImageIOError) {
        let preview = try ImagePreview(rows: rows, color: color, maxLongSide: Self.maxLongSide)
        self.init(preview, file: file, detectFaces: detectFaces)
    }

    /// Analyses an image file through its streamed preview (`ImagePreview`: the full image is never held for PNG
    /// and TIFF; JPEG decodes at a DCT-reduced size).
    public init(path: String, maxPixels: Int = PNGReader.defaultMaxPixels,
                bandBytes: Int = 4 << 20, detectFaces: Bool = true) throws(ImageIOError) {
        let preview = try ImagePreview(path: path, maxLongSide: Self.maxLongSide, maxPixels: maxPixels,
                                       bandBytes: bandBytes)
        self.init(preview, file: path, detectFaces: detectFaces)
    }

    private init(_ preview: ImagePreview, file: String, detectFaces: Bool) {
        self.init(preview: ImageColor.previewInSRGB(preview.pixels, color: preview.color, file: file),
                  sourceWidth: preview.sourceWidth, sourceHeight: preview.sourceHeight, detectFaces: detectFaces)
    }

    private init(preview: PixelBuffer, sourceWidth: Int, sourceHeight: Int, detectFaces: Bool) {
        self.preview = preview
        // The statistics are measured while the faces are looked for (each only reads the preview).
        nonisolated(unsafe) var stats = SceneStatistics()
        nonisolated(unsafe) var found: Result<[FaceRegion], FaceDetectionError> = .success([])
        DispatchQueue.concurrentPerform(iterations: detectFaces ? 2 : 1) { job in
            if job == 0 {
                stats = SceneAnalysis.measure(preview)
            } else {
                found = Result { () throws(FaceDetectionError) in
                    try Self.detectFaces(in: preview, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
                }
            }
        }
        stats.sourceWidth = sourceWidth
        stats.sourceHeight = sourceHeight
        self.statistics = stats
        guard detectFaces else { return }
        adopt(found)
    }

    /// This analysis with faces looked for: made with `detectFaces: false`, it becomes what `detectFaces: true`
    /// gives for the same image, without decoding the image again.
    public func withFaces() -> SceneAnalysis {
        var analysis = self
        analysis.adopt(Result { () throws(FaceDetectionError) in
            try Self.detectFaces(in: preview, sourceWidth: statistics.sourceWidth,
                                 sourceHeight: statistics.sourceHeight)
        })
        return analysis
    }

    private mutating func adopt(_ found: Result<[FaceRegion], FaceDetectionError>) {
        switch found {
        case .success(let regions): faces = regions
        case .failure(let error): faceDetectionFailure = error.description
        }
        Self.measureFaces(faces, in: preview, into: &statistics)
    }

    /// Runs the process-wide detector on the preview; boxes come back in source pixels.
    static func detectFaces(in preview: PixelBuffer, sourceWidth: Int, sourceHeight: Int)
        throws(FaceDetectionError) -> [FaceRegion] {
        guard case .eight(let samples) = preview.samples else { return [] }
        let grey = try samples.withUnsafeBufferPointer { (p) throws(FaceDetectionError) in
            try GreyImage(interleaved: p, width: preview.width, height: preview.height, channels: preview.channels)
        }
        return try FaceDetector.shared.get().faces(in: grey, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }

    /// The part of a face box that is skin: dlib's box runs from the brows to the chin and ear to ear, so its
    /// middle 60 % across and 25…85 % down leaves out hair, background and beard line but keeps cheeks and nose.
    public static func faceCore(_ face: FaceRegion) -> (x: Int, y: Int, width: Int, height: Int) {
        let x = face.x + face.width / 5, y = face.y + face.height / 4
        return (x, y, max(1, face.width * 3 / 5), max(1, face.height * 3 / 5))
    }

    /// Fills the face statistics: luma and channel means over the face cores, mapped onto the preview.
    static func measureFaces(_ faces: [FaceRegion], in preview: PixelBuffer, into s: inout SceneStatistics) {
        guard !faces.isEmpty, case .eight(let samples) = preview.samples else { return }
        let w = preview.width, h = preview.height, c = preview.channels
        let fx = Double(w) / Double(max(1, s.sourceWidth)), fy = Double(h) / Double(max(1, s.sourceHeight))
        var sum = SIMD3<Double>(), luma = 0.0, count = 0
        samples.withUnsafeBufferPointer { p in
            for face in faces {
                let core = faceCore(face)
                let x0 = min(w - 1, Int(Double(core.x) * fx)), y0 = min(h - 1, Int(Double(core.y) * fy))
                let x1 = min(w, max(x0 + 1, Int(Double(core.x + core.width) * fx)))
                let y1 = min(h, max(y0 + 1, Int(Double(core.y + core.height) * fy)))
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let i = (y * w + x) * c
                        let r = Double(p[i]), g = Double(p[i + 1]), b = Double(p[i + 2])
                        sum += SIMD3(r, g, b)
                        luma += ColorScience.luma(SIMD3(r, g, b))
                        count += 1
                    }
                }
            }
        }
        guard count > 0 else { return }
        let n = Double(count) * 255
        s.faceMeanLuma = luma / n
        s.faceMeanRed = sum.x / n
        s.faceMeanGreen = sum.y / n
        s.faceMeanBlue = sum.z / n
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
