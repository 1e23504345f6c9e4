import Foundation
import PluginHost
import Testing

@Suite("ParameterValue and ParameterSetting")
struct ParameterValueTests {
    @Test("apply receives 1 float for a number or a choice, 3 for a colour, x y pairs for a curve")
    func floats() {
        #expect(ParameterValue.number(0.5).floats == [0.5])
        #expect(ParameterValue.choice(2).floats == [2])
        #expect(ParameterValue.color(SIMD3(1.1, 1, 0.9)).floats == [1.1, 1, 0.9])
        let curve = ParameterValue.curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(1, 1)])
        #expect(curve.floats == [0, 0, 0.25, 0.2, 1, 1])
        #expect(curve.floatCount == 6)
        #expect(ParameterValue.maximumFloatCount == 128)
    }

    @Test("JSON: numbers as numbers, colours as [r, g, b], curves as [[x, y], …], choices as strings")
    func jsonForms() throws {
        let settings: [String: ParameterSetting] = [
            "amount": 0.25, "slope": .color(SIMD3(1.1, 1, 0.9)), "style": "no-clamp",
            "master": .curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(1, 1)]),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(settings), as: UTF8.self)
        #expect(text == #"{"amount":0.25,"master":[[0,0],[0.25,0.2],[1,1]],"slope":[1.1,1,0.9],"style":"no-clamp"}"#)
        #expect(try JSONDecoder().decode([String: ParameterSetting].self, from: Data(text.utf8)) == settings)
    }

    @Test("JSON that cannot be a value is refused saying why: two numbers, a three-number point, x going back")
    func jsonRefusals() {
        func refusal(_ json: String) -> String? {
            do {
                _ = try JSONDecoder().decode(ParameterSetting.self, from: Data(json.utf8))
                return nil
            } catch DecodingError.dataCorrupted(let context) {
                return context.debugDescription
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal("[1, 2]") == "a colour is three numbers [r, g, b], not 2")
        #expect(refusal("[[0, 0], [1, 1, 1]]") == "point 2 of a curve is [x, y], not 3 numbers")
        #expect(refusal("[[0, 0], [0.5, 0.2], [0.25, 1]]") == "point 3 x=0.25 is not after point 2 x=0.5")
        #expect(refusal("{\"a\": 1}") == "a parameter value is a number, an option name, [r, g, b] or [[x, y], …]")
        let long = "[" + (0..<65).map { "[\($0), 0]" }.joined(separator: ",") + "]"
        #expect(refusal(long) == "a curve has at most 64 points, not 65")
    }

    @Test("compact text for reports: a curve of more than eight points shows six, an ellipsis and the last")
    func compactText() {
        #expect(ParameterSetting.number(0.25).description == "0.25")
        #expect(ParameterSetting.color(SIMD3(1.1, 1, 0.9)).description == "(1.1, 1, 0.9)")
        #expect(ParameterSetting.choice("no-clamp").description == "no-clamp")
        #expect(ParameterSetting.curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(1, 1)]).description
                == "[0,0 0.25,0.2 1,1]")
        let twelve = ParameterSetting.curve((0...11).map { SIMD2(Double($0) / 11 * 11, Double($0)) })
        #expect(twelve.description == "[0,0 1,1 2,2 3,3 4,4 5,5 … 11,11] (12 points)")
        #expect(twelve.fullDescription.hasSuffix("10,10 11,11]"))
    }

    @Test("curveProblem: empty, more than 64 points, x not strictly increasing, not finite")
    func curveProblem() {
        #expect(ParameterSetting.curveProblem([SIMD2(0, 0), SIMD2(1, 1)]) == nil)
        #expect(ParameterSetting.curveProblem([]) == "a curve needs at least one point [x, y]")
        #expect(ParameterSetting.curveProblem((0..<65).map { SIMD2(Double($0), 0) })
                == "a curve has at most 64 points, not 65")
        #expect(ParameterSetting.curveProblem([SIMD2(0.5, 0), SIMD2(0.5, 1)]) == "point 2 x=0.5 is not after point 1 "
            + "x=0.5")
        #expect(ParameterSetting.curveProblem([SIMD2(0, .infinity)]) == "point 1 is not two finite numbers")
    }
}
