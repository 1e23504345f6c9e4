import Foundation
import ImageIO
import LookCore
import LookModel
import Scenes

/// A chromaticity as two natural logarithms, log(R/G) and log(B/G), of linear sRGB: 0, 0 is neutral, and a
/// channel-gain cast adds the same vector to every colour, which makes casts simple to measure and compare.
public struct LogChroma: Sendable, Equatable, Codable {
    /// log(R/G).
    public var red: Double
    /// log(B/G).
    public var blue: Double

    /// A log-chromaticity from its two components.
    public init(red: Double, blue: Double) {
        self.red = red
        self.blue = blue
    }

    /// The log-chromaticity of a linear RGB colour (channels floored at a tiny value so black stays finite).
    public init(_ rgb: SIMD3<Double>) {
        let c = rgb.replacing(with: 1e-6, where: rgb .< 1e-6)
        red = log(c.x / c.y)
        blue = log(c.z / c.y)
    }

    /// Neutral.
    public static let neutral = LogChroma(red: 0, blue: 0)

    /// Euclidean length (0.1 is about a 10 % channel ratio).
    public var magnitude: Double { (red * red + blue * blue).squareRoot() }

    /// The linear RGB colour with G = 1 of this chromaticity.
    public var rgb: SIMD3<Double> { SIMD3(exp(red), 1, exp(blue)) }

    /// Distance to another chromaticity.
    public func distance(to other: LogChroma) -> Double {
        LogChroma(red: red - other.red, blue: blue - other.blue).magnitude
    }

    /// This chromaticity scaled towards neutral.
    public func scaled(_ k: Double) -> LogChroma { LogChroma(red: red * k, blue: blue * k) }
}

/// The linear-light view of an analysed image that the automatic correction decides on: a grid subsample of the
/// analysed copy, decoded from sRGB, plus the pixels inside face boxes. Kept small (≤ `maxSamples`), so every
/// statistic can be re-measured after each planned stage at a cost of milliseconds.
public struct CorrectionAnalysis: Sendable, Equatable {
    /// At most this many grid samples are kept.
    public static let maxSamples = 160_000

    /// Linear sRGB samples on a regular grid, row by row.
    public let samples: [SIMD3<Float>]
    /// Grid size of `samples`.
    public let gridWidth: Int, gridHeight: Int
    /// Linear pixels of the analysed copy at `scatteredCount` scattered positions, for measuring how far a plan moves
    /// the whole image: the grid's stride can fall in step with a pattern's period and under- or over-count its
    /// dark pixels, where golden-ratio positions cannot.
    public let scattered: [SIMD3<Float>]
    /// How many pixels `scattered` holds at most.
    public static let scatteredCount = 4096
    /// Linear samples from the central part of each face box (empty without faces).
    public let faceSamples: [SIMD3<Float>]
    /// Faces the face samples came from.
    public let faceCount: Int
    /// The learned model's input: the analysed copy in linear light, box-averaged by the integer factor that
    /// brings its long side to at most `modelLongSide` (as training did), row by row.
    public let small: [SIMD3<Float>]
    /// Long side the model's copy is reduced to (the model's `long_side`).
    public static let modelLongSide = 256

    /// Decodes a grid subsample of the scene analysis' copy, and the pixels in its face boxes.
    public init(_ analysis: SceneAnalysis) {
        self.init(preview: analysis.preview, faces: analysis.faces,
                  sourceWidth: analysis.statistics.sourceWidth, sourceHeight: analysis.statistics.sourceHeight)
    }

    /// Decodes a grid subsample of an 8-bit RGB image whose source was `sourceWidth`×`sourceHeight` (faces are in
    /// source pixels).
    public init(preview: PixelBuffer, faces: [FaceRegion], sourceWidth: Int, sourceHeight: Int) {
        let w = preview.width, h = preview.height, c = preview.channels
        let step = max(1, Int((Double(w * h) / Double(Self.maxSamples)).squareRoot().rounded(.up)))
        let gw = (w + step - 1) / step, gh = (h + step - 1) / step
        let table = Self.decodeTable
        var samples = [SIMD3<Float>](), faceSamples = [SIMD3<Float>](), scattered = [SIMD3<Float>]()
        samples.reserveCapacity(gw * gh)
        if case .eight(let bytes) = preview.samples {
            bytes.withUnsafeBufferPointer { p in
                func pixel(_ x: Int, _ y: Int) -> SIMD3<Float> {
                    let i = (y * w + x) * c
                    return SIMD3(table[Int(p[i])], table[Int(p[i + 1])], table[Int(p[i + 2])])
                }
                for y in stride(from: 0, to: h, by: step) {
                    for x in stride(from: 0, to: w, by: step) { samples.append(pixel(x, y)) }
                }
                scattered = Self.scatteredIndices(count: w * h).map { pixel($0 % w, $0 / w) }
                let sx = Double(w) / Double(max(1, sourceWidth)), sy = Double(h) / Double(max(1, sourceHeight))
                for face in faces {
                    // The central 60 % of the box: the box edges hold hair, background and ears.
                    let x0 = max(0, Int((Double(face.x) + 0.2 * Double(face.width)) * sx))
                    let x1 = min(w, Int((Double(face.x) + 0.8 * Double(face.width)) * sx))
                    let y0 = max(0, Int((Double(face.y) + 0.2 * Double(face.height)) * sy))
                    let y1 = min(h, Int((Double(face.y) + 0.8 * Double(face.height)) * sy))
                    guard x1 > x0, y1 > y0 else { continue }
                    let fstep = max(1, Int((Double((x1 - x0) * (y1 - y0)) / 20_000).squareRoot().rounded(.up)))
                    for y in stride(from: y0, to: y1, by: fstep) {
                        for x in stride(from: x0, to: x1, by: fstep) { faceSamples.append(pixel(x, y)) }
                    }
                }
            }
        }
        self.samples = samples
        self.scattered = scattered
        self.faceSamples = faceSamples
        self.faceCount = faces.count
        small = Self.boxDownscale(preview, longSide: Self.modelLongSide, table: table)
        gridWidth = samples.isEmpty ? 0 : gw
        gridHeight = samples.isEmpty ? 0 : gh
    }

    /// `scatteredCount` pixel indices below `count` at the golden ratio's multiples (mod 1), or all of them when
    /// there are no more.
    static func scatteredIndices(count: Int) -> [Int] {
        guard count > scatteredCount else { return Array(0..<count) }
        let phi = (5.0.squareRoot() - 1) / 2, n = Double(count)
        return (0..<scatteredCount).map { Int((Double($0) * phi).truncatingRemainder(dividingBy: 1) * n) }
    }

    /// Box-averages an 8-bit image in linear light by the integer factor ⌈long side / `longSide`⌉.
    static func boxDownscale(_ image: PixelBuffer, longSide: Int, table: [Float]) -> [SIMD3<Float>] {
        let w = image.width, h = image.height, c = image.channels
        guard case .eight(let bytes) = image.samples, c >= 3, w > 0, h > 0 else { return [] }
        let factor = BoxAverage.factor(width: w, height: h, longSide: longSide)
        return bytes.withUnsafeBufferPointer { p in
            table.withUnsafeBufferPointer { t in
                BoxAverage.downscale(width: w, height: h, factor: factor) { i in
                    let j = i * c
                    return SIMD3(t[Int(p[j])], t[Int(p[j + 1])], t[Int(p[j + 2])])
                }
            }
        }
    }

    /// sRGB code value → linear light.
    static let decodeTable: [Float] = (0..<256).map { Float(ColorScience.linear(fromSRGB: Double($0) / 255)) }
}

/// Rec. 709 luminance of linear RGB.
@inline(__always)
func luminance(_ c: SIMD3<Float>) -> Float { ColorScience.luma(c) }

/// Measurements over a set of linear samples, each the input of one correction.
enum LinearMeasure {
    /// The `q`-quantile (0…1) of `values`: the element a sort would put at index round((n − 1)·q), found by
    /// selection (`values` is reordered), linear time rather than a sort's n log n.
    static func quantile(_ values: inout [Float], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let k = min(values.count - 1, max(0, Int((Double(values.count - 1) * q).rounded())))
        // The samples are clamped, so no NaN reaches the selection.
        return Double(values.withUnsafeMutableBufferPointer { Selection.kthSmallest($0, k) })
    }

    /// Geometric-mean luminance (the photographic "key"), with a floor of 1e-4 so black pixels stay finite.
    static func key(_ samples: [SIMD3<Float>]) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for s in samples { sum += log(Double(max(1e-4, luminance(s)))) }
        return exp(sum / Double(samples.count))
    }

    /// Minkowski p-norm mean of each channel (p = 1: grey-world; p = 6: shades of grey) over unclipped samples.
    static func minkowski(_ samples: [SIMD3<Float>], p: Double) -> SIMD3<Double> {
        var sum = SIMD3<Double>()
        for s in samples where s.max() < 0.98 {
            let d = SIMD3<Double>(Double(s.x), Double(s.y), Double(s.z))
            sum += p == 1 ? d : SIMD3(pow(d.x, p), pow(d.y, p), pow(d.z, p))
        }
        return p == 1 ? sum : SIMD3(pow(sum.x, 1 / p), pow(sum.y, 1 / p), pow(sum.z, 1 / p))
    }
}
