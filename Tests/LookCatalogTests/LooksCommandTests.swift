import Foundation
import LookStudioTestSupport
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct LooksCommandTests {
    /// The package's reference LUT files (`Tests/Fixtures/reference`).
    static let reference = TestSupport.packageRoot + "/Tests/Fixtures/reference"

    /// A folder with a catalog path, a LUT file `film.cube` (a copy of warm33.cube) and a recipe using it.
    static func setUp() throws -> (dir: String, catalog: [String], recipe: String) {
        let dir = try TestSupport.tempDir()
        try FileManager.default.copyItem(atPath: reference + "/warm33.cube", toPath: dir + "/film.cube")
        let recipe = dir + "/film.yaml"
        try "steps:\n  - adjust: tone.contrast\n    params: { amount: 0.15 }\n  - lut: film.cube\n    strength: 80\n"
            .write(toFile: recipe, atomically: true, encoding: .utf8)
        return (dir, ["--catalog", dir + "/catalog.sqlite"], recipe)
    }

    static func hash(_ guid: String, _ catalog: [String]) throws -> String? {
        let r = try CLI.run(["looks", "show", guid, "--json"] + catalog)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return object?["content_hash"] as? String
    }

    @Test("rebuild of an unchanged recipe leaves the cube; a changed LUT file changes it, and restoring it changes it back")
    func rebuildFollowsTheRecipesLUTFile() throws {
        let (dir, catalog, recipe) = try Self.setUp(), reference = Self.reference
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = try CLI.run(["compose", recipe, "--save", "--name", "Film", "--size", "33"] + catalog)
        #expect(saved.status == 0, "\(saved.stderr)")
        let guid = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let original = try #require(try Self.hash(guid, catalog))

        // From another folder: the stored recipe holds the LUT's absolute path and the size used.
        let same = try CLI.run(["looks", "rebuild", "Film"] + catalog)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("unchanged: \(guid) (Film)"))
        #expect(try Self.hash(guid, catalog) == original)

        try FileManager.default.removeItem(atPath: dir + "/film.cube")
        try FileManager.default.copyItem(atPath: reference + "/warm17.cube", toPath: dir + "/film.cube")
        let changed = try CLI.run(["looks", "rebuild", String(guid.prefix(8))] + catalog)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("rebuilt: \(guid) (Film): cube changed, max difference "))
        let changedHash = try #require(try Self.hash(guid, catalog))
        #expect(changedHash != original)
        let shown = try CLI.run(["looks", "show", guid] + catalog).stdout
        #expect(shown.contains("name:          Film") && shown.contains("cube size:     33") && shown.contains("tags:          recipe"))

        try FileManager.default.removeItem(atPath: dir + "/film.cube")
        try FileManager.default.copyItem(atPath: reference + "/warm33.cube", toPath: dir + "/film.cube")
        let back = try CLI.run(["looks", "rebuild", guid] + catalog)
        #expect(back.stdout.contains("rebuilt: \(guid) (Film)"))
        #expect(try Self.hash(guid, catalog) == original)
        #expect(try CLI.run(["catalog", "verify"] + catalog).status == 0)
    }

    @Test("a saved recipe names its looks by GUID: a rename or a new look taking the name changes nothing")
    func aSavedRecipeFollowsItsLooksByGUID() throws {
        let (dir, catalog, _) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recipe = dir + "/cyan.yaml"
        try "steps:\n  - look: Cyanotype\n    strength: 60\n".write(toFile: recipe, atomically: true, encoding: .utf8)
        let saved = try CLI.run(["compose", recipe, "--save", "--name", "Soft Cyan", "--size", "17"] + catalog)
        #expect(saved.status == 0, "\(saved.stderr)")
        let guid = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let original = try #require(try Self.hash(guid, catalog))
        #expect(try CLI.run(["looks", "rename", "Cyanotype", "Cyan Old"] + catalog).status == 0)
        // The renamed look is still in use, so it is not removed without --force.
        let removal = try CLI.run(["looks", "rm", "Cyan Old"] + catalog)
        #expect(removal.status != 0 && removal.stderr.contains("Soft Cyan"), "\(removal.stderr)")
        // Another look takes the old name; the rebuild still follows the look it was made from.
        try FileManager.default.copyItem(atPath: Self.reference + "/warm17.cube", toPath: dir + "/warm.cube")
        #expect(try CLI.run(["import", dir + "/warm.cube", "--name", "Cyanotype"] + catalog).status == 0)
        let rebuilt = try CLI.run(["looks", "rebuild", guid] + catalog)
        #expect(rebuilt.stdout.contains("unchanged: \(guid) (Soft Cyan)"), "\(rebuilt.stdout)\(rebuilt.stderr)")
        #expect(try Self.hash(guid, catalog) == original)
    }

    @Test("rebuild restores a cube that was replaced behind the recipe's back, reporting the difference in 16-bit codes")
    func rebuildRepairsATamperedCube() throws {
        let (dir, catalog, recipe) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = try CLI.run(["compose", recipe, "--save", "--name", "Film"] + catalog)
        let guid = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let opened = try Catalog(path: dir + "/catalog.sqlite", seedDirectory: TestSupport.packageRoot, environment: [:])
        let good = try opened.cube(guid: guid)
        // Shift one entry by exactly 300 codes: the rebuild must report 300.
        var values = good.values
        values[5] = values[5] > 0.5 ? values[5] - 300 / 65535 : values[5] + 300 / 65535
        #expect(try opened.replaceCube(guid: guid, with: try ColorCube(size: good.size, values: values)).changed)

        let r = try CLI.run(["looks", "rebuild", guid] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("cube changed, max difference 300 of 65535"))
        let reopened = try Catalog(path: dir + "/catalog.sqlite", seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(try reopened.cube(guid: guid) == good)
    }

    @Test("rebuild refuses looks without a recipe and keeps shipped recipe looks as committed")
    func rebuildRefusalsAndShippedRecipes() throws {
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/catalog.sqlite"]
        let shipped = try CLI.run(["looks", "rebuild", "Cyanotype"] + catalog)
        #expect(shipped.status != 0)
        #expect(shipped.stderr.contains("(Cyanotype) has no recipe to rebuild it from: it was shipped as a colour function"))

        let png = dir + "/mine.png"
        try CubeImage.write(try TestSupport.cube(size: 16, seed: 20), to: png, layout: .tiled, depth: .sixteen)
        #expect(try CLI.run(["import", png] + catalog).status == 0)
        let imported = try CLI.run(["looks", "rebuild", "mine"] + catalog)
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("(mine) has no recipe to rebuild it from: it was imported from a png file"))

        for name in ShippedLooks.all.filter({ $0.recipeYAML != nil }).map(\.name) {
            let r = try CLI.run(["looks", "rebuild", name] + catalog)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("unchanged:"), "\(name): \(r.stdout)")
        }
    }
}
