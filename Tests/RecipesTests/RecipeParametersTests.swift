import Foundation
import PluginHost
import Recipes
import Testing

/// Typed parameters in recipes (issue 52): curves, colours and choices in YAML and JSON, their errors with file,
/// line and step, and round trips.
@Suite("Recipe parameters (RecipeParameters.swift)")
struct RecipeParametersTests {
    static let graded = """
        name: Graded
        steps:
          - adjust: tone.contrast
            params: { amount: 0.1 }
          - adjust: typed.grade
            params: { master: [[0, 0], [0.25, 0.2], [1, 1]], slope: [1.1, 1.0, 0.9], style: no-clamp }
          - adjust: grade.options
            params:
              saturation: 1.2
              enabled: true
              mode: "on"
              hue:
                - [0, 0.1]
                - [180, -0.2]
        """

    private func error(_ yaml: String) -> String? {
        do {
            _ = try Recipe.parse(yaml, fileName: "warm.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("each form parses by its shape: numbers, true/false, option names (quoted or not), colours, curves")
    func forms() throws {
        let recipe = try Recipe.parse(Self.graded, fileName: "graded.yaml")
        #expect(recipe.steps.map(\.operation) == [
            .adjust(id: "tone.contrast", params: ["amount": 0.1]),
            .adjust(id: "typed.grade", params: [
                "master": .curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(1, 1)]), "slope": .color(SIMD3(1.1, 1, 0.9)),
                "style": "no-clamp",
            ]),
            .adjust(id: "grade.options", params: [
                "saturation": 1.2, "enabled": 1, "mode": "on", "hue": .curve([SIMD2(0, 0.1), SIMD2(180, -0.2)]),
            ]),
        ])
    }

    @Test("errors name the file, the line, the step and what is wrong", arguments: [
        ("params: { slope: [1.1, 1.0] }", "warm.yaml line 4: step 2 (typed.grade): parameter slope: a colour is "
            + "three numbers [r, g, b], not 2"),
        ("params: { slope: [1.1, red, 0.9] }", "warm.yaml line 4: step 2 (typed.grade): parameter slope must be a "
            + "number, not \"red\""),
        ("params: { master: [[0, 0], [0.25, 0.2], [0.2, 1]] }", "warm.yaml line 4: step 2 (typed.grade): parameter "
            + "master: point 3 x=0.2 is not after point 2 x=0.25"),
        ("params:\n      master:\n        - [0, 0]\n        - [0.5, 0.5]\n        - [0.5, 1]",
         "warm.yaml line 8: step 2 (typed.grade): parameter master: point 3 x=0.5 is not after point 2 x=0.5"),
        ("params: { master: [[0, 0], [1, 1, 1]] }", "warm.yaml line 4: step 2 (typed.grade): parameter master: "
            + "point 2 must be [x, y], not 3 numbers"),
        ("params: { master: [[0, 0], 1] }", "warm.yaml line 4: step 2 (typed.grade): parameter master must be a "
            + "number, an option name, a colour [r, g, b] or a curve [[x, y], …]"),
        ("params: { master: [[0, .nan], [1, 1]] }", "warm.yaml line 4: step 2 (typed.grade): parameter master: "
            + "point 1 y must be a number, not \".nan\""),
        ("params: { master: [] }", "warm.yaml line 4: step 2 (typed.grade): parameter master must be a number, an "
            + "option name, a colour [r, g, b] or a curve [[x, y], …]"),
        ("params: { style: { a: 1 } }", "warm.yaml line 4: step 2 (typed.grade): parameter style must be a number, "
            + "an option name, a colour [r, g, b] or a curve [[x, y], …]"),
        ("params: { style: No Clamp }", "warm.yaml line 4: step 2 (typed.grade): parameter style must be a number, "
            + "an option name, a colour [r, g, b] or a curve [[x, y], …], not \"No Clamp\""),
    ])
    func parseErrors(params: String, expected: String) {
        let yaml = "steps:\n  - adjust: tone.gamma\n  - adjust: typed.grade\n    \(params)\n"
        #expect(error(yaml) == expected)
    }

    @Test("a curve of 65 points is refused when parsed, before any plugin or budget is involved")
    func tooManyPoints() {
        let points = (0..<65).map { "[\(Double($0) / 64), 0]" }.joined(separator: ", ")
        #expect(error("steps:\n  - adjust: typed.grade\n    params: { master: [\(points)] }\n")
                == "warm.yaml line 3: step 1 (typed.grade): parameter master: a curve has at most 64 points, not 65")
    }

    @Test("typed values round-trip through the canonical YAML, awkward option names included")
    func yamlRoundTrip() throws {
        let recipe = try Recipe.parse(Self.graded, fileName: "graded.yaml")
        let yaml = recipe.yaml
        #expect(yaml.contains("params: { master: [[0, 0], [0.25, 0.2], [1, 1]], slope: [1.1, 1, 0.9], "
            + "style: no-clamp }"))
        #expect(yaml.contains("mode: \"on\""), "an option named like a YAML bool is quoted")
        let back = try Recipe.parse(yaml, fileName: "round.yaml")
        #expect(back == recipe)
        #expect(back.yaml == yaml)
    }

    @Test("the JSON form carries numbers, [r, g, b], [[x, y], …] and option names, and decodes back")
    func jsonRoundTrip() throws {
        let recipe = try Recipe.parse(Self.graded, fileName: "graded.yaml")
        let data = try JSONEncoder().encode(recipe)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let params = try #require(steps[1]["params"] as? [String: Any])
        #expect(params["style"] as? String == "no-clamp")
        #expect((params["slope"] as? [Any])?.count == 3)
        #expect((params["master"] as? [[Any]])?.map(\.count) == [2, 2, 2])
        #expect(try JSONDecoder().decode(Recipe.self, from: data) == recipe)
        let studio = #"{"steps": [{"adjust": "typed.grade", "params": {"slope": [1, 2]}}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Recipe.self, from: Data(studio.utf8)) }
    }

    @Test("withAbsolutePaths keeps typed values (the provenance written to the catalog)")
    func absolutePathsKeepValues() throws {
        var recipe = try Recipe.parse(Self.graded + "\n  - lut: luts/x.cube\n", fileName: "graded.yaml")
        recipe.directory = "/recipes"
        let pinned = recipe.withAbsolutePaths()
        #expect(Array(pinned.steps.prefix(3)) == Array(recipe.steps.prefix(3)))
        #expect(pinned.steps[3].operation == .lut("/recipes/luts/x.cube"))
        #expect(try Recipe.parse(pinned.yaml, fileName: "provenance.yaml") == pinned)
    }
}
