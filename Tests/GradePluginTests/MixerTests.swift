import Foundation
import Testing

@Suite("color.channel_mixer (Plugins/Grade/mixer.c)")
struct MixerTests {
    /// Rows of weights over the encoded values, then (preserve_luminance) the input's Rec. 709 luma restored.
    static func reference(_ parameters: [String: [Float]]) -> ([Double]) -> [Double] {
        let rows = ["red", "green", "blue"].map { parameters[$0]!.map(Double.init) }
        let preserve = parameters["preserve_luminance"]?.first == 1
        return { v in
            var mixed = rows.map { $0[0] * v[0] + $0[1] * v[1] + $0[2] * v[2] }
            if preserve {
                let shift = Reference.luma(v) - Reference.luma(mixed)
                mixed = mixed.map { $0 + shift }
            }
            return mixed.map(Reference.clamp01)
        }
    }

    @Test("matches the float64 reference within 1/255, with and without preserve_luminance", arguments: [0, 1])
    func reference(preserve: Int) throws {
        let adjustment = try GradeLibrary.adjustment("color.channel_mixer")
        let parameters = GradeCases.mixer(preserve: Float(preserve))
        let input = Reference.grid()
        let output = adjustment.apply(input, parameters)
        let error = Reference.maxError(output, Reference.map(input, Self.reference(parameters)))
        GradeCases.record("color.channel_mixer preserve_luminance \(preserve)", error)
        #expect(error <= 1.0 / 255)
    }

    @Test("a monochrome mix with equal rows gives R = G = B")
    func monochrome() throws {
        let adjustment = try GradeLibrary.adjustment("color.channel_mixer")
        let row: [Float] = [0.3, 0.6, 0.1]
        let output = adjustment.apply(Reference.grid(9), ["red": row, "green": row, "blue": row])
        for i in stride(from: 0, to: output.count, by: 3) {
            #expect(output[i] == output[i + 1] && output[i + 1] == output[i + 2])
        }
    }
}
