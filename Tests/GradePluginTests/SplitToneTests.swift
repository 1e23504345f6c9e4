import Foundation
import Testing

@Suite("color.split_tone (Plugins/Grade/split_tone.c)")
struct SplitToneTests {
    static func reference(_ p: [String: [Float]]) -> ([Double]) -> [Double] {
        func tint(_ hue: Float, _ amount: Float) -> [Double] {
            let colour = Reference.hsvColour(Double(hue))
            return colour.map { Double(amount) * ($0 - Reference.luma(colour)) }
        }
        let shadow = tint(p["shadow_hue"]![0], p["shadow_amount"]![0])
        let highlight = tint(p["highlight_hue"]![0], p["highlight_amount"]![0])
        let balance = Double(p["balance"]![0])
        return { v in
            let y = Reference.luma(v)
            let u = pow(y, pow(4, -balance)), envelope = 4 * y * (1 - y)
            return (0..<3).map { Reference.clamp01(v[$0] + envelope * ((1 - u) * shadow[$0] + u * highlight[$0])) }
        }
    }

    @Test("matches the float64 reference within 1/255 on a 33³ grid", arguments: [Float(0.3), -0.7, 1])
    func reference(balance: Float) throws {
        let adjustment = try GradeLibrary.adjustment("color.split_tone")
        let parameters = GradeCases.splitTone(balance: balance)
        let input = Reference.grid()
        let output = adjustment.apply(input, parameters)
        let error = Reference.maxError(output, Reference.map(input, Self.reference(parameters)))
        GradeCases.record("color.split_tone balance \(balance)", error)
        #expect(error <= 1.0 / 255)
    }

    @Test("black and white stay neutral; a mid grey takes the tint without changing its luma")
    func neutralEnds() throws {
        let adjustment = try GradeLibrary.adjustment("color.split_tone")
        let parameters = GradeCases.splitTone(balance: 0)
        let output = adjustment.apply([0, 0, 0, 1, 1, 1, 0.5, 0.5, 0.5], parameters)
        #expect(Array(output[0..<6]) == [0, 0, 0, 1, 1, 1])
        let grey = Array(output[6..<9]).map(Double.init)
        #expect(abs(Reference.luma(grey) - 0.5) < 1e-6 && grey[0] != grey[2], "\(grey)")
    }
}
