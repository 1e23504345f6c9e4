import Foundation
import ImageIO
import LookCore
@testable import Extraction

/// Small pairs built from the repository's sample photos (samples/, documented in samples/SOURCES.md).
enum ExtractionFixtures {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    /// The path of a file in Tests/Fixtures.
    static func fixture(_ relativePath: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(relativePath).path
    }

    /// A sample photo, box-filtered down to `width` pixels wide.
    static func photo(_ name: String, width: Int = 256) throws -> PairImage {
        let image = try PairImage.load(path: samples.appendingPathComponent(name + ".png").path)
        let height = Int((Double(image.height) * Double(width) / Double(image.width)).rounded())
        return image.boxResized(width: width, height: height)
    }

    /// A creative look with curvature in every direction: an S-curve, a warm/teal split and lowered saturation.
    static func creativeLook(size: Int = 33) throws -> ColorCube {
        try ColorCube(size: size) { c in
            let s = c * c * (3 - 2 * c)
            var v = 0.6 * s + 0.4 * c
            let luma = 0.2126 * v.x + 0.7152 * v.y + 0.0722 * v.z
            v = SIMD3(repeating: luma) + 0.8 * (v - SIMD3(repeating: luma))
            v += (luma - 0.5) * SIMD3(0.08, 0.0, -0.08)
            return v.clamped(lowerBound: .zero, upperBound: .one)
        }
    }

    /// `cube` applied to every pixel (tetrahedral, as `apply` does), optionally rounded to 8-bit codes.
    static func applied(_ cube: ColorCube, to image: PairImage, quantize: Bool = true) -> PairImage {
        let sampler = CubeSampler(cube)
        var out = image
        for i in 0..<(image.width * image.height) {
            let v = sampler.sample(SIMD3(image.rgb[3 * i], image.rgb[3 * i + 1], image.rgb[3 * i + 2]),
                                   interpolation: .tetrahedral)
            for c in 0..<3 { out.rgb[3 * i + c] = quantize ? (v[c] * 255).rounded() / 255 : v[c] }
        }
        return out
    }

    /// Multiplies each pixel by a radial falloff reaching `1 − strength` in the corners.
    static func vignetted(_ image: PairImage, strength: Float) -> PairImage {
        var out = image
        let cx = Float(image.width - 1) / 2, cy = Float(image.height - 1) / 2
        let rmax = (cx * cx + cy * cy).squareRoot()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let r = ((Float(x) - cx) * (Float(x) - cx) + (Float(y) - cy) * (Float(y) - cy)).squareRoot() / rmax
                let f = 1 - strength * r * r * r * r
                for c in 0..<3 { out.rgb[3 * (y * image.width + x) + c] *= f }
            }
        }
        return out
    }

    /// Mean ΔE00 between two cubes evaluated at the colours of `image` (every 3rd pixel).
    static func cubeDifference(_ a: ColorCube, _ b: ColorCube, on image: PairImage) -> Double {
        let sa = CubeSampler(a), sb = CubeSampler(b)
        var sum = 0.0, n = 0
        var i = 0
        while i < image.width * image.height {
            let x = SIMD3(image.rgb[3 * i], image.rgb[3 * i + 1], image.rgb[3 * i + 2])
            let pa = sa.sample(x, interpolation: .tetrahedral), pb = sb.sample(x, interpolation: .tetrahedral)
            sum += ColorScience.deltaE2000(ColorScience.lab(fromSRGB: SIMD3<Double>(pa)),
                                           ColorScience.lab(fromSRGB: SIMD3<Double>(pb)))
            n += 1
            i += 3
        }
        return sum / Double(n)
    }

    /// 8-bit pixels of a float image.
    static func pixels8(_ image: PairImage) throws -> PixelBuffer {
        try PixelBuffer(width: image.width, height: image.height, channels: 3,
                        samples: .eight(image.rgb.map { UInt8(min(max($0, 0), 1) * 255 + 0.5) }))
    }

    /// 16-bit pixels of a float image.
    static func pixels16(_ image: PairImage) throws -> PixelBuffer {
        try PixelBuffer(width: image.width, height: image.height, channels: 3,
                        samples: .sixteen(image.rgb.map { UInt16(min(max($0, 0), 1) * 65535 + 0.5) }))
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "extract-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
