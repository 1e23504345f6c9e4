import PluginHost
import Testing

@Suite("Colour plugin (Plugins/Color/color.c)")
struct ColorTests {
    @Test("black and white yields R = G = B for every colour and every filter")
    func blackAndWhiteIsGrey() throws {
        let blackWhite = try BuiltInPlugins.adjustment("color.black_white")
        let grid = BuiltInPlugins.grid(17)
        for (hue, strength) in [(0.0, 0.0), (0.0, 1.0), (60, 0.5), (120, 1), (240, 0.7)] {
            let output = try BuiltInPlugins.apply(
                blackWhite, grid, ["filter_hue": .number(hue), "filter_strength": .number(strength), "amount": 1])
            for pixel in stride(from: 0, to: output.count, by: 3) {
                #expect(output[pixel] == output[pixel + 1] && output[pixel + 1] == output[pixel + 2])
            }
        }
    }

    @Test("a red filter renders red lighter and blue darker than a blue filter does")
    func filterColour() throws {
        let blackWhite = try BuiltInPlugins.adjustment("color.black_white")
        let input: [Float] = [0.8, 0.1, 0.1, 0.1, 0.1, 0.8]
        let red = try BuiltInPlugins.apply(blackWhite, input, ["filter_hue": 0, "filter_strength": 1])
        let blue = try BuiltInPlugins.apply(blackWhite, input, ["filter_hue": 240, "filter_strength": 1])
        #expect(red[0] > blue[0])
        #expect(red[3] < blue[3])
    }

    @Test("saturation -1 turns every colour to its luma grey; +1 moves away from grey")
    func saturation() throws {
        let saturation = try BuiltInPlugins.adjustment("color.saturation")
        let input: [Float] = [0.6, 0.3, 0.2]
        let grey = try BuiltInPlugins.apply(saturation, input, ["amount": -1])
        let luma: Float = 0.2126 * 0.6 + 0.7152 * 0.3 + 0.0722 * 0.2
        #expect(grey.allSatisfy { abs($0 - luma) < 1e-6 })
        let vivid = try BuiltInPlugins.apply(saturation, input, ["amount": 0.5])
        #expect(vivid[0] - vivid[2] > input[0] - input[2])
    }

    @Test("vibrance moves a muted colour more than a vivid one")
    func vibrance() throws {
        let vibrance = try BuiltInPlugins.adjustment("color.vibrance")
        let input: [Float] = [0.55, 0.45, 0.45, 1.0, 0.1, 0.1]
        let output = try BuiltInPlugins.apply(vibrance, input, ["amount": 0.5])
        let mutedGain = (output[0] - output[1]) / (input[0] - input[1])
        let vividGain = (output[3] - output[4]) / (input[3] - input[4])
        #expect(mutedGain > vividGain)
        #expect(mutedGain > 1)
    }

    @Test("a hue rotation of 120° carries red to green and green to blue; greys stay")
    func hueRotation() throws {
        let hue = try BuiltInPlugins.adjustment("color.hue")
        let output = try BuiltInPlugins.apply(hue, [1, 0, 0, 0, 1, 0, 0.4, 0.4, 0.4], ["angle": 120])
        let expected: [Float] = [0, 1, 0, 0, 0, 1, 0.4, 0.4, 0.4]
        #expect(BuiltInPlugins.maxDifference(output, expected) < 1e-6)
        let small = try BuiltInPlugins.apply(hue, [1, 0, 0], ["angle": 20])
        #expect(small[1] > small[2], "a small positive angle turns red towards yellow")
    }
}
