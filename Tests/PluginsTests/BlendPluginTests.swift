import PluginHost
import Testing

@Suite("Blend plugin (Plugins/Blend/BlendPlugin.swift)")
struct BlendPluginTests {
    private let grid = BuiltInPlugins.grid(33)

    @Test("screen never darkens and lightens every mid tone")
    func screenLightens() throws {
        let output = try BuiltInPlugins.apply(try BuiltInPlugins.adjustment("blend.screen"), grid, ["amount": 1])
        #expect(zip(output, grid).allSatisfy { $0 >= $1 })
        #expect(zip(output, grid).allSatisfy { $1 <= 0 || $1 >= 1 || $0 > $1 })
    }

    @Test("multiply never lightens and darkens every mid tone")
    func multiplyDarkens() throws {
        let output = try BuiltInPlugins.apply(try BuiltInPlugins.adjustment("blend.multiply"), grid, ["amount": 1])
        #expect(zip(output, grid).allSatisfy { $0 <= $1 })
        #expect(zip(output, grid).allSatisfy { $1 <= 0 || $1 >= 1 || $0 < $1 })
    }

    @Test("overlay and soft light are S-curves: darker below 0.5, lighter above, fixed at 0, 0.5 and 1",
          arguments: ["blend.overlay", "blend.soft_light"])
    func sCurves(id: String) throws {
        let output = try BuiltInPlugins.apply(try BuiltInPlugins.adjustment(id), [0, 0.25, 0.5, 0.75, 1, 0.3], [:])
        #expect(output[0] == 0 && output[2] == 0.5 && output[4] == 1)
        #expect(output[1] < 0.25 && output[3] > 0.75)
        #expect(BuiltInPlugins.isMonotonic(try BuiltInPlugins.apply(
            try BuiltInPlugins.adjustment(id), BuiltInPlugins.ramps()[0], [:])))
    }

    @Test("soft light is gentler than overlay")
    func softLightGentler() throws {
        let input: [Float] = [0.2, 0.2, 0.2, 0.8, 0.8, 0.8]
        let overlay = try BuiltInPlugins.apply(try BuiltInPlugins.adjustment("blend.overlay"), input, [:])
        let soft = try BuiltInPlugins.apply(try BuiltInPlugins.adjustment("blend.soft_light"), input, [:])
        #expect(abs(soft[0] - 0.2) < abs(overlay[0] - 0.2))
        #expect(abs(soft[3] - 0.8) < abs(overlay[3] - 0.8))
    }

    @Test("amount mixes linearly between the input and the full blend")
    func amountMixes() throws {
        let screen = try BuiltInPlugins.adjustment("blend.screen")
        let half = try BuiltInPlugins.apply(screen, [0.4, 0.4, 0.4], ["amount": 0.5])
        // Screen of 0.4 with itself is 1 − 0.6² = 0.64; halfway from 0.4 is 0.52.
        #expect(abs(half[0] - 0.52) < 1e-6)
    }
}
