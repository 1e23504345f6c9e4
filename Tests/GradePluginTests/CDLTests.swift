import Foundation
import Testing

@Suite("grade.cdl (Plugins/Grade/cdl.c)")
struct CDLTests {
    /// ASC CDL 1.2 (style asc) and OpenColorIO's CDL_NO_CLAMP (style no-clamp), from their definitions.
    static func reference(_ p: [String: [Float]], noClamp: Bool) -> ([Double]) -> [Double] {
        let slope = p["slope"]!.map(Double.init), offset = p["offset"]!.map(Double.init)
        let power = p["power"]!.map(Double.init), saturation = Double(p["saturation"]![0])
        return { v in
            let sop = (0..<3).map { c -> Double in
                let x = v[c] * slope[c] + offset[c]
                if noClamp { return x < 0 ? x : pow(x, power[c]) }
                return pow(Reference.clamp01(x), power[c])
            }
            let luma = Reference.luma(sop)
            let saturated = sop.map { luma + saturation * ($0 - luma) }
            return noClamp ? saturated : saturated.map(Reference.clamp01)
        }
    }

    @Test("both styles match the float64 reference within 1/255 on a 33³ grid", arguments: [0, 1])
    func reference(style: Int) throws {
        let adjustment = try GradeLibrary.adjustment("grade.cdl")
        let parameters = GradeCases.cdl(style: Float(style))
        let input = Reference.grid()
        let output = adjustment.apply(input, parameters)
        let error = Reference.maxError(output, Reference.map(input, Self.reference(parameters, noClamp: style == 1)))
        GradeCases.record("grade.cdl style \(style == 0 ? "asc" : "no-clamp")", error)
        #expect(error <= 1.0 / 255)
    }

    @Test("asc clamps before the power and at the end; no-clamp keeps negatives and values above 1")
    func clamps() throws {
        let adjustment = try GradeLibrary.adjustment("grade.cdl")
        let parameters: [String: [Float]] = ["slope": [2, 1, 1], "offset": [0, -0.2, 0], "power": [2, 2, 1]]
        let asc = adjustment.apply([0.8, 0.1, 0.5], parameters.merging(["style": [0]]) { $1 })
        let free = adjustment.apply([0.8, 0.1, 0.5], parameters.merging(["style": [1]]) { $1 })
        #expect(asc == [1, 0, 0.5])
        #expect(abs(free[0] - 2.56) < 1e-6 && abs(free[1] - -0.1) < 1e-7 && free[2] == 0.5)
    }

    @Test("saturation 0 gives Rec. 709 luma in every channel")
    func saturationWeights() throws {
        let adjustment = try GradeLibrary.adjustment("grade.cdl")
        let output = adjustment.apply([1, 0, 0, 0, 1, 0, 0, 0, 1], ["saturation": [0]])
        let expected: [Float] = [0.2126, 0.7152, 0.0722]
        for pixel in 0..<3 {
            for c in 0..<3 { #expect(abs(output[3 * pixel + c] - expected[pixel]) < 1e-6) }
        }
    }
}
