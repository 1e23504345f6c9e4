import Testing
import LookCore

/// Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula: implementation notes, supplementary test
/// data, and mathematical observations", Color Research & Application 30(1), Table 1: L1 a1 b1, L2 a2 b2, ΔE00.
private let sharmaPairs: [(SIMD3<Double>, SIMD3<Double>, Double)] = [
    (SIMD3(50.0000, 2.6772, -79.7751), SIMD3(50.0000, 0.0000, -82.7485), 2.0425),
    (SIMD3(50.0000, 3.1571, -77.2803), SIMD3(50.0000, 0.0000, -82.7485), 2.8615),
    (SIMD3(50.0000, 2.8361, -74.0200), SIMD3(50.0000, 0.0000, -82.7485), 3.4412),
    (SIMD3(50.0000, -1.3802, -84.2814), SIMD3(50.0000, 0.0000, -82.7485), 1.0000),
    (SIMD3(50.0000, -1.1848, -84.8006), SIMD3(50.0000, 0.0000, -82.7485), 1.0000),
    (SIMD3(50.0000, -0.9009, -85.5211), SIMD3(50.0000, 0.0000, -82.7485), 1.0000),
    (SIMD3(50.0000, 0.0000, 0.0000), SIMD3(50.0000, -1.0000, 2.0000), 2.3669),
    (SIMD3(50.0000, -1.0000, 2.0000), SIMD3(50.0000, 0.0000, 0.0000), 2.3669),
    (SIMD3(50.0000, 2.4900, -0.0010), SIMD3(50.0000, -2.4900, 0.0009), 7.1792),
    (SIMD3(50.0000, 2.4900, -0.0010), SIMD3(50.0000, -2.4900, 0.0010), 7.1792),
    (SIMD3(50.0000, 2.4900, -0.0010), SIMD3(50.0000, -2.4900, 0.0011), 7.2195),
    (SIMD3(50.0000, 2.4900, -0.0010), SIMD3(50.0000, -2.4900, 0.0012), 7.2195),
    (SIMD3(50.0000, -0.0010, 2.4900), SIMD3(50.0000, 0.0009, -2.4900), 4.8045),
    (SIMD3(50.0000, -0.0010, 2.4900), SIMD3(50.0000, 0.0010, -2.4900), 4.8045),
    (SIMD3(50.0000, -0.0010, 2.4900), SIMD3(50.0000, 0.0011, -2.4900), 4.7461),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(50.0000, 0.0000, -2.5000), 4.3065),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(73.0000, 25.0000, -18.0000), 27.1492),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(61.0000, -5.0000, 29.0000), 22.8977),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(56.0000, -27.0000, -3.0000), 31.9030),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(58.0000, 24.0000, 15.0000), 19.4535),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(50.0000, 3.1736, 0.5854), 1.0000),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(50.0000, 3.2972, 0.0000), 1.0000),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(50.0000, 1.8634, 0.5757), 1.0000),
    (SIMD3(50.0000, 2.5000, 0.0000), SIMD3(50.0000, 3.2592, 0.3350), 1.0000),
    (SIMD3(60.2574, -34.0099, 36.2677), SIMD3(60.4626, -34.1751, 39.4387), 1.2644),
    (SIMD3(63.0109, -31.0961, -5.8663), SIMD3(62.8187, -29.7946, -4.0864), 1.2630),
    (SIMD3(61.2901, 3.7196, -5.3901), SIMD3(61.4292, 2.2480, -4.9620), 1.8731),
    (SIMD3(35.0831, -44.1164, 3.7933), SIMD3(35.0232, -40.0716, 1.5901), 1.8645),
    (SIMD3(22.7233, 20.0904, -46.6940), SIMD3(23.0331, 14.9730, -42.5619), 2.0373),
    (SIMD3(36.4612, 47.8580, 18.3852), SIMD3(36.2715, 50.5065, 21.2231), 1.4146),
    (SIMD3(90.8027, -2.0831, 1.4410), SIMD3(91.1528, -1.6435, 0.0447), 1.4441),
    (SIMD3(90.9257, -0.5406, -0.9208), SIMD3(88.6381, -0.8985, -0.7239), 1.5381),
    (SIMD3(6.7747, -0.2908, -2.4247), SIMD3(5.8714, -0.0985, -2.2286), 0.6377),
    (SIMD3(2.0776, 0.0795, -1.1350), SIMD3(0.9033, -0.0636, -0.5514), 0.9082),
]

@Suite("Colour science")
struct ColorScienceTests {
    @Test("CIEDE2000 matches all 34 pairs of Sharma, Wu & Dalal 2005 to the table's four decimals")
    func sharmaData() {
        #expect(sharmaPairs.count == 34)
        for (index, (lab1, lab2, expected)) in sharmaPairs.enumerated() {
            let d = ColorScience.deltaE2000(lab1, lab2)
            #expect(abs(d - expected) < 0.00005, "pair \(index + 1): \(d) vs \(expected)")
            #expect(abs(ColorScience.deltaE2000(lab2, lab1) - d) < 1e-9, "pair \(index + 1) is not symmetric")
        }
    }

    @Test("sRGB decoding and encoding are inverse and continuous at the knee")
    func transferRoundTrip() {
        for i in 0...255 {
            let v = Double(i) / 255
            #expect(abs(ColorScience.srgb(fromLinear: ColorScience.linear(fromSRGB: v)) - v) < 1e-12)
        }
        #expect(abs(ColorScience.linear(fromSRGB: 0.04045) - 0.0031308) < 1e-6)
    }

    @Test("white is L 100 a 0 b 0, mid-grey 18 % is L 49.5")
    func labAnchors() {
        let white = ColorScience.lab(fromSRGB: SIMD3(1, 1, 1))
        #expect(abs(white.x - 100) < 1e-9 && abs(white.y) < 1e-9 && abs(white.z) < 1e-9)
        let grey = ColorScience.lab(fromXYZ: ColorScience.whiteD65 * 0.18)
        #expect(abs(grey.x - 49.496) < 0.01)
    }

    @Test("matrix inverse undoes the matrix")
    func inverse() {
        let m = ColorScience.srgbToXYZ * ColorScience.xyzToSRGB
        for r in 0..<3 {
            for c in 0..<3 { #expect(abs(m.rows[r][c] - (r == c ? 1 : 0)) < 1e-12) }
        }
    }

    @Test("CAT16 adaptation maps the source illuminant to neutral, keeps its luminance, and 0 is identity")
    func adaptation() {
        let tungsten = SIMD3<Double>(1.0, 0.75, 0.45)
        let full = ColorScience.adaptation(from: tungsten)
        let out = full.apply(tungsten)
        #expect(abs(out.x - out.y) < 1e-9 && abs(out.y - out.z) < 1e-9)
        let y = { (v: SIMD3<Double>) in ColorScience.srgbToXYZ.apply(v).y }
        #expect(abs(y(out) - y(tungsten)) < 1e-9)
        let none = ColorScience.adaptation(from: tungsten, amount: 0)
        let grey = none.apply(SIMD3(0.3, 0.3, 0.3))
        #expect(abs(grey.x - 0.3) < 1e-12 && abs(grey.z - 0.3) < 1e-12)
        let half = ColorScience.adaptation(from: tungsten, amount: 0.5).apply(tungsten)
        #expect(half.x / half.z > 1.05 && half.x / half.z < tungsten.x / tungsten.z)
    }
}
