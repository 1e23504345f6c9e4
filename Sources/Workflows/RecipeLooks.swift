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

    /// Stores a composed cube as the next version of the look `reference` (GUID, prefix or name): same GUID, name
    /// and tags, so scenes, recipes and scripts naming it keep working and `GUID@N` still gives each older cube.
    /// Returns the GUID; a note says which version was added, or that the cube is the current one already.
    public func saveRecipeVersion(_ cube: ColorCube, recipe: Recipe, of reference: String) throws -> String {
        let catalog = try openCatalog()
        let existing = try catalog.resolveLook(reference)
        var provenance = recipe.withAbsolutePaths()
        provenance.size = cube.size
        let new = NewLook(cube: cube, name: existing.name, tags: existing.tags, sourceFormat: "recipe",
                          sourceFile: recipe.fileName, description: existing.description,
                          recipeYAML: provenance.yaml)
        let outcome = try catalog.saveVersion(guid: existing.guid, new)
        let label = "\(existing.guid) (\"\(TerminalText.escape(existing.name))\")"
        note(outcome.changed ? "note: saved as version \(outcome.after.version) of \(label); version "
                + "\(outcome.before.version) stays as \(existing.guid)@\(outcome.before.version)"
             : "note: the cube is already \(label)'s current version \(outcome.before.version); nothing was stored")
        return existing.guid
    }
}
