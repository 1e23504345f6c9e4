import Foundation
import Testing

@Suite("Hue curves and curve.lum_sat (Plugins/Grade/hue_curves.c, oklab.c)")
struct HueCurvesTests {
    enum Kind: String, CaseIterable, Sendable {
        case hueHue = "curve.hue_hue", hueSat = "curve.hue_sat", hueLum = "curve.hue_lum", lumSat = "curve.lum_sat"

        var parameter: String { ["shift", "gain", "stops", "gain"][Kind.allCases.firstIndex(of: self)!] }
        var points: [Float] {
            [GradeCases.hueShift, GradeCases.hueGain, GradeCases.hueStops, GradeCases.lumGain][
                Kind.allCases.firstIndex(of: self)!]
        }
    }

    /// The weight of a hue change at Oklab chroma C: smoothstep from 0.002 to 0.04.
    static func weight(_ chroma: Double) -> Double {
        let t = Reference.clamp01((chroma - 0.002) / (0.04 - 0.002))
        return t * t * (3 - 2 * t)
    }

    /// The formulas of docs/ADJUSTMENTS.md in float64.
    static func reference(_ kind: Kind, _ points: [Float]) -> ([Double]) -> [Double] {
        let curve = MonotoneCurve(points, period: kind == .lumSat ? nil : 360)
        return { v in
            var lab = Oklab.lab(linear: v.map(Reference.decode))
            let chroma = (lab[1] * lab[1] + lab[2] * lab[2]).squareRoot()
            let w = weight(chroma)
            guard w > 0 else { return v }
            let x = Oklab.scaleHue(Oklab.hue(lab))
            switch kind {
            case .hueHue:
                let h = Oklab.oklabHue(x + w * curve(x)) * .pi / 180
                lab[1] = chroma * cos(h)
                lab[2] = chroma * sin(h)
            case .hueSat, .lumSat:
                let k = 1 + w * (curve(kind == .lumSat ? lab[0] : x) - 1)
                lab[1] *= k
                lab[2] *= k
            case .hueLum:
                lab[0] *= pow(2, w * curve(x) / 3)
            }
            return Oklab.encoded(lab)
        }
    }

    @Test("matches the float64 reference within 1/255 on a 33³ grid", arguments: Kind.allCases)
    func reference(kind: Kind) throws {
        let adjustment = try GradeLibrary.adjustment(kind.rawValue)
        let input = Reference.grid()
        let output = adjustment.apply(input, [kind.parameter: kind.points])
        let error = Reference.maxError(output, Reference.map(input, Self.reference(kind, kind.points)))
        GradeCases.record(kind.rawValue, error)
        #expect(error <= 1.0 / 255)
    }

    @Test("greys (R = G = B, all 65,536 16-bit levels) come back bit for bit", arguments: Kind.allCases)
    func greysUntouched(kind: Kind) throws {
        let adjustment = try GradeLibrary.adjustment(kind.rawValue)
        let input = (0...65535).flatMap { v in [Float](repeating: Float(v) / 65535, count: 3) }
        let output = adjustment.apply(input, [kind.parameter: kind.points])
        #expect(output == input)
    }

    /// An sRGB-encoded colour of Oklab lightness `l`, chroma `c` and hue `scaleHue` on the curves' hue scale.
    static func colour(l: Double, c: Double, scaleHue: Double) -> [Float] {
        let h = Oklab.oklabHue(scaleHue) * .pi / 180
        return Oklab.encoded([l, c * cos(h), c * sin(h)]).map { Float($0) }
    }

    @Test("a hue shift joins itself at 0°/360°: the same value and slope just below and just above 0°")
    func seamless() throws {
        let adjustment = try GradeLibrary.adjustment("curve.hue_hue")
        // No point at 0°: the piece from 270° to 30° + 360° spans the seam. Read as a flat extension instead of a
        // wrap, it would jump from 10° to 40° there.
        let points: [Float] = [30, 40, 150, -20, 270, 10]
        let hues = [-0.2, -0.1, 0, 0.1, 0.2]
        let input = hues.flatMap { Self.colour(l: 0.65, c: 0.1, scaleHue: $0) }
        let output = adjustment.apply(input, ["shift": points])
        let shifts = hues.indices.map { i -> Double in
            let before = Oklab.scaleHue(Oklab.hue(Oklab.lab(linear: input[3 * i..<3 * i + 3].map {
                Reference.decode(Double($0)) })))
            let after = Oklab.scaleHue(Oklab.hue(Oklab.lab(linear: output[3 * i..<3 * i + 3].map {
                Reference.decode(Double($0)) })))
            let turn = (after - before + 540).truncatingRemainder(dividingBy: 360) - 180
            return turn
        }
        let expected = MonotoneCurve(points, period: 360)(0)
        #expect(shifts.allSatisfy { abs($0 - expected) < 0.5 }, "shifts \(shifts), curve at 0°: \(expected)")
        let slopes = zip(shifts, shifts.dropFirst()).map { $1 - $0 }
        let bend = zip(slopes, slopes.dropFirst()).map { abs($1 - $0) }.max()!
        #expect(bend < 0.01, "slopes either side of 0°: \(slopes)")
    }

    @Test("gain and luminance curves join at 0°/360° too", arguments: [Kind.hueSat, .hueLum])
    func seamlessGain(kind: Kind) throws {
        let adjustment = try GradeLibrary.adjustment(kind.rawValue)
        let points: [Float] = kind == .hueSat ? [30, 1.6, 150, 0.7, 270, 0.9] : [30, 0.9, 150, -0.5, 270, 0.2]
        let input = [-0.05, 0.05].flatMap { Self.colour(l: 0.6, c: 0.09, scaleHue: $0) }
        let output = adjustment.apply(input, [kind.parameter: points])
        for c in 0..<3 { #expect(abs(output[c] - output[3 + c]) < 2e-3, "\(output)") }
    }

    @Test("colours fade into the change with chroma: no step between a near-grey and a muted colour")
    func chromaFalloff() throws {
        let adjustment = try GradeLibrary.adjustment("curve.hue_lum")
        let chromas = stride(from: 0.0, through: 0.06, by: 0.0005).map { $0 }
        let input = chromas.flatMap { Self.colour(l: 0.5, c: $0, scaleHue: 100) }
        let output = adjustment.apply(input, ["stops": [0, -1.5]])
        var largest: Float = 0
        for i in 3..<output.count { largest = Swift.max(largest, abs(output[i] - output[i - 3])) }
        #expect(largest < 0.01, "largest step between neighbouring chromas: \(largest)")
    }
}
