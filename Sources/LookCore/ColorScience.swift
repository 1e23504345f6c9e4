import Foundation

/// A 3×3 matrix of doubles, row-major, acting on column vectors.
public struct Matrix3: Sendable, Equatable, Codable {
    /// The three rows.
    public var rows: [SIMD3<Double>]

    /// A matrix from its three rows.
    public init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) { rows = [r0, r1, r2] }

    /// The identity matrix.
    public static let identity = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// M·v.
    @inlinable
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((rows[0] * v).sum(), (rows[1] * v).sum(), (rows[2] * v).sum())
    }

    /// M·N.
    public static func * (m: Matrix3, n: Matrix3) -> Matrix3 {
        let t = n.transposed
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * t.rows[0]).sum(), (r * t.rows[1]).sum(), (r * t.rows[2]).sum()) }
        return Matrix3(row(m.rows[0]), row(m.rows[1]), row(m.rows[2]))
    }

    /// The transpose.
    public var transposed: Matrix3 {
        Matrix3(SIMD3(rows[0].x, rows[1].x, rows[2].x), SIMD3(rows[0].y, rows[1].y, rows[2].y),
                SIMD3(rows[0].z, rows[1].z, rows[2].z))
    }

    /// The inverse (by cofactors; the matrices used here are well conditioned).
    public var inverse: Matrix3 {
        let a = rows[0], b = rows[1], c = rows[2]
        let c0 = SIMD3(b.y * c.z - b.z * c.y, b.z * c.x - b.x * c.z, b.x * c.y - b.y * c.x)
        let c1 = SIMD3(c.y * a.z - c.z * a.y, c.z * a.x - c.x * a.z, c.x * a.y - c.y * a.x)
        let c2 = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        let det = (a * c0).sum()
        return Matrix3(c0 / det, c1 / det, c2 / det).transposed
    }
}

/// Colour science on plain values (no I/O): the sRGB transfer function, linear sRGB ↔ CIE XYZ (D65) ↔ CIELAB,
/// CIEDE2000 colour difference, and von Kries chromatic adaptation in the CAT16 cone space.
public enum ColorScience {
    /// Rec. 709 luma weights (the Y row of the sRGB → XYZ matrix), applied to whatever encoding the caller holds.
    public static let rec709LumaWeights = SIMD3<Float>(0.2126, 0.7152, 0.0722)

    /// Rec. 709 luma of an RGB triple.
    @inlinable @inline(__always)
    public static func luma(_ c: SIMD3<Float>) -> Float { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

    /// Rec. 709 luma of an RGB triple, in Double.
    @inlinable @inline(__always)
    public static func luma(_ c: SIMD3<Double>) -> Double { 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z }

    /// The sRGB decoding function (IEC 61966-2-1): encoded value 0…1 → linear light.
    @inlinable
    public static func linear(fromSRGB v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// The sRGB encoding function: linear light → encoded value (negative values encode as their negative).
    @inlinable
    public static func srgb(fromLinear v: Double) -> Double {
        if v < 0 { return -srgb(fromLinear: -v) }
        return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// Linear sRGB (Rec. 709 primaries, D65) to XYZ with Y = 1 for white (IEC 61966-2-1 matrix).
    public static let srgbToXYZ = Matrix3(SIMD3(0.4124, 0.3576, 0.1805), SIMD3(0.2126, 0.7152, 0.0722),
                                          SIMD3(0.0193, 0.1192, 0.9505))
    /// XYZ to linear sRGB.
    public static let xyzToSRGB = srgbToXYZ.inverse
    /// The D65 white of the sRGB matrix (XYZ of linear RGB 1, 1, 1).
    public static let whiteD65 = srgbToXYZ.apply(SIMD3(1, 1, 1))

    /// CIE XYZ to CIELAB relative to `white`.
    public static func lab(fromXYZ xyz: SIMD3<Double>, white: SIMD3<Double> = whiteD65) -> SIMD3<Double> {
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(xyz.x / white.x), fy = f(xyz.y / white.y), fz = f(xyz.z / white.z)
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// Encoded sRGB (0…1) to CIELAB (D65).
    public static func lab(fromSRGB rgb: SIMD3<Double>) -> SIMD3<Double> {
        let lin = SIMD3(linear(fromSRGB: rgb.x), linear(fromSRGB: rgb.y), linear(fromSRGB: rgb.z))
        return lab(fromXYZ: srgbToXYZ.apply(lin))
    }

    /// CIEDE2000 colour difference (Sharma, Wu & Dalal 2005) with kL = kC = kH = 1.
    public static func deltaE2000(_ lab1: SIMD3<Double>, _ lab2: SIMD3<Double>) -> Double {
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
            if abs(h1p - h2p) > 180 { hBarP += hBarP < 360 ? 360 : -360 }
            hBarP /= 2
        }
        let rad = Double.pi / 180
        let t = 1 - 0.17 * cos((hBarP - 30) * rad) + 0.24 * cos(2 * hBarP * rad)
            + 0.32 * cos((3 * hBarP + 6) * rad) - 0.20 * cos((4 * hBarP - 63) * rad)
        let dTheta = 30 * exp(-pow((hBarP - 275) / 25, 2))
        let cBarP7 = pow(cBarP, 7)
        let rc = 2 * (cBarP7 / (cBarP7 + pow(25, 7))).squareRoot()
        let lTerm = (lBarP - 50) * (lBarP - 50)
        let sl = 1 + 0.015 * lTerm / (20 + lTerm).squareRoot()
        let sc = 1 + 0.045 * cBarP
        let sh = 1 + 0.015 * cBarP * t
        let rt = -sin(2 * dTheta * rad) * rc
        let l = dLp / sl, c = dCp / sc, h = dHp / sh
        return (l * l + c * c + h * h + rt * c * h).squareRoot()
    }

    /// The CAT16 matrix from XYZ to its cone-like space (Li et al. 2017).
    public static let cat16 = Matrix3(SIMD3(0.401288, 0.650173, -0.051461), SIMD3(-0.250268, 1.204414, 0.045854),
                                      SIMD3(-0.002079, 0.048952, 0.953127))

    /// A von Kries adaptation in CAT16 space, expressed on linear sRGB, that maps the illuminant `source`
    /// (a linear sRGB colour) to `target`, partially: `amount` 0 is the identity, 1 the full adaptation (the cone
    /// gains are interpolated geometrically). The result maps `source`'s luminance unchanged.
    public static func adaptation(from source: SIMD3<Double>, to target: SIMD3<Double> = SIMD3(1, 1, 1),
                                  amount: Double = 1) -> Matrix3 {
        let toCone = cat16 * srgbToXYZ
        let s = toCone.apply(source / srgbToXYZ.apply(source).y)
        let t = toCone.apply(target / srgbToXYZ.apply(target).y)
        let ratio = t / s
        let gains = SIMD3(pow(ratio.x, amount), pow(ratio.y, amount), pow(ratio.z, amount))
        let diagonal = Matrix3(SIMD3(gains.x, 0, 0), SIMD3(0, gains.y, 0), SIMD3(0, 0, gains.z))
        return toCone.inverse * diagonal * toCone
    }
}
