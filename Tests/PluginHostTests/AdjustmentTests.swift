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
}
