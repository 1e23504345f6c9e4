import Foundation

/// Float64 references for the grade plugin's adjustments, written from the formulas in docs/ADJUSTMENTS.md (not
/// from the C code), and the grids and measures the tests share.
enum Reference {
    /// `n³` colours spanning 0…1 on each axis (k / (n − 1)), interleaved RGB, red fastest.
    static func grid(_ n: Int = 33) -> [Float] {
        var values: [Float] = []
        values.reserveCapacity(3 * n * n * n)
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    values += [Float(r) / Float(n - 1), Float(g) / Float(n - 1), Float(b) / Float(n - 1)]
                }
            }
        }
        return values
    }

    /// Largest |actual − expected| over all samples.
    static func maxError(_ actual: [Float], _ expected: [Double]) -> Double {
        zip(actual, expected).reduce(0) { Swift.max($0, abs(Double($1.0) - $1.1)) }
    }

    /// `formula` applied to each pixel of `input`.
    static func map(_ input: [Float], _ formula: ([Double]) -> [Double]) -> [Double] {
        stride(from: 0, to: input.count, by: 3).flatMap { formula(input[$0..<$0 + 3].map(Double.init)) }
    }

    static func clamp01(_ v: Double) -> Double { Swift.min(Swift.max(v, 0), 1) }

    /// IEC 61966-2-1.
    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// Rec. 709 luma.
    static func luma(_ c: [Double]) -> Double { 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] }

    /// The fully saturated colour of an HSV hue (S = V = 1), from the hexcone's six sectors.
    static func hsvColour(_ hue: Double) -> [Double] {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let sector = Int(h), f = h - Double(sector)
        switch sector {
        case 0: return [1, f, 0]
        case 1: return [1 - f, 1, 0]
        case 2: return [0, 1, f]
        case 3: return [0, 1 - f, 1]
        case 4: return [f, 0, 1]
        default: return [1, 0, 1 - f]
        }
    }
}

/// Monotone cubic interpolation (Fritsch & Carlson 1980) as docs/ADJUSTMENTS.md defines the curves: tangents the
/// mean of the neighbouring secants (0 where they differ in sign or one is 0; the end secant at an end), then for
/// each piece in order, when α² + β² > 9 both end tangents scaled by 3/√(α² + β²). Flat beyond the ends; a
/// periodic curve wraps its points. Evaluated from the cubic's coefficients.
struct MonotoneCurve {
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var tangents: [Double] = []
    private let period: Double?

    /// `points` as the plugin receives them (x0 y0 x1 y1 …).
    init(_ flat: [Float], period: Double? = nil) {
        self.period = period
        for i in stride(from: 0, to: flat.count, by: 2) {
            xs.append(Double(flat[i]))
            ys.append(Double(flat[i + 1]))
        }
        let count = xs.count
        if let period {
            xs.append(xs[0] + period)
            ys.append(ys[0])
        }
        let secants: [Double] = (0..<xs.count - 1).map { k in
            let rise: Double = ys[k + 1] - ys[k], run: Double = xs[k + 1] - xs[k]
            return rise / run
        }
        var m = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let left: Double? = i > 0 ? secants[i - 1] : (period != nil ? secants.last : nil)
            let right: Double? = i < secants.count ? secants[i] : nil
            switch (left, right) {
            case let (l?, r?): m[i] = (l > 0 && r > 0) || (l < 0 && r < 0) ? (l + r) / 2 : 0
            case let (l?, nil): m[i] = l
            case let (nil, r?): m[i] = r
            case (nil, nil): m[i] = 0
            }
        }
        for k in secants.indices {
            let j = (k + 1) % count
            guard secants[k] != 0 else {
                m[k] = 0
                m[j] = 0
                continue
            }
            let alpha = m[k] / secants[k], beta = m[j] / secants[k]
            let size = alpha * alpha + beta * beta
            if size > 9 {
                let tau = 3 / size.squareRoot()
                m[k] = tau * alpha * secants[k]
                m[j] = tau * beta * secants[k]
            }
        }
        if period != nil { m.append(m[0]) }
        tangents = m
    }

    func callAsFunction(_ x: Double) -> Double {
        var x = x
        if let period {
            if xs.count == 2 { return ys[0] }
            x = xs[0] + (x - xs[0]).truncatingRemainder(dividingBy: period)
            if x < xs[0] { x += period }
        } else {
            if x <= xs[0] { return ys[0] }
            if x >= xs[xs.count - 1] { return ys[ys.count - 1] }
        }
        let k = Swift.min(xs.lastIndex { $0 <= x } ?? 0, xs.count - 2)
        let h = xs[k + 1] - xs[k], s = (ys[k + 1] - ys[k]) / h, dx = x - xs[k]
        let c2 = (3 * s - 2 * tangents[k] - tangents[k + 1]) / h
        let c3 = (tangents[k] + tangents[k + 1] - 2 * s) / (h * h)
        return ys[k] + dx * (tangents[k] + dx * (c2 + dx * c3))
    }
}

/// Oklab as Ottosson publishes it for linear sRGB (M1 to LMS, cube root, M2 to Lab); the inverses are computed
/// here, where the plugin uses his published inverse matrices. (A derivation through CIE XYZ with the 7-digit
/// IEC 61966-2-1 matrix differs by about 1e-4, which gamut mapping near the cube's faces magnifies to 1.7 codes.)
enum Oklab {
    typealias Vector = SIMD3<Double>
    typealias Matrix = [Vector]

    static let rgbToLMS: Matrix = [[0.4122214708, 0.5363325363, 0.0514459929],
                                   [0.2119034982, 0.6806995451, 0.1073969566],
                                   [0.0883024619, 0.2817188376, 0.6299787005]]
    static let lmsToLab: Matrix = [[0.2104542553, 0.7936177850, -0.0040720468],
                                   [1.9779984951, -2.4285922050, 0.4505937099],
                                   [0.0259040371, 0.7827717662, -0.8086757660]]
    static let lmsToRGB = inverse(rgbToLMS)
    static let labToLMS = inverse(lmsToLab)

    static func lab(linear rgb: [Double]) -> [Double] {
        let lms = apply(rgbToLMS, Vector(rgb[0], rgb[1], rgb[2]))
        let lab = apply(lmsToLab, Vector(cbrt(lms.x), cbrt(lms.y), cbrt(lms.z)))
        return [lab.x, lab.y, lab.z]
    }

    static func linear(_ lab: Vector) -> Vector {
        let lms = apply(labToLMS, lab)
        return apply(lmsToRGB, lms * lms * lms)
    }

    /// Hue in degrees, 0…360.
    static func hue(_ lab: [Double]) -> Double {
        let h = atan2(lab[2], lab[1]) * 180 / .pi
        return h < 0 ? h + 360 : h
    }

    /// The Oklab hues of sRGB red, yellow, green, cyan, blue, magenta, and red again + 360.
    static let anchors: [Double] = {
        let corners: [[Double]] = [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1], [1, 0, 1]]
        let hues = corners.map { hue(lab(linear: $0)) }
        return hues + [hues[0] + 360]
    }()

    /// The curves' hue scale: anchor i sits at 60·i degrees, linear in Oklab hue between anchors.
    static func scaleHue(_ oklabHue: Double) -> Double {
        let h = oklabHue < anchors[0] ? oklabHue + 360 : oklabHue
        let i = (0..<6).last { anchors[$0] <= h } ?? 0
        let x = 60 * Double(i) + 60 * (h - anchors[i]) / (anchors[i + 1] - anchors[i])
        return x.truncatingRemainder(dividingBy: 360)
    }

    static func oklabHue(_ scaleHue: Double) -> Double {
        let x = (scaleHue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let i = Swift.min(Int(x / 60), 5)
        let h = anchors[i] + (x - 60 * Double(i)) / 60 * (anchors[i + 1] - anchors[i])
        return h.truncatingRemainder(dividingBy: 360)
    }

    /// sRGB-encoded colour of an Oklab colour: L clamped; outside the gamut, the point where the segment from
    /// the grey of the same linear luminance to the colour leaves the RGB cube; clamped.
    static func encoded(_ lab: [Double]) -> [Double] {
        let c = linear(Vector(Reference.clamp01(lab[0]), lab[1], lab[2]))
        let y = Reference.clamp01(0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z)
        // Every point of the segment y + t·(c − y) for t in 0…1 that lies in the cube; the largest such t.
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            let p = y + mid * (c - y)
            if p.min() >= 0 && p.max() <= 1 { low = mid } else { high = mid }
        }
        let inside = c.min() >= 0 && c.max() <= 1
        let fitted = inside ? c : y + low * (c - y)
        return [fitted.x, fitted.y, fitted.z].map { Reference.encode(Reference.clamp01($0)) }
    }

    private static func apply(_ m: Matrix, _ v: Vector) -> Vector {
        Vector((m[0] * v).sum(), (m[1] * v).sum(), (m[2] * v).sum())
    }

    private static func inverse(_ m: Matrix) -> Matrix {
        // The adjugate over the determinant; rows of the inverse are cross products of the columns' pairs.
        let c0 = Vector(m[0][0], m[1][0], m[2][0]), c1 = Vector(m[0][1], m[1][1], m[2][1])
        let c2 = Vector(m[0][2], m[1][2], m[2][2])
        let r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1)
        let det = (c0 * r0).sum()
        return [r0 / det, r1 / det, r2 / det]
    }

    private static func cross(_ a: Vector, _ b: Vector) -> Vector {
        Vector(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
