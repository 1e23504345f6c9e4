import Foundation
import Testing
@testable import Recipes

/// A recipe file larger than any recipe is refused before the YAML parser sees it: a 50 MB scalar took 971 MB
/// (issue 56 item 7).
struct RecipeFileSizeTests {
    @Test func aRecipeFileOverTheLimitIsRefusedBeforeParsing() throws {
        let path = NSTemporaryDirectory() + "big-\(UUID().uuidString).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = "name: \"" + String(repeating: "a", count: 2_000_000) + "\"\nsize: 9\nsteps: []\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try Recipe.load(path: path)
        } throws: { error in
            guard case RecipeError.overBudget(let message) = error else { return false }
            return message.contains("the recipe file is 2,000,027 bytes, more than the 1,048,576 a recipe may take")
        }
    }
}
