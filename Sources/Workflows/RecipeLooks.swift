import LookCatalog
import LookCore
import Recipes

extension Workspace {
    /// Stores a composed cube as a catalog look with its recipe as provenance; returns the look's GUID (an existing
    /// look's when the same cube is already stored, with a note).
    public func saveRecipeLook(_ cube: ColorCube, recipe: Recipe, name: String?) throws -> String {
        guard let lookName = name ?? recipe.name else { throw WorkflowError.lookNeedsName }
        let catalog = try openCatalog()
        // The provenance must rebuild this very cube from any folder: absolute LUT paths, the size actually used.
        var provenance = recipe.withAbsolutePaths()
        provenance.size = cube.size
        let new = NewLook(cube: cube, name: lookName, tags: ["recipe"], sourceFormat: "recipe",
                          sourceFile: recipe.fileName, description: "Composed from a recipe by lookstudio compose",
                          recipeYAML: provenance.yaml)
        let outcome = try catalog.addLook(new)
        if case .existing(let record) = outcome {
            note("note: the same cube is already in the catalog as \(record.guid) (\"\(record.name)\"); "
                + "nothing was stored")
        }
        return outcome.record.guid
    }
}
