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
        var provenance = try Self.pinningLooks(recipe.withAbsolutePaths(), in: catalog)
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
        var provenance = try Self.pinningLooks(recipe.withAbsolutePaths(), in: catalog)
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

    /// `recipe` with every `look:` step naming its look by GUID (`GUID@N` for an older version), as resolved now: a
    /// name can later be renamed away or given to another look, and a rebuild or the removal guard would then
    /// follow the name to the wrong look or none.
    static func pinningLooks(_ recipe: Recipe, in catalog: Catalog) throws -> Recipe {
        var pinned = recipe
        for i in pinned.steps.indices {
            guard case .look(let reference) = pinned.steps[i].operation else { continue }
            let record = try catalog.resolveLook(reference)
            pinned.steps[i].operation = .look(record.isCurrentVersion ? record.guid
                                                                      : "\(record.guid)@\(record.version)")
        }
        return pinned
    }
}
