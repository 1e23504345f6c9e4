import Foundation
import PluginHost
import Testing

/// The `--json` form of parameters (docs/PLUGINS.md): version 1 keys unchanged, new keys only on the new kinds.
@Suite("ParameterDescriptor JSON (ParameterDescriptor+JSON.swift)")
struct ParameterDescriptorJSONTests {
    private func object(_ descriptor: ParameterDescriptor) throws -> [String: Any] {
        let data = try JSONEncoder().encode(descriptor)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a number parameter has exactly the version 1 keys")
    func numberKeys() throws {
        let amount = ParameterDescriptor(name: "amount", displayName: "Amount", description: "d", kind: .scalar,
                                         min: -1, max: 1, defaultValue: 0.25, identityValue: 0)
        let json = try object(amount)
        #expect(Set(json.keys) == ["name", "display_name", "description", "kind", "min", "max", "default", "identity"])
        #expect(json["default"] as? Double == 0.25 && json["identity"] as? Double == 0)
    }

    @Test("a curve adds x_min, x_max, max_points and periodic; its default and identity are [[x, y], …]")
    func curveKeys() throws {
        let json = try object(ParameterDescriptorTests.hue)
        #expect(Set(json.keys) == ["name", "display_name", "description", "kind", "min", "max", "default", "identity",
                                   "x_min", "x_max", "max_points", "periodic"])
        #expect(json["kind"] as? String == "curve")
        #expect(json["x_max"] as? Double == 360 && json["max_points"] as? Int == 16)
        #expect(json["periodic"] as? Bool == true)
        #expect(json["default"] as? [[Double]] == [[0, 0]])
    }

    @Test("a colour adds wheel and gives [r, g, b]; a choice adds choices and gives option names")
    func colourAndChoiceKeys() throws {
        let slope = try object(ParameterDescriptorTests.slope)
        #expect(slope["wheel"] as? Bool == false && slope["identity"] as? [Double] == [1, 1, 1])
        #expect(slope["choices"] == nil && slope["x_min"] == nil)
        let style = try object(ParameterDescriptorTests.style)
        #expect(style["choices"] as? [String] == ["fwd", "rev", "no-clamp"])
        #expect(style["default"] as? String == "fwd" && style["kind"] as? String == "choice")
    }

    @Test("every kind decodes back to an equal descriptor; a default breaking the rules does not decode")
    func roundTrip() throws {
        for descriptor in [ParameterDescriptorTests.tone, ParameterDescriptorTests.hue, ParameterDescriptorTests.slope,
                           ParameterDescriptorTests.style] {
            let data = try JSONEncoder().encode(descriptor)
            #expect(try JSONDecoder().decode(ParameterDescriptor.self, from: data) == descriptor)
        }
        let broken = """
            {"name": "m", "display_name": "M", "description": "", "kind": "curve", "min": 0, "max": 1,
             "default": [[0, 0], [0, 1]], "identity": [[0, 0], [1, 1]], "x_min": 0, "x_max": 1, "max_points": 4,
             "periodic": false}
            """
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ParameterDescriptor.self, from: Data(broken.utf8))
        }
    }
}
