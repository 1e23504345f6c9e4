import Foundation
import LookCore
import PluginHost
import Testing

@Suite("Adjustment")
struct AdjustmentTests {
    private func builtIn(_ id: String) throws -> Adjustment {
        let directory = try #require(PluginTestSupport.buildDirectory)
        return try #require(PluginRegistry.load(searchPaths: [directory]).adjustment(id: id))
    }

    @Test("missing parameters take their defaults, given ones are kept in declaration order")
    func defaultsFillIn() throws {
        let levels = try builtIn("tone.levels")
        #expect(try levels.resolveParameters([:]) == levels.defaultParameters)
        #expect(try levels.resolveParameters(["white": 0.9]) == [.number(0), .number(0.9)])
        #expect(try levels.resolveParameters(["white": 0.9, "black": 0.1]) == [.number(0.1), .number(0.9)])
    }

    @Test("a value equal to a Float bound written in decimal is accepted")
    func decimalBoundAccepted() throws {
        let levels = try builtIn("tone.levels")
        #expect(try levels.resolveParameters(["black": 0.45]) == [.number(0.45), .number(1)])
    }

    @Test("unknown names, out-of-range and non-finite values throw, naming adjustment and parameter")
    func badParametersThrow() throws {
        let contrast = try builtIn("tone.contrast")
        #expect(throws: PluginHostError.unknownParameter(
            adjustment: "tone.contrast", name: "amout", known: ["amount"])) {
            try contrast.resolveParameters(["amout": 0.2])
        }
        #expect(throws: PluginHostError.parameterOutOfRange(
            adjustment: "tone.contrast", name: "amount", value: 1.5, min: -1, max: 1)) {
            try contrast.resolveParameters(["amount": 1.5])
        }
        #expect(throws: PluginHostError.parameterNotFinite(adjustment: "tone.contrast", name: "amount")) {
            try contrast.resolveParameters(["amount": .number(.nan)])
        }
        let message = PluginHostError.parameterOutOfRange(
            adjustment: "tone.contrast", name: "amount", value: 1.5, min: -1, max: 1).description
        #expect(message == "tone.contrast parameter amount = 1.5 is out of range: use -1.0…1.0")
    }

    @Test("applying in place gives the same result as applying into another buffer")
    func inPlaceMatchesCopy() throws {
        let hue = try builtIn("color.hue")
        let parameters = try hue.resolveParameters(["angle": 40])
        let input: [Float] = [0.9, 0.2, 0.1, 0.3, 0.6, 0.8, 0.5, 0.5, 0.5]
        var copy = [Float](repeating: 0, count: input.count)
        try input.withUnsafeBufferPointer { source in
            try copy.withUnsafeMutableBufferPointer { try hue.apply(source, $0, parameters: parameters) }
        }
        var inPlace = input
        try inPlace.withUnsafeMutableBufferPointer { buffer in
            try hue.apply(UnsafeBufferPointer(buffer), buffer, parameters: parameters)
        }
        #expect(inPlace == copy)
        #expect(copy != input)
    }

    @Test("baked at its identity parameters an adjustment is the identity cube")
    func bakedIdentity() throws {
        let exposure = try builtIn("tone.exposure")
        let cube = try exposure.bakedCube(size: 17, parameters: exposure.identityParameters)
        #expect(cube.size == 17)
        #expect(cube.distanceFromIdentity.max < 1e-6)
        let brighter = try exposure.bakedCube(size: 17, parameters: try exposure.resolveParameters(["stops": 1]))
        #expect(brighter.distanceFromIdentity.max > 0.1)
    }

    @Test("typed values reach apply intact in process: counts and floats of a curve, a colour, a choice, a number")
    func typedValuesInProcess() throws {
        let directory = try PluginTestSupport.typedPluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let echo = try #require(PluginRegistry.load(searchPaths: [directory]).adjustment(id: "typed.echo"))
        #expect(echo.parameters.map(\.kind) == [.curve, .color, .choice, .curve, .scalar])
        let values = try echo.resolveParameters(PluginTestSupport.echoSettings)
        let output = try PluginTestSupport.run(echo, values: values)
        let count = PluginTestSupport.echoed.count
        #expect(Array(output.prefix(count)) == PluginTestSupport.echoed)
        #expect(output.dropFirst(count).allSatisfy { $0 == 0.5 }, "the rest of the buffer is the input")
        let defaults = try PluginTestSupport.run(echo, values: echo.defaultParameters)
        #expect(Array(defaults.prefix(13)) == [4, 0, 0, 1, 1, 3, 0.9, 0.5, 0.1, 1, 1, 2, 0])
    }

    @Test("resolving typed values: unknown options list the choices; bad curves, colours and kinds say what is wrong")
    func typedResolutionErrors() throws {
        let directory = try PluginTestSupport.typedPluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let echo = try #require(PluginRegistry.load(searchPaths: [directory]).adjustment(id: "typed.echo"))
        #expect(throws: PluginHostError.unknownChoice(adjustment: "typed.echo", name: "mode", given: "second",
                                                      options: ["first", "no-clamp", "third"])) {
            try echo.resolveParameters(["mode": "second"])
        }
        #expect(PluginHostError.unknownChoice(adjustment: "typed.echo", name: "mode", given: "second",
                                              options: ["first", "no-clamp", "third"]).description
                == "typed.echo parameter mode has no option \"second\": use one of first, no-clamp, third")
        #expect(throws: PluginHostError.invalidParameter(adjustment: "typed.echo", name: "curve",
                                                         problem: "point 3 x=0.2 is not after point 2 x=0.25")) {
            try echo.resolveParameters(["curve": .curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(0.2, 1)])])
        }
        #expect(throws: PluginHostError.invalidParameter(adjustment: "typed.echo", name: "hue",
                                                         problem: "point 1 x=360 is outside 0…360 (periodic: x stays "
                                                             + "below 360, the same place as 0)")) {
            try echo.resolveParameters(["hue": .curve([SIMD2(360, 0)])])
        }
        #expect(throws: PluginHostError.invalidParameter(adjustment: "typed.echo", name: "tint",
                                                         problem: "takes a colour [r, g, b], not a number")) {
            try echo.resolveParameters(["tint": 1])
        }
        #expect(throws: PluginHostError.invalidParameter(adjustment: "typed.echo", name: "curve",
                                                         problem: "has 9 points; give 2 to 8")) {
            try echo.resolveParameters(["curve": .curve((0..<9).map { SIMD2(Double($0) / 8, 0) })])
        }
    }

    @Test("apply refuses a value that breaks its descriptor before the plugin sees it")
    func applyChecksValues() throws {
        let directory = try PluginTestSupport.typedPluginDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let echo = try #require(PluginRegistry.load(searchPaths: [directory]).adjustment(id: "typed.echo"))
        var values = echo.defaultParameters
        values[0] = .curve((0..<40).map { SIMD2(Float($0) / 40, 0) })
        #expect(throws: PluginHostError.invalidParameter(adjustment: "typed.echo", name: "curve",
                                                         problem: "has 40 points; give 2 to 8")) {
            _ = try PluginTestSupport.run(echo, values: values)
        }
        values[0] = .color(SIMD3(1, 1, 1))
        #expect(throws: PluginHostError.invalidParameter(adjustment: "typed.echo", name: "curve",
                                                         problem: "is a curve [[x, y], …], not a colour")) {
            _ = try PluginTestSupport.run(echo, values: values)
        }
    }
}
