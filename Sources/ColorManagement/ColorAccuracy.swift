import Dispatch
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
        let count = min(a.count, b.count) / 3
        // Parts over cores: a converter without a cache may be shared by threads (LittleCMS's NOCACHE contract).
        let parts = count < 4096 ? 1 : 4 * ProcessInfo.processInfo.activeProcessorCount
        var out = [Double](repeating: 0, count: count)
        a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in out.withUnsafeMutableBufferPointer { o in
            nonisolated(unsafe) let first = pa, second = pb, result = o
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                let range = (count * k / parts)..<(count * (k + 1) / parts)
                let la = lab.lab(UnsafeBufferPointer(rebasing: first[(3 * range.lowerBound)..<(3 * range.upperBound)]))
                let lb = lab.lab(UnsafeBufferPointer(rebasing: second[(3 * range.lowerBound)..<(3 * range.upperBound)]))
                for (j, i) in range.enumerated() { result[i] = ciede2000(la[j], lb[j]) }
            }
        } } }
        return out
    }
}
