import Foundation
import Testing

@Suite("grade.lift_gamma_gain (Plugins/Grade/wheels.c)")
struct WheelsTests {
    /// docs/ADJUSTMENTS.md's lift/gamma/gain in float64.
    static func reference(_ parameters: [String: [Float]]) -> ([Double]) -> [Double] {
        let p = parameters.mapValues { $0.map(Double.init) }
        return { v in
            (0..<3).map { c in
                let black = p["lift_master"]![0] + p["lift"]![c]
                let white = Swift.max(0, p["gain_master"]![0] + p["gain"]![c])
                let gamma = p["gamma_master"]![0] + p["gamma"]![c]
                // Black to `black`, white to `white`, a straight line between, then bent keeping both ends.
                let level = Reference.clamp01(black + (white - black) * v[c])
                return pow(level, 1 / pow(2, gamma))
            }
        }
    }

    @Test("matches the float64 reference within 1/255 on a 33³ grid")
    func reference() throws {
        let adjustment = try GradeLibrary.adjustment("grade.lift_gamma_gain")
        let input = Reference.grid()
        let output = adjustment.apply(input, GradeCases.liftGammaGain)
        let expected = Reference.map(input, Self.reference(GradeCases.liftGammaGain))
        let error = Reference.maxError(output, expected)
        GradeCases.record("grade.lift_gamma_gain", error)
        #expect(error <= 1.0 / 255)
    }

    @Test("lift moves black and keeps white; gain moves white and keeps black; gamma keeps both")
    func wheelsActWhereNamed() throws {
        let adjustment = try GradeLibrary.adjustment("grade.lift_gamma_gain")
        let ends: [Float] = [0, 0, 0, 1, 1, 1]
        #expect(adjustment.apply(ends, ["lift": [0.1, 0.2, 0.3]]) == [0.1, 0.2, 0.3, 1, 1, 1])
        #expect(adjustment.apply(ends, ["gain": [-0.1, -0.2, -0.3]]) == [0, 0, 0, 0.9, 0.8, 0.7])
        #expect(adjustment.apply(ends, ["gamma": [0.5, -0.5, 1], "gamma_master": [0.3]]) == ends)
        let mid = adjustment.apply([0.25, 0.25, 0.25], ["gamma_master": [1]])
        #expect(mid.allSatisfy { abs($0 - 0.5) < 1e-6 }, "gamma +1 is the square root: \(mid)")
    }
}
