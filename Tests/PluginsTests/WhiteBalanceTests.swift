import Foundation
import PluginHost
import Testing

@Suite("White balance plugin (Plugins/WhiteBalance/white_balance.c)")
struct WhiteBalanceTests {
    private let grey: [Float] = [0.5, 0.5, 0.5]

    @Test("a positive temperature shift warms a grey (more red than blue), a negative one cools it")
    func temperatureDirection() throws {
        let temperature = try BuiltInPlugins.adjustment("wb.temperature")
        let warm = try BuiltInPlugins.apply(temperature, grey, ["shift": 800])
        let cool = try BuiltInPlugins.apply(temperature, grey, ["shift": -1500])
        #expect(warm[0] > warm[2])
        #expect(cool[2] > cool[0])
        let warmer = try BuiltInPlugins.apply(temperature, grey, ["shift": 3000])
        #expect(warmer[0] - warmer[2] > warm[0] - warm[2], "a bigger shift warms more")
    }

    @Test("a positive tint turns a grey magenta (less green), a negative one green")
    func tintDirection() throws {
        let tint = try BuiltInPlugins.adjustment("wb.tint")
        let magenta = try BuiltInPlugins.apply(tint, grey, ["amount": 0.6])
        let green = try BuiltInPlugins.apply(tint, grey, ["amount": -0.6])
        #expect(magenta[1] < magenta[0] && magenta[1] < magenta[2])
        #expect(green[1] > green[0] && green[1] > green[2])
        #expect(abs(magenta[0] - magenta[2]) < 1e-6, "tint leaves the red-blue balance alone")
    }

    @Test("white balance keeps the luminance of a mid grey", arguments: ["wb.temperature", "wb.tint"])
    func luminanceKept(id: String) throws {
        let adjustment = try BuiltInPlugins.adjustment(id)
        let parameter = try #require(adjustment.parameters.first)
        let value = Double(parameter.min + parameter.max) / 2 + Double(parameter.max - parameter.min) / 4
        let output = try BuiltInPlugins.apply(adjustment, [0.4, 0.4, 0.4], [parameter.name: .number(value)])
        func linear(_ v: Float) -> Double { v <= 0.04045 ? Double(v) / 12.92 : pow((Double(v) + 0.055) / 1.055, 2.4) }
        let luminance = 0.2126 * linear(output[0]) + 0.7152 * linear(output[1]) + 0.0722 * linear(output[2])
        #expect(abs(luminance - linear(0.4)) < 1e-4)
        #expect(output != [0.4, 0.4, 0.4])
    }
}
