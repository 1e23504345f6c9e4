import Foundation

/// Colour-difference measurements used to size and check colour-managed cubes.
///
/// Named apart from LookCore's own difference helpers: this one exists to validate ColorManagement's results.
public enum ColorAccuracy {
    /// CIEDE2000 difference between two L*a*b* colours (kL = kC = kH = 1), after Sharma, Wu and Dalal (2005).
    public static func ciede2000(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
        let (l1, a1, b1) = (lab1.x, lab1.y, lab1.z)
        let (l2, a2, b2) = (lab2.x, lab2.y, lab2.z)
        let c1 = (a1 * a1 + b1 * b1).squareRoot(), c2 = (a2 * a2 + b2 * b2).squareRoot()
        let cBar7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow(25, 7))).squareRoot())
        let a1p = (1 + g) * a1, a2p = (1 + g) * a2
        let c1p = (a1p * a1p + b1 * b1).squareRoot(), c2p = (a2p * a2p + b2 * b2).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) * 180 / .pi
            return h < 0 ? h + 360 : h
        }
        let h1p = hue(b1, a1p), h2p = hue(b2, a2p)
        let dLp = l2 - l1, dCp = c2p - c1p
        var dhp = 0.0
        if c1p * c2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * (c1p * c2p).squareRoot() * sin(dhp * .pi / 360)
        let lBarP = (l1 + l2) / 2, cBarP = (c1p + c2p) / 2
        var hBarP = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) > 180 { hBarP += h1p + h2p < 360 ? 360 : -360 }
            hBarP /= 2
        }
        let rad = Double.pi / 180
        let t = 1 - 0.17 * cos((hBarP - 30) * rad) + 0.24 * cos(2 * hBarP * rad)
            + 0.32 * cos((3 * hBarP + 6) * rad) - 0.20 * cos((4 * hBarP - 63) * rad)
        let dTheta = 30 * exp(-pow((hBarP - 275) / 25, 2))
        let cBarP7 = pow(cBarP, 7)
        let rc = 2 * (cBarP7 / (cBarP7 + pow(25, 7))).squareRoot()
        let l50 = (lBarP - 50) * (lBarP - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cBarP
        let sh = 1 + 0.015 * cBarP * t
        let rt = -sin(2 * dTheta * rad) * rc
        let x = dLp / sl, y = dCp / sc, z = dHp / sh
        return (x * x + y * y + z * z + rt * y * z).squareRoot()
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
