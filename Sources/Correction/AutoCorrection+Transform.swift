import Foundation
import LookCore

/// The correction as a transform: the planned stages applied to one colour in linear light, and the cube they make.
extension AutoCorrection {
    /// Corrects one encoded sRGB colour (0…1); the result is clamped to 0…1.
    public func apply(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        guard !isIdentity else { return rgb }
        let c = linearTransform(SIMD3(ColorScience.linear(fromSRGB: Double(rgb.x)),
                                      ColorScience.linear(fromSRGB: Double(rgb.y)),
                                      ColorScience.linear(fromSRGB: Double(rgb.z))))
            .clamped(lowerBound: .zero, upperBound: SIMD3(1, 1, 1))
        return SIMD3(Float(ColorScience.srgb(fromLinear: c.x)), Float(ColorScience.srgb(fromLinear: c.y)),
                     Float(ColorScience.srgb(fromLinear: c.z)))
    }

    /// The stages applied in order to one linear colour, unclamped.
    func linearTransform(_ linear: SIMD3<Double>) -> SIMD3<Double> {
        vibranceMapD(contrastMapD(exposureMapD(levelsMapD(linear) * whiteBalance.gains)))
    }

    /// The transform as a cube of `size`³ entries.
    public func cube(size: Int = Corrector.defaultCubeSize) throws -> ColorCube {
        try ColorCube(size: size) { apply($0) }
    }

    func levelsMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(levelsMapD(SIMD3<Double>(c))) }
    func exposureMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(exposureMapD(SIMD3<Double>(c))) }
    func contrastMap(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3<Float>(contrastMapD(SIMD3<Double>(c))) }

    func levelsMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard levels.black != 0 || levels.white != 1 else { return c }
        let scale = 1 / (levels.white - levels.black)
        guard levels.black > 0 else { return c * scale }
        // Around black (±25 %) a quadratic toe (value and slope continuous) takes the place of a hard corner, so
        // the cube has no kink to interpolate.
        func map(_ x: Double, _ b: Double) -> Double {
            let t = 0.25 * b
            return x >= b + t ? (x - b) * scale : x <= b - t ? 0 : (x - b + t) * (x - b + t) / (4 * t) * scale
        }
        let b = levels.black * levels.airlight
        return SIMD3(map(c.x, b.x), map(c.y, b.y), map(c.z, b.z))
    }

    /// Brighter: the gain itself, as the model and the simulator's camera define exposure (what it pushes past
    /// white clips, as it would have in the camera). Darker (over-exposure): the gain up to Y = 0.9, then a
    /// straight shoulder to (1 + g)/2 at white: what clipped was brighter than 1/g before the fault, so a clipped
    /// white is put half-way between that and white rather than turned grey.
    private func exposureMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard exposure.stops != 0 else { return c }
        let g = pow(2, exposure.stops)
        guard g < 1 else { return c * g }
        let y = ColorScience.luma(c)
        guard y > 1e-9 else { return c * g }
        let yc = min(y, 1)
        let knee = 0.9, top = (1 + g) / 2
        let f = yc < knee ? g * yc : knee * g + (yc - knee) / (1 - knee) * (top - knee * g)
        return c * (f / yc)
    }

    /// S-curve on encoded luminance, v − a·sin(2πv)/(2π): slope 1 + a at mid-grey, 1 − a at the ends.
    private func contrastMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard contrast.amount != 0 else { return c }
        let y = ColorScience.luma(c)
        guard y > 1e-9 else { return c }
        let v = ColorScience.srgb(fromLinear: min(1, y))
        let v2 = v - contrast.amount * sin(2 * .pi * v) / (2 * .pi)
        return c * (ColorScience.linear(fromSRGB: v2) / min(1, y))
    }

    private func vibranceMapD(_ c: SIMD3<Double>) -> SIMD3<Double> {
        guard vibrance.amount != 0 else { return c }
        let hi = c.max(), lo = c.min()
        guard hi > 1e-9, hi > lo else { return c }
        let sat = (hi - lo) / hi
        var weight = 1 - sat
        if vibrance.protectSkin {
            // Skin hues (about 10°…50° in HSV hue, red towards yellow, red the largest channel) get no boost.
            let hue = c.x == hi ? 60 * (c.y - c.z) / (hi - lo) : 90
            weight *= 1 - Self.ramp(hue, from: 0, to: 10) * Self.ramp(hue, from: 60, to: 40)
        }
        let y = ColorScience.luma(c)
        return y + (c - y) * (1 + vibrance.amount * weight)
    }
}
