import Foundation
import PluginHost
import Testing

@Suite("Tone plugin (Plugins/Tone/tone.c)")
struct ToneTests {
    @Test("exposure, brightness, contrast ≥ 0 and gamma never reverse the order of tones",
          arguments: [("tone.exposure", "stops", [-2.0, 0.5, 3]), ("tone.brightness", "amount", [-0.5, 0.3, 1]),
                      ("tone.contrast", "amount", [0, 0.5, 1]), ("tone.gamma", "gamma", [0.2, 0.7, 2.2, 5])])
    func monotonic(id: String, parameter: String, values: [Double]) throws {
        let adjustment = try BuiltInPlugins.adjustment(id)
        for value in values {
            for ramp in BuiltInPlugins.ramps() {
                let output = try BuiltInPlugins.apply(adjustment, ramp, [parameter: .number(value)])
                #expect(BuiltInPlugins.isMonotonic(output), "\(id) \(parameter)=\(value)")
            }
        }
    }

    @Test("highlights and shadows stay monotonic at both ends of their range",
          arguments: ["tone.highlights", "tone.shadows"])
    func curvesMonotonic(id: String) throws {
        let adjustment = try BuiltInPlugins.adjustment(id)
        for amount in [-1.0, 1.0] {
            let ramp = BuiltInPlugins.ramps(1024)[0]
            let output = try BuiltInPlugins.apply(adjustment, ramp, ["amount": .number(amount)])
            #expect(BuiltInPlugins.isMonotonic(output))
        }
    }

    @Test("+1 stop doubles linear light, -1 halves it")
    func exposureDoubles() throws {
        let exposure = try BuiltInPlugins.adjustment("tone.exposure")
        // The sRGB encoding (IEC 61966-2-1), written out here independently of the plugin.
        func encode(_ v: Double) -> Float { Float(v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055) }
        let input = [Float](repeating: encode(0.2), count: 3)
        let up = try BuiltInPlugins.apply(exposure, input, ["stops": 1])
        let down = try BuiltInPlugins.apply(exposure, input, ["stops": -1])
        #expect(abs(up[0] - encode(0.4)) < 1e-6)
        #expect(abs(down[0] - encode(0.1)) < 1e-6)
    }

    @Test("contrast pivots around 18% grey: that grey stays, darker tones go down, lighter ones up")
    func contrastPivot() throws {
        let contrast = try BuiltInPlugins.adjustment("tone.contrast")
        let output = try BuiltInPlugins.apply(contrast, [0.46136, 0.2, 0.8], ["amount": 0.5])
        #expect(abs(output[0] - 0.46136) < 1e-5)
        #expect(output[1] < 0.2)
        #expect(output[2] > 0.8)
        let flat = try BuiltInPlugins.apply(contrast, [0, 0.5, 1], ["amount": -1])
        #expect(flat.allSatisfy { abs($0 - 0.46136) < 1e-5 })
    }

    @Test("gamma above 1 lifts midtones and keeps black and white")
    func gammaLifts() throws {
        let output = try BuiltInPlugins.apply(try BuiltInPlugins.adjustment("tone.gamma"), [0, 0.25, 1], ["gamma": 2])
        #expect(output == [0, 0.5, 1])
    }

    @Test("highlights move light tones more than dark ones; shadows the reverse")
    func highlightsAndShadows() throws {
        let highlights = try BuiltInPlugins.apply(
            try BuiltInPlugins.adjustment("tone.highlights"), [0.2, 0.8, 1], ["amount": 1])
        let shadows = try BuiltInPlugins.apply(
            try BuiltInPlugins.adjustment("tone.shadows"), [0.2, 0.8, 0], ["amount": 1])
        #expect(highlights[1] - 0.8 > highlights[0] - 0.2)
        #expect(shadows[0] - 0.2 > shadows[1] - 0.8)
        #expect(highlights[2] == 1 && shadows[2] == 0)
    }

    @Test("levels maps the black point to 0 and the white point to 1")
    func levels() throws {
        let output = try BuiltInPlugins.apply(
            try BuiltInPlugins.adjustment("tone.levels"), [0.1, 0.5, 0.9], ["black": 0.1, "white": 0.9])
        #expect(abs(output[0]) < 1e-6 && abs(output[1] - 0.5) < 1e-6 && abs(output[2] - 1) < 1e-6)
    }
}
