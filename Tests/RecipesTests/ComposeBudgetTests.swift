import Foundation
import LookCore
import LookFormats
import Recipes
import Testing

/// Issue 24: a short recipe must not take gigabytes or minutes (40 `lut:` steps of one 256³ file took 8.0 GB, 500
/// adjustment steps at 256³ took 23.5 s).
@Suite struct ComposeBudgetTests {
    typealias F = ComposerFixtures

    static func recipe(_ steps: [String], size: Int? = nil, directory: String? = nil) throws -> Recipe {
        let head = size.map { "size: \($0)\n" } ?? ""
        var recipe = try Recipe.parse(head + "steps:\n" + steps.map { "  - \($0)\n" }.joined(), fileName: "r.yaml")
        recipe.directory = directory
        return recipe
    }

    @Test("one LUT file named by 40 steps (and through a symlink) is held once: a budget of one cube lets it through")
    func sameFileLoadedOnce() throws {
        let dir = NSTemporaryDirectory() + "compose-budget-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: F.reference + "/warm33.cube", toPath: dir + "/warm.cube")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.cube", withDestinationPath: dir + "/warm.cube")
        try FileManager.default.copyItem(atPath: F.reference + "/warm33.cube", toPath: dir + "/copy.cube")
        let warm = try LUTFormat.read(path: dir + "/warm.cube").lut.bakedCube()
        var composer = F.composer(["warm": warm])
        composer.budget = ComposeBudget(maxStepPoints: 1 << 30, maxHeldEntries: 33 * 33 * 33)

        let viaFiles = try Self.recipe(Array(repeating: "lut: warm.cube", count: 39) + ["lut: link.cube"],
                                       size: 9, directory: dir)
        let viaLooks = try Self.recipe(Array(repeating: "look: warm", count: 40), size: 9)
        #expect(try composer.compose(viaFiles) == composer.compose(viaLooks))
        #expect(try composer.resolve(viaFiles).count == 40)

        // A copy is another file (another inode): two cubes of 33³ are over a budget of one.
        let twoFiles = try Self.recipe(["lut: warm.cube", "lut: copy.cube"], size: 9, directory: dir)
        do {
            _ = try composer.compose(twoFiles)
            Issue.record("two distinct 33³ files passed a budget of one 33³ cube")
        } catch let error as RecipeError {
            let text = error.description
            #expect(text.hasPrefix("r.yaml: loading copy.cube at step 2 (33³) brings the distinct LUTs and looks held "
                                   + "to 71,874 cube entries (862,488 bytes), over the compose budget of 35,937"),
                    "\(text)")
            #expect(text.contains("--size 64"))
        }
    }

    @Test("500 steps at size 256 are refused before any work, with the figures and the sizes that would fit")
    func workBudget() throws {
        let composer = F.composer([:])
        let steps = Array(repeating: "adjust: tone.gamma\n    params: { gamma: 1.1 }", count: 500)
        let started = Date()
        do {
            _ = try composer.compose(try Self.recipe(steps, size: 256))
            Issue.record("500 steps at 256³ were composed")
        } catch let error as RecipeError {
            #expect(error.description == "r.yaml: 500 steps at size 256 would evaluate 500 × 256³ = 8,388,608,000 "
                    + "lattice points, over the compose budget of 268,435,456 (about 12 s of work); at size 256 "
                    + "at most 16 steps fit, and 500 steps fit at size 81 or less (`size:` in the recipe, --size on "
                    + "the command line)")
        }
        #expect(Date().timeIntervalSince(started) < 2)
        // The same steps at a size inside the budget compose, and so does `explain`.
        let small = try composer.compose(try Self.recipe(steps, size: 4))
        #expect(small.size == 4)
        #expect(small != (try ColorCube.identity(size: 4)))
    }

    @Test("a smaller budget refuses what the standard one allows; the standard one is 2²⁸ points and 2 × 256³ entries")
    func budgetFigures() throws {
        #expect(ComposeBudget.standard.maxStepPoints == 268_435_456)
        #expect(ComposeBudget.standard.maxHeldEntries == 33_554_432)
        let tight = ComposeBudget(maxStepPoints: 10 * 4 * 4 * 4, maxHeldEntries: 1)
        #expect(throws: RecipeError.self) { try tight.checkWork(steps: 11, size: 4, recipe: "r.yaml") }
        try tight.checkWork(steps: 10, size: 4, recipe: "r.yaml")
        try ComposeBudget.standard.checkWork(steps: 16, size: 256, recipe: "r.yaml")
        try ComposeBudget.standard.checkWork(steps: 1_024, size: 64, recipe: "r.yaml")
        #expect(throws: RecipeError.self) { try ComposeBudget.standard.checkWork(steps: 17, size: 256, recipe: "r") }
        #expect(throws: RecipeError.self) {
            try ComposeBudget.standard.checkWork(steps: Int.max, size: 256, recipe: "r")
        }
    }
}
