import Foundation
import Testing
@testable import Studio
import Workflows

/// API bodies that do not match: the answer names the field and the problem, never Swift's `DecodingError` text.
@Suite struct StudioJSONTests {
    static func problem(_ json: String) -> String {
        do {
            _ = try StudioJSON.decode(StudioComposeRequest.self, from: Data(json.utf8))
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"recipes":{"steps":[]}}"#, "recipe: missing"),
        (#"{"recipe":{"steps":[]},"size":"x"}"#, "size: expected a whole number"),
        (#"{"recipe":{"steps":[]},"size":33.5}"#, "size: expected a whole number"),
        (#"{"recipe":{"steps":[]},"strength":2.5,"size":1e30}"#, "size: the number is out of range"),
        (#"{"recipe":{"steps":[],"size":17.5}}"#, "recipe.size: expected a whole number"),
        (#"{"recipe":null}"#, "recipe: expected an object, not null"),
        (#"{"recipe":{"steps":[{"adjust":"x","params":{"a":{"b":1}}}]}}"#, "recipe.steps[0].params.a: a parameter "
            + "value is a number, an option name, [r, g, b] or [[x, y], …]"),
        (#"{"recipe":{"steps":[{"adjust":"x","params":{"a":[1,2]}}]}}"#,
         "recipe.steps[0].params.a: a colour is three numbers [r, g, b], not 2"),
        (#"{"recipe":{"steps":[{}]}}"#, "recipe.steps[0]: a step needs one of adjust, look or lut"),
        (#"{"recipe":{"steps":"#, "not valid JSON"),
    ])
    func aMismatchNamesTheFieldAndTheProblem(json: String, expected: String) {
        let text = Self.problem(json)
        #expect(text == "the JSON body does not match the API (README, \"The studio\"): " + expected)
        #expect(!text.contains("DecodingError") && !text.contains("CodingKeys"))
    }
}
