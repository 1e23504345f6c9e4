import Foundation
import LookFormats
import Testing

@Suite struct ComposeCommandTests {
    /// A recipe with adjustments and a LUT file beside it (copied from ../shared/reference), in a fresh folder.
    static func recipeFolder(size: Int? = 33) throws -> String? {
        guard let shared = CLI.shared else { return nil }
        let dir = try CLI.tempDir()
        try FileManager.default.copyItem(atPath: shared + "/reference/warm33.cube", toPath: dir + "/warm33.cube")
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
        guard let dir = try Self.recipeFolder() else { return }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var r = try CLI.run(["compose", dir + "/chain.yaml", "-o", dir + "/out.cube"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LUTFormat.read(path: dir + "/out.cube").lut.cube?.size == 33)
        r = try CLI.run(["compose", dir + "/chain.yaml", "--size", "17", "-o", dir + "/out17.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LUTFormat.read(path: dir + "/out17.png").lut.cube?.size == 17)
        guard let unsized = try Self.recipeFolder(size: nil) else { return }
        defer { try? FileManager.default.removeItem(atPath: unsized) }
        r = try CLI.run(["compose", unsized + "/chain.yaml", "-o", unsized + "/out.cube"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LUTFormat.read(path: unsized + "/out.cube").lut.cube?.size == 64)
    }

    @Test("apply --recipe equals applying the composed cube written by compose, bit for bit")
    func applyRecipeEqualsComposedCube() throws {
        guard let dir = try Self.recipeFolder(), let shared = CLI.shared else { return }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let chart = shared + "/reference/chart.png"
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
        guard let dir = try Self.recipeFolder() else { return }
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

    @Test("apply needs exactly one of --lut and --recipe; compose needs something to do")
    func validation() throws {
        let both = try CLI.run(["apply", "--lut", "a.cube", "--recipe", "r.yaml", "in.png", "out.png"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("only one of"))
        let neither = try CLI.run(["apply", "in.png", "out.png"])
        #expect(neither.status != 0)
        #expect(neither.stderr.contains("--recipe"))
        let nothing = try CLI.run(["compose", "r.yaml"])
        #expect(nothing.status != 0)
        #expect(nothing.stderr.contains("nothing to do"))
    }
}
