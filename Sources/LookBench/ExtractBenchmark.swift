import Dispatch
import Extraction
import Foundation
import ImageIO
import LookCore

/// Times look extraction: a pair of `megapixels` MP (a before image and a creative look applied to it) to a 33³
/// look, alignment checks and fit, in process (no decoding).
public enum ExtractBenchmark {
    /// Seconds per stage.
    public struct Result: Sendable {
        /// Pixels in each image of the pair.
        public var pixels: Int
        /// PairGeometry.aligned: thumbnails, turn/flip/crop checks.
        public var alignSeconds: Double
        /// LookExtractor.fit: binning, robust rounds, CG solves, held-out error, residual maps.
        public var fitSeconds: Double
        /// Processor time (all threads) for alignment and fit: the figure that does not depend on other load.
        public var cpuSeconds: Double
        /// Held-out mean ΔE00 of the fit (a check that the timed fit did real work).
        public var heldOutMean: Double
    }

    /// A before image of `width`×`height`: `photo` stretched (box/nearest) to that size with a little noise, so the
    /// pair has a real photo's colour distribution at the full pixel count.
    public static func pair(photo: PairImage, width: Int, height: Int, look: ColorCube) -> (PairImage, PairImage) {
        var rgb = [Float](repeating: 0, count: 3 * width * height)
        var state: UInt32 = 12345
        for y in 0..<height {
            let sy = y * photo.height / height
            for x in 0..<width {
                let sx = x * photo.width / width, s = 3 * (sy * photo.width + sx), d = 3 * (y * width + x)
                for c in 0..<3 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = (Float(state >> 8) / Float(1 << 24) - 0.5) / 128
                    rgb[d + c] = min(max(photo.rgb[s + c] + noise, 0), 1)
                }
            }
        }
        let before = try? PairImage(width: width, height: height, rgb: rgb)
        let b = before ?? photo
        return (b, b.applying(look).quantized8)
    }

    /// Runs the benchmark on `photo` stretched to 4000×3000 (12 MP) by default; with `jpegQuality` the after image
    /// is a JPEG of that quality (encoded and decoded in memory before timing), as an editor's export usually is,
    /// so the fit models its compression.
    public static func run(photo: PairImage, look: ColorCube, width: Int = 4000, height: Int = 3000,
                           jpegQuality: Int? = nil) throws -> Result {
        var (before, after) = pair(photo: photo, width: width, height: height, look: look)
        if let jpegQuality {
            let reader = try JPEGReader(data: try JPEGImage.encode(try after.pixels8(), quality: jpegQuality),
                                        name: "after.jpg", maxPixels: .max)
            var codes = [UInt8](repeating: 0, count: 3 * width * height)
            try codes.withUnsafeMutableBufferPointer { try reader.readRows(height, into: $0) }
            after = try PairImage(width: width, height: height, rgb: codes.map { Float($0) / 255 })
            after.compression = reader.compression
        }
        let c0 = cpuTime()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let aligned = try PairGeometry.aligned(before: before, after: after, beforeName: "before", afterName: "after")
        let t1 = DispatchTime.now().uptimeNanoseconds
        let fit = try LookExtractor.fit(pairs: [aligned])
        let t2 = DispatchTime.now().uptimeNanoseconds
        return Result(pixels: width * height, alignSeconds: Double(t1 - t0) / 1e9, fitSeconds: Double(t2 - t1) / 1e9,
                      cpuSeconds: cpuTime() - c0, heldOutMean: fit.heldOut.mean)
    }

    /// Seconds of processor time this process has used, all threads.
    static func cpuTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// A creative look with curvature in every direction (S-curve, lowered saturation, warm/teal split).
    public static func demoLook() throws -> ColorCube {
        try ColorCube(size: 33) { c in
            let s = c * c * (3 - 2 * c)
            var v = 0.6 * s + 0.4 * c
            let luma = ColorScience.luma(v)
            v = SIMD3(repeating: luma) + 0.8 * (v - SIMD3(repeating: luma))
            v += (luma - 0.5) * SIMD3(0.08, 0.0, -0.08)
            return v.clamped(lowerBound: .zero, upperBound: .one)
        }
    }

    /// A photo to benchmark on, read as the fit reads pairs.
    public static func loadPhoto(path: String) throws -> PairImage {
        try PairImage.load(path: path)
    }

    /// A 512×384 colour field (hue across, lightness down, saturation in rings) for runs without a photo.
    public static func demoPhoto() throws -> PairImage {
        let w = 512, h = 384
        var rgb = [Float](repeating: 0, count: 3 * w * h)
        for y in 0..<h {
            for x in 0..<w {
                let u = Float(x) / Float(w - 1), v = Float(y) / Float(h - 1)
                let ring = 0.5 + 0.5 * cos(Float(x + y) / 23)
                let hue = SIMD3<Float>(0.5 + 0.5 * cos(6.283 * u), 0.5 + 0.5 * cos(6.283 * (u - 1 / 3)),
                                       0.5 + 0.5 * cos(6.283 * (u - 2 / 3)))
                let c = (1 - v) * (SIMD3(repeating: 0.5) + ring * (hue - 0.5)) + v * 0.1
                for k in 0..<3 { rgb[3 * (y * w + x) + k] = c[k] }
            }
        }
        return try PairImage(width: w, height: h, rgb: rgb)
    }
}
