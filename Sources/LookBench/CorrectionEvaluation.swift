import Correction
import Foundation
import ImageIO
import LookCore
import LookModel
import Scenes

/// Measures the automatic correction on real photos: applies known global faults in linear light, corrects the
/// faulted image, and compares both with the original by CIEDE2000 (docs/CORRECTION.md).
public enum CorrectionEvaluation {
    /// A global fault applied to a good photo, in linear light.
    public struct Fault: Sendable, Equatable {
        /// Short name (`+1 EV`, `warm 0.25`, …).
        public var name: String
        /// Channel gains (a cast or an exposure change); values above 1 clip.
        public var gains: SIMD3<Double>
        /// Haze: x·(1 − h) + h·0.85 (a grey veil: lower contrast, lifted blacks).
        public var haze: Double

        /// A fault from gains and haze.
        public init(name: String, gains: SIMD3<Double> = SIMD3(1, 1, 1), haze: Double = 0) {
            self.name = name
            self.gains = gains
            self.haze = haze
        }

        /// Applies the fault to one linear colour.
        public func apply(_ c: SIMD3<Double>) -> SIMD3<Double> {
            let g = (c * gains).clamped(lowerBound: .zero, upperBound: SIMD3(1, 1, 1))
            return g * (1 - haze) + haze * 0.85
        }
    }

    /// The standard set: ±0.5 and ±1 EV, warm, cool and green casts at two strengths, and two hazes.
    public static let standardFaults: [Fault] = [
        Fault(name: "-1 EV", gains: SIMD3(repeating: 0.5)), Fault(name: "-0.5 EV", gains: SIMD3(repeating: 0.7071)),
        Fault(name: "+0.5 EV", gains: SIMD3(repeating: 1.4142)), Fault(name: "+1 EV", gains: SIMD3(repeating: 2)),
        Fault(name: "warm 15%", gains: SIMD3(1.15, 1, 0.87)), Fault(name: "warm 30%", gains: SIMD3(1.3, 1, 0.77)),
        Fault(name: "cool 15%", gains: SIMD3(0.87, 1, 1.15)), Fault(name: "cool 30%", gains: SIMD3(0.77, 1, 1.3)),
        Fault(name: "green 10%", gains: SIMD3(0.91, 1.1, 0.91)), Fault(name: "green 20%", gains: SIMD3(0.83, 1.2, 0.83)),
        Fault(name: "haze 15%", haze: 0.15), Fault(name: "haze 30%", haze: 0.3),
    ]

    /// Other magnitudes and mixtures, to check that nothing is fitted to the standard set: ±0.25 and ±1.5 EV, a
    /// 45 % warm and an 8 % cool cast, magenta, yellow, a 35 % green, haze 8 % and 45 %, and −1 EV under a warm light.
    public static let otherFaults: [Fault] = [
        Fault(name: "-1.5 EV", gains: SIMD3(repeating: 0.354)), Fault(name: "-0.25 EV", gains: SIMD3(repeating: 0.841)),
        Fault(name: "+0.25 EV", gains: SIMD3(repeating: 1.189)), Fault(name: "+1.5 EV", gains: SIMD3(repeating: 2.83)),
        Fault(name: "warm 45%", gains: SIMD3(1.45, 1, 0.69)), Fault(name: "cool 8%", gains: SIMD3(0.93, 1, 1.08)),
        Fault(name: "magenta", gains: SIMD3(1.1, 0.9, 1.1)), Fault(name: "yellow", gains: SIMD3(1.1, 1.05, 0.8)),
        Fault(name: "green 35%", gains: SIMD3(0.74, 1.35, 0.74)), Fault(name: "haze 8%", haze: 0.08),
        Fault(name: "haze 45%", haze: 0.45), Fault(name: "-1 EV warm", gains: SIMD3(0.6, 0.5, 0.4)),
    ]

    /// One photo under one fault.
    public struct Case: Sendable, Equatable, Codable {
        /// The photo.
        public var image: String
        /// The fault's name.
        public var fault: String
        /// Mean ΔE00 of the faulted photo from the original.
        public var before: Double
        /// Mean ΔE00 of the corrected photo from the original.
        public var after: Double
        /// 1 − after/before.
        public var recovery: Double { before > 0 ? 1 - after / before : 0 }

        enum CodingKeys: String, CodingKey { case image, fault, before, after }
    }

    /// Everything measured over a set of photos.
    public struct Summary: Sendable, Equatable {
        /// Every photo × fault.
        public var cases: [Case] = []
        /// How far the correction moves each untouched photo (mean ΔE00), by photo.
        public var untouched: [(image: String, moved: Double)] = []

        /// Mean recovery over all cases.
        public var meanRecovery: Double { cases.isEmpty ? 0 : cases.reduce(0) { $0 + $1.recovery } / Double(cases.count) }
        /// The worst case's (after − before) / before (positive: ended further than it started).
        public var worstWorsening: Double { cases.map { -$0.recovery }.max() ?? 0 }
        /// Mean ΔE00 an untouched photo moves.
        public var meanUntouchedMove: Double {
            untouched.isEmpty ? 0 : untouched.reduce(0) { $0 + $1.moved } / Double(untouched.count)
        }

        public static func == (a: Summary, b: Summary) -> Bool {
            a.cases == b.cases && a.untouched.map(\.moved) == b.untouched.map(\.moved)
        }
    }

    /// The long side photos are evaluated at (the correction decides on a ≤ 2048 px copy; the metric does not
    /// need more pixels than this).
    public static let evaluationLongSide = 768

    /// A preset with every correction at `percent` (0…200), checked.
    public static func settings(everyStrength percent: Double) throws -> CorrectionPreset {
        let settings = CorrectionPreset().scaled(Dictionary(uniqueKeysWithValues: CorrectionPreset.Strength.allCases
            .map { ($0, percent) }))
        try settings.validate()
        return settings
    }

    /// The automatic correction planned for a photo from its pixels alone (no faces).
    public static func plan(for pixels: PixelBuffer) throws -> AutoCorrection {
        try AutoCorrection.plan(CorrectionAnalysis(preview: pixels, faces: [], sourceWidth: pixels.width,
                                                   sourceHeight: pixels.height))
    }

    /// Loads a photo at `longSide` pixels on its long side at most (box-filtered, 8-bit RGB).
    public static func load(path: String, longSide: Int = evaluationLongSide) throws -> PixelBuffer {
        let analysis = try SceneAnalysis(path: path)
        var scaler = BoxDownscaler(width: analysis.preview.width, height: analysis.preview.height,
                                   maxLongSide: longSide)
        guard case .eight(let s) = analysis.preview.samples else { return analysis.preview }
        s.withUnsafeBufferPointer { scaler.add(rows: analysis.preview.height, samples: $0, channels: 3) }
        return try scaler.finish()
    }

    /// Applies a fault to an 8-bit RGB image.
    public static func degrade(_ image: PixelBuffer, _ fault: Fault) throws -> PixelBuffer {
        try map(image) { fault.apply($0) }
    }

    /// Plans the automatic correction of `image` (no faces) and applies it through its cube, as `correct` does.
    public static func correct(_ image: PixelBuffer,
                               settings: CorrectionPreset = CorrectionPreset()) throws -> PixelBuffer {
        try correct(image, analysis: CorrectionAnalysis(preview: image, faces: [], sourceWidth: image.width,
                                                        sourceHeight: image.height), settings: settings)
    }

    /// Plans the automatic correction from `analysis` (`correct`'s: the image's preview and the faces found in it),
    /// with the `shoot`'s estimate when the photo is part of one (`correct --shoot`), and applies it to `image`
    /// through its cube.
    public static func correct(_ image: PixelBuffer, analysis: CorrectionAnalysis, settings: CorrectionPreset,
                               shoot: (estimate: ShootPlan, photo: ShootPhoto)? = nil) throws -> PixelBuffer {
        let plan = try AutoCorrection.plan(analysis, settings: settings, shoot: shoot)
        guard !plan.isIdentity, case .eight(var bytes) = image.samples else { return image }
        let applier = CubeApplier(cube: try plan.cube())
        try bytes.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: image.channels, threads: nil) }
        return try PixelBuffer(width: image.width, height: image.height, channels: image.channels, samples: .eight(bytes))
    }

    /// Runs every fault on every photo, and the correction on each untouched photo.
    public static func run(images: [(name: String, pixels: PixelBuffer)], faults: [Fault] = standardFaults,
                           settings: CorrectionPreset = CorrectionPreset(),
                           correct: (PixelBuffer) throws -> PixelBuffer = { try CorrectionEvaluation.correct($0) })
        throws -> Summary {
        var summary = Summary()
        for (name, original) in images {
            summary.untouched.append((name, meanDeltaE(original, try correct(original))))
            for fault in faults {
                let faulted = try degrade(original, fault)
                let fixed = try correct(faulted)
                summary.cases.append(Case(image: name, fault: fault.name, before: meanDeltaE(original, faulted),
                                          after: meanDeltaE(original, fixed)))
            }
        }
        return summary
    }

    /// Mean CIEDE2000 between two 8-bit RGB images of the same size (sRGB, D65).
    public static func meanDeltaE(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard case .eight(let x) = a.samples, case .eight(let y) = b.samples, x.count == y.count, !x.isEmpty else {
            return .infinity
        }
        let table = labTable
        var sum = 0.0
        let n = x.count / a.channels
        for i in 0..<n {
            let p = i * a.channels, q = i * b.channels
            if x[p] == y[q] && x[p + 1] == y[q + 1] && x[p + 2] == y[q + 2] { continue }
            sum += ColorScience.deltaE2000(lab(x[p], x[p + 1], x[p + 2], table), lab(y[q], y[q + 1], y[q + 2], table))
        }
        return sum / Double(n)
    }

    private static let labTable = (0..<256).map { ColorScience.linear(fromSRGB: Double($0) / 255) }

    private static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ t: [Double]) -> SIMD3<Double> {
        ColorScience.lab(fromXYZ: ColorScience.srgbToXYZ.apply(SIMD3(t[Int(r)], t[Int(g)], t[Int(b)])))
    }

    private static func map(_ image: PixelBuffer, _ f: (SIMD3<Double>) -> SIMD3<Double>) throws -> PixelBuffer {
        guard case .eight(let s) = image.samples else { return image }
        let t = labTable
        var out = [UInt8](repeating: 0, count: s.count)
        let c = image.channels
        for i in stride(from: 0, to: s.count, by: c) {
            let v = f(SIMD3(t[Int(s[i])], t[Int(s[i + 1])], t[Int(s[i + 2])]))
            out[i] = UInt8((ColorScience.srgb(fromLinear: min(1, max(0, v.x))) * 255).rounded())
            out[i + 1] = UInt8((ColorScience.srgb(fromLinear: min(1, max(0, v.y))) * 255).rounded())
            out[i + 2] = UInt8((ColorScience.srgb(fromLinear: min(1, max(0, v.z))) * 255).rounded())
            for k in 3..<c { out[i + k] = s[i + k] }
        }
        return try PixelBuffer(width: image.width, height: image.height, channels: c, samples: .eight(out))
    }
}
