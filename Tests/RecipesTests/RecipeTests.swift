import Foundation
import Recipes
import Testing

@Suite struct RecipeTests {
    static let brief = """
        name: Warm Film
        size: 64
        steps:
          - adjust: tone.contrast
            params: { amount: 0.25 }
          - adjust: wb.temperature
            params: { shift: 800 }
            strength: 80
          - look: Cyanotype          # name or GUID of a catalog look
            strength: 60
        """

    /// The error a parse throws, or nil when it succeeds.
    static func parseError(_ yaml: String) -> RecipeError? {
        do {
            _ = try Recipe.parse(yaml, fileName: "test.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test("the BRIEF's example parses into its name, size and three steps with their strengths")
    func briefExample() throws {
        let recipe = try Recipe.parse(Self.brief, fileName: "warm.yaml")
        #expect(recipe.name == "Warm Film")
        #expect(recipe.size == 64)
        #expect(recipe.steps.map(\.operation) == [
            .adjust(id: "tone.contrast", params: ["amount": 0.25]),
            .adjust(id: "wb.temperature", params: ["shift": 800]),
            .look("Cyanotype"),
        ])
        #expect(recipe.steps.map(\.strength) == [100, 80, 60])
        #expect(recipe.steps.map(\.line) == [4, 6, 9])
        #expect(recipe.fileName == "warm.yaml")
    }

    @Test("name and size are optional; strength defaults to 100; a LUT step keeps its path as written")
    func defaults() throws {
        let recipe = try Recipe.parse("steps:\n  - lut: films/warm.cube\n  - adjust: tone.gamma\n", fileName: "r.yaml")
        #expect(recipe.name == nil)
        #expect(recipe.size == nil)
        #expect(recipe.steps == [RecipeStep(.lut("films/warm.cube")), RecipeStep(.adjust(id: "tone.gamma", params: [:]))])
        #expect(recipe.steps.allSatisfy { $0.strength == 100 })
    }

    @Test("bool parameters read as 0 and 1")
    func boolParameters() throws {
        let recipe = try Recipe.parse("steps:\n  - adjust: example.invert\n    params: { enabled: true }\n",
                                      fileName: "r.yaml")
        #expect(recipe.steps[0].operation == .adjust(id: "example.invert", params: ["enabled": 1]))
    }

    @Test("the canonical YAML parses back to an equal recipe, awkward names included")
    func yamlRoundTrip() throws {
        let recipe = Recipe(name: "Warm: \"yes\" #2", size: 33, steps: [
            RecipeStep(.adjust(id: "tone.contrast", params: ["amount": 0.1, "x": -2])),
            RecipeStep(.look("true"), strength: 150),
            RecipeStep(.lut("../luts/my warm.cube"), strength: 12.5),
            RecipeStep(.look("5B1C3F0A-0000-4000-8000-000000000001")),
        ])
        let back = try Recipe.parse(recipe.yaml, fileName: "round.yaml")
        #expect(back == recipe)
        #expect(back.yaml == recipe.yaml)
    }

    @Test("Codable: JSON round trip keeps the chain")
    func codable() throws {
        let recipe = try Recipe.parse(Self.brief, fileName: "warm.yaml")
        let data = try JSONEncoder().encode(recipe)
        #expect(try JSONDecoder().decode(Recipe.self, from: data) == recipe)
    }

    @Test("load remembers the recipe's folder, so LUT paths are relative to the recipe file")
    func loadResolvesRelativePaths() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-recipe-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "steps:\n  - lut: ../luts/warm.cube\n  - lut: /abs/x.cube\n"
            .write(toFile: dir + "/sub/r.yaml", atomically: true, encoding: .utf8)
        let recipe = try Recipe.load(path: dir + "/sub/r.yaml")
        let expected = URL(fileURLWithPath: dir + "/luts/warm.cube").standardizedFileURL.path
        #expect(recipe.resolvedPath("../luts/warm.cube") == expected)
        #expect(recipe.resolvedPath("/abs/x.cube") == "/abs/x.cube")
        #expect(recipe.withAbsolutePaths().steps[0].operation == .lut(expected))
        #expect(recipe.fileName == "r.yaml")
    }

    @Test("a recipe nested under a key of a larger file keeps the file's line numbers")
    func underKey() throws {
        let yaml = "guid: X\nname: Y\nrecipe:\n  size: 16\n  steps:\n    - adjust: tone.gamma\n"
        let recipe = try #require(try Recipe.parse(yaml, fileName: "look.yaml", underKey: "recipe"))
        #expect(recipe.size == 16)
        #expect(recipe.steps.first?.line == 6)
        #expect(try Recipe.parse("guid: X\n", fileName: "look.yaml", underKey: "recipe") == nil)
    }

    @Test("a list used as a key is refused with its line before Yams composes it (2^depth time there)")
    func listKey() {
        let deep = String(repeating: "[", count: 30) + "a" + String(repeating: "]", count: 30)
        let error = Self.parseError("name: A\nsteps: []\n{[\(deep), b]: 1, [\(deep), b]: 2}: 3\n")
        #expect(error == .recipe(file: "test.yaml", line: 3, message: "a key is a mapping; keys must be words "
                                 + "(e.g. `name: warm`), not nested structures"))
    }

    /// Found by the `recipe` fuzz target: Yams reads `33:…` as a base-60 whole number with unchecked arithmetic.
    @Test("a size that reads as an overflowing base-60 number is an error, not a trap")
    func base60Size() {
        let error = Self.parseError("name: Mixed\nsize: 33:3333333333333333333:333333\n")
        #expect(error == .recipe(file: "test.yaml", line: 2, message: "\"33:3333333333333333333:333333\" reads as a "
                                 + "base-60 number (YAML 1.1) too large for a whole number; quote it if it is text"))
    }

    @Test("an unknown top-level key is an error naming it and its line")
    func unknownTopKey() {
        let error = Self.parseError("name: A\nsteps: []\ncolour: red\n")
        #expect(error == .recipe(file: "test.yaml", line: 3,
                                 message: "unknown key \"colour\": a recipe has name, size and steps"))
        #expect(error?.description.hasPrefix("test.yaml line 3: unknown key \"colour\"") == true)
    }

    @Test("an unknown key in a step names the step's index, id and the key's line")
    func unknownStepKey() throws {
        let error = try #require(Self.parseError("steps:\n  - adjust: tone.gamma\n  - adjust: tone.contrast\n    amount: 1\n"))
        #expect(error.description.hasPrefix("test.yaml line 4: step 2 (tone.contrast): unknown key \"amount\""))
    }

    @Test("adjustment strength above 100 is refused with the step and line; a look may go to 200, not beyond")
    func strengthRanges() throws {
        let adjust = try #require(Self.parseError("steps:\n  - adjust: tone.gamma\n    strength: 150\n"))
        #expect(adjust == .step(file: "test.yaml", line: 3, index: 1, id: "tone.gamma",
                                message: "strength 150 is out of range: use 0…100 (looks and LUTs allow up to 200)"))
        #expect(Self.parseError("steps:\n  - look: Film\n    strength: 200\n") == nil)
        let look = try #require(Self.parseError("steps:\n  - look: Film\n    strength: 201\n"))
        #expect(look.description == "test.yaml line 3: step 1 (look Film): strength 201 is out of range: use 0…200")
        #expect(Self.parseError("steps:\n  - look: Film\n    strength: -1\n") != nil)
    }

    @Test("a step with two kinds, or none, is refused with its index and line")
    func exactlyOneKind() throws {
        let two = try #require(Self.parseError("steps:\n  - look: A\n  - look: B\n    lut: c.cube\n"))
        #expect(two.description == "test.yaml line 3: step 2: give exactly one of adjust, look or lut "
            + "(found look and lut)")
        let none = try #require(Self.parseError("steps:\n  - strength: 50\n"))
        #expect(none.description.hasPrefix("test.yaml line 2: step 1: give exactly one"))
    }

    @Test("params on a look, non-numeric values and wrong shapes are refused with lines")
    func badValues() throws {
        let params = try #require(Self.parseError("steps:\n  - look: A\n    params: { amount: 1 }\n"))
        #expect(params.description == "test.yaml line 3: step 1 (look A): params belong to adjust steps only")
        let text = try #require(Self.parseError("steps:\n  - adjust: tone.gamma\n    params:\n      gamma: High value\n"))
        #expect(text.description == "test.yaml line 4: step 1 (tone.gamma): parameter gamma must be a number, an "
            + "option name, a colour [r, g, b] or a curve [[x, y], …], not \"High value\"")
        #expect(Self.parseError("size: 1\nsteps: []\n")?.description.hasPrefix("test.yaml line 1: size must be") == true)
        #expect(Self.parseError("steps: tone.gamma\n")?.description.hasPrefix("test.yaml line 1: steps must be a list")
            == true)
        #expect(Self.parseError("name: A\n")?.description.contains("no steps") == true)
        #expect(Self.parseError("")?.description == "test.yaml: the recipe is empty")
    }

    @Test("broken YAML reports the line libyaml stopped at")
    func brokenYAML() throws {
        let error = try #require(Self.parseError("steps:\n  - adjust: tone.gamma\n    params: { gamma: 2\n"))
        guard case .recipe(let file, let line, let message) = error else {
            Issue.record("expected a recipe error, got \(error)")
            return
        }
        #expect(file == "test.yaml")
        #expect(line != nil)
        #expect(message.hasPrefix("not valid YAML"))
        let duplicate = try #require(Self.parseError("name: A\nname: B\nsteps: []\n"))
        #expect(duplicate.description.contains("name"))
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(throws: RecipeError.unreadable(
            path: "/nonexistent/r.yaml", reason: "the file does not exist, is not readable or is not UTF-8 text")) {
            try Recipe.load(path: "/nonexistent/r.yaml")
        }
    }
}
