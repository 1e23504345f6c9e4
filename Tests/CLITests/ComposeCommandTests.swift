import Foundation
import LookStudioTestSupport
import LookCore
import LookFormats
import Testing

@Suite struct ComposeCommandTests {
    /// A recipe with adjustments and a LUT file beside it (copied from Tests/Fixtures/reference), in a fresh folder.
    static func recipeFolder(size: Int? = 33) throws -> String {
        let fixtures = CLI.fixtures
        let dir = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: fixtures + "/reference/warm33.cube", toPath: dir + "/warm33.cube")
        let sizeLine = size.map { "size: \($0)\n" } ?? ""
        try """
            name: CLI Chain
            \(sizeLine)steps:
              - adjust: tone.exposure
                params: { stops: 0.3 }
              - lut: warm33.cube
                strength: 60
              - adjust: color.saturation
                params: { amount: 0.2 }
                strength: 75
            """.write(toFile: dir + "/chain.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    @Test("compose -o writes the cube at the recipe's size, --size overrides it, and 64 is the default")
    func sizes() throws {
        let dir = try Self.recipeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var r = try CLI.run(["compose", dir + "/chain.yaml", "-o", dir + "/out.cube"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LUTFormat.read(path: dir + "/out.cube").lut.cube?.size == 33)
        r = try CLI.run(["compose", dir + "/chain.yaml", "--size", "17", "-o", dir + "/out17.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LUTFormat.read(path: dir + "/out17.png").lut.cube?.size == 17)
        let unsized = try Self.recipeFolder(size: nil)
        defer { try? FileManager.default.removeItem(atPath: unsized) }
        r = try CLI.run(["compose", unsized + "/chain.yaml", "-o", unsized + "/out.cube"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LUTFormat.read(path: unsized + "/out.cube").lut.cube?.size == 64)
    }

    @Test("apply --recipe equals applying the composed cube written by compose, bit for bit")
    func applyRecipeEqualsComposedCube() throws {
        let dir = try Self.recipeFolder(), fixtures = CLI.fixtures
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let chart = fixtures + "/reference/chart.png"
        #expect(try CLI.run(["compose", dir + "/chain.yaml", "-o", dir + "/chain.cube"]).status == 0)
        let viaRecipe = try CLI.run(["apply", "--recipe", dir + "/chain.yaml", chart, dir + "/a.png"])
        #expect(viaRecipe.status == 0, "\(viaRecipe.stderr)")
        #expect(try CLI.run(["apply", "--lut", dir + "/chain.cube", chart, dir + "/b.png"]).status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.png"))
        #expect(a == b)
        #expect(a != (try Data(contentsOf: URL(fileURLWithPath: chart))))
    }

    @Test("--explain names each step's plugin file and the LUT, the one cube, and the error per size")
    func explain() throws {
        let dir = try Self.recipeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["compose", dir + "/chain.yaml", "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("libTonePlugin.so"))
        #expect(r.stdout.contains("warm33.cube"))
        #expect(r.stdout.contains("became one 33³ cube"))
        for size in [4, 16, 64] { #expect(r.stdout.contains("\n  \(String(repeating: " ", count: 4 - "\(size)".count))\(size) ")) }
        #expect(r.stdout.contains("← chosen"))

        let json = try CLI.run(["compose", dir + "/chain.yaml", "--explain", "--json", "--size", "20"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["size"] as? Int == 20)
        #expect((object["steps"] as? [Any])?.count == 3)
        let errors = try #require(object["errors"] as? [[String: Any]])
        #expect(errors.compactMap { $0["size"] as? Int } == [4, 16, 20, 33, 64])
        #expect(errors.allSatisfy { ($0["max_code_values"] as? Double ?? -1) >= 0 })
    }

    @Test("a bad recipe fails with the step, its id and the YAML line on stderr, and writes nothing")
    func badRecipe() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "steps:\n  - adjust: tone.contrast\n  - adjust: tone.exposure\n    params: { stops: 9 }\n"
            .write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let r = try CLI.run(["compose", dir + "/bad.yaml", "-o", dir + "/out.cube"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("error: bad.yaml line 4: step 2 (tone.exposure): "))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.cube"))
        try "steps:\n  - adjust: tone.nope\n".write(toFile: dir + "/unknown.yaml", atomically: true, encoding: .utf8)
        let unknown = try CLI.run(["compose", dir + "/unknown.yaml", "-o", dir + "/out.cube"])
        #expect(unknown.stderr.contains("unknown.yaml line 2: step 1 (tone.nope): no adjustment"))
    }

    @Test("apply needs exactly one of --look, --lut and --recipe; compose needs something to do")
    func validation() throws {
        let both = try CLI.run(["apply", "--lut", "a.cube", "--recipe", "r.yaml", "in.png", "out.png"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("only one of"))
        let lookAndLUT = try CLI.run(["apply", "--look", "Warm Film", "--lut", "a.cube", "in.png", "out.png"])
        #expect(lookAndLUT.status != 0)
        #expect(lookAndLUT.stderr.contains("only one of --look, --lut and --recipe"))
        let neither = try CLI.run(["apply", "in.png", "out.png"])
        #expect(neither.status != 0)
        #expect(neither.stderr.contains("--look GUID|NAME, --lut FILE or --recipe FILE"))
        let nothing = try CLI.run(["compose", "r.yaml"])
        #expect(nothing.status != 0)
        #expect(nothing.stderr.contains("nothing to do"))
    }

    /// Writes `text` as `name` in `dir`; returns the path.
    @discardableResult
    static func write(_ text: String, _ name: String, in dir: String) throws -> String {
        try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        return dir + "/" + name
    }

    /// A recipe mixing adjustments, the shipped look "Warm Film" and a LUT file, in `dir` (which holds warm33.cube).
    static let mixedRecipe = """
        name: Mixed
        size: 33
        steps:
          - adjust: tone.contrast
            params: { amount: 0.2 }
          - look: Warm Film
            strength: 70
          - lut: warm33.cube
            strength: 50
          - adjust: color.saturation
            params: { amount: -0.3 }
        """

    @Test("compose --save --name prints a GUID, looks show prints the recipe, apply --look equals apply --recipe")
    func saveShowAndApplyLook() throws {
        let dir = try Self.recipeFolder(), fixtures = CLI.fixtures
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/catalog.sqlite"]
        let recipe = try Self.write(Self.mixedRecipe, "mixed.yaml", in: dir)
        let saved = try CLI.run(["compose", recipe, "--save", "--name", "Mixed Save"] + catalog)
        #expect(saved.status == 0, "\(saved.stderr)")
        let guid = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: guid) != nil, "stdout: \(saved.stdout)")

        let shown = try CLI.run(["looks", "show", guid] + catalog)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("name:          Mixed Save"))
        #expect(shown.stdout.contains("recipe:\nname: Mixed\nsize: 33\nsteps:\n  - adjust: tone.contrast"))
        // The look is stored by GUID, so a rename or another look taking the name cannot change a rebuild.
        let warm = try CLI.run(["looks", "show", "Warm Film", "--json"] + catalog)
        let warmGUID = (try JSONSerialization.jsonObject(with: Data(warm.stdout.utf8)) as? [String: Any])?["guid"]
        #expect(shown.stdout.contains("  - look: \"\(warmGUID as? String ?? "?")\"\n    strength: 70"),
                "\(shown.stdout)")
        // The LUT path is stored absolute, so the recipe rebuilds from any folder.
        #expect(shown.stdout.contains("  - lut: \(URL(fileURLWithPath: dir).standardizedFileURL.path)/warm33.cube"))

        let chart = fixtures + "/reference/chart.png"
        let viaLook = try CLI.run(["apply", "--look", guid, chart, dir + "/look.png"] + catalog)
        #expect(viaLook.status == 0, "\(viaLook.stderr)")
        let viaRecipe = try CLI.run(["apply", "--recipe", recipe, chart, dir + "/recipe.png"] + catalog)
        #expect(viaRecipe.status == 0, "\(viaRecipe.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/look.png"))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/recipe.png"))
        #expect(a == b)
        #expect(a != (try Data(contentsOf: URL(fileURLWithPath: chart))))
        // By name as well as by GUID.
        #expect(try CLI.run(["apply", "--look", "mixed save", chart, dir + "/named.png"] + catalog).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/named.png")) == a)
    }

    @Test("a recipe's look: step finds a look by GUID prefix as well as by name")
    func lookStepByGUIDPrefix() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/catalog.sqlite"]
        let byName = try Self.write("steps:\n  - look: Warm Film\n    strength: 80\n", "name.yaml", in: dir)
        let byPrefix = try Self.write("steps:\n  - look: 7c7c394c-2638\n    strength: 80\n", "prefix.yaml", in: dir)
        #expect(try CLI.run(["compose", byName, "-o", dir + "/name.cube"] + catalog).status == 0)
        let r = try CLI.run(["compose", byPrefix, "-o", dir + "/prefix.cube"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        let a = try #require(try LUTFormat.read(path: dir + "/name.cube").lut.cube)
        let b = try #require(try LUTFormat.read(path: dir + "/prefix.cube").lut.cube)
        #expect(a == b)
        #expect(a != (try ColorCube.identity(size: a.size)))
    }

    @Test("an unknown look in a recipe is an error naming the file, line, step and look; nothing is written")
    func unknownLook() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recipe = try Self.write("steps:\n  - adjust: tone.contrast\n    params: { amount: 0.1 }\n"
            + "  - look: No Such Look\n", "missing.yaml", in: dir)
        let r = try CLI.run(["compose", recipe, "-o", dir + "/out.cube", "--catalog", dir + "/catalog.sqlite"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("error: missing.yaml line 4: step 2 (look No Such Look): no look named"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.cube"))
        let apply = try CLI.run(["apply", "--recipe", recipe, "in.png", dir + "/out.png",
                                 "--catalog", dir + "/catalog.sqlite"])
        #expect(apply.status != 0)
        #expect(apply.stderr.contains("missing.yaml line 4: step 2 (look No Such Look)"))
    }
}
