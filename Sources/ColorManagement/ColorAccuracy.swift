import Foundation
import LookCore

/// Colour-difference measurements used to size and check colour-managed cubes.
public enum ColorAccuracy {
    /// CIEDE2000 difference between two L*a*b* colours (kL = kC = kH = 1): LookCore's implementation, checked
    /// against Sharma, Wu and Dalal (2005).
    public static func ciede2000(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
        ColorScience.deltaE2000(lab1, lab2)
    }

    /// Mean, 95th percentile and maximum of a set of differences.
    public struct Summary: Sendable, Equatable {
        public var mean: Double
        public var p95: Double
        public var max: Double

        /// Summarises `values` (zeros when empty).
        public init(_ values: [Double]) {
            guard !values.isEmpty else {
                (mean, p95, max) = (0, 0, 0)
                return
            }
            let sorted = values.sorted()
            mean = sorted.reduce(0, +) / Double(sorted.count)
            p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.down)))]
            max = sorted.last!
        }
    }

    /// CIEDE2000 between two RGB images in the same profile (`count` a multiple of 3), pixel by pixel.
    public static func differences(_ a: [Float], _ b: [Float], in profile: ColorProfile) throws(ColorManagementError)
        -> [Double] {
        let lab = try LabConverter(from: profile)
        let la = lab.lab(a), lb = lab.lab(b)
        return zip(la, lb).map { ciede2000($0, $1) }
    }
}
