import ArgumentParser
import Foundation
import LookCatalog
import LookCore
import LookFormats
import PluginHost
import Recipes
import Rendering
import Workflows

extension ComposeCommand {
    /// `--save`: a new look, or with `--replace`/`--as-version` a new version of an existing one.
    func store(_ cube: ColorCube, recipe: Recipe) throws -> String {
        let workspace = try global.workspace
        if let asVersion { return try workspace.saveRecipeVersion(cube, recipe: recipe, of: asVersion) }
        if replace {
            guard let target = name ?? recipe.name else { throw WorkflowError.lookNeedsName }
            return try workspace.saveRecipeVersion(cube, recipe: recipe, of: target)
        }
        return try workspace.saveRecipeLook(cube, recipe: recipe, name: name)
    }

    /// `--preview`: the recipe's steps as a gallery in `-o` (default: beside the recipe's name, `NAME-preview`).
    func writePreview(_ recipe: Recipe, composer: Composer) throws {
        let folder = output ?? URL(fileURLWithPath: self.recipe).deletingPathExtension().lastPathComponent + "-preview"
        let text = try? String(contentsOfFile: self.recipe, encoding: .utf8)
        let steps = try RecipePreview.looks(recipe, composer: composer, size: size, recipeText: text,
                                            hasher: GalleryCatalog.hasher)
        let title = "Recipe preview: " + (recipe.name ?? URL(fileURLWithPath: self.recipe).lastPathComponent)
        let bar = GalleryCatalog.progress()
        defer { bar?.close() }  // also on failure, so `error:` starts its own line
        let report = try GalleryBuilder(hasher: GalleryCatalog.hasher).build(
            photos: preview, looks: steps.looks, into: folder,
            options: .init(size: previewSize, title: title, report: steps.report.text, kind: .recipeSteps),
            progress: bar?.callback)
        bar?.close()
        print(GalleryCatalog.summary(report))
    }
}
