import Foundation
import LookCore
import LookGallery
import Recipes
import Rendering

/// `compose --preview`: a recipe being authored shown as a gallery, one card per step with the chain's cumulative
/// result after that step, and the composition report above the cards.
enum RecipePreview {
    /// The cards of `recipe` (one per step, each the composed chain of steps 1…k at the output size) and the
    /// `--explain` report. `hasher` names each cumulative cube by its Float contents, so unchanged prefixes of an
    /// edited recipe keep their cached previews.
    static func looks(_ recipe: Recipe, composer: Composer, size: Int? = nil, recipeText: String?,
                             hasher: @escaping GalleryBuilder.Hasher) throws
        -> (looks: [GalleryBuilder.Look], report: CompositionReport) {
        let n = try Composer.outputSize(recipe, size: size)
        let steps = try composer.resolve(recipe)
        let report = try composer.explain(recipe, size: size)
        var looks: [GalleryBuilder.Look] = []
        for (k, step) in report.steps.enumerated() {
            let cube = try Composer.compose(Array(steps[...k]), size: n).quantizedTo16Bit()
            let hash = cube.values.withUnsafeBytes { hasher(Data($0)) }
            var name = "\(step.index). \(step.kind) \(step.lookName ?? step.reference)"
            if step.strength != 100 { name += " at \(TextNumber.format(step.strength)) %" }
            var description = k == 0 ? "The photo after step 1." : "The photo after steps 1–\(k + 1), composed into one cube."
            if step.skipped { description += " This step changes nothing and is skipped." }
            let info = GalleryLookInfo(id: "step-\(step.index)", guid: nil, name: name, description: description,
                                       tags: [step.kind], cubeSize: n, source: "recipe step",
                                       sourceFile: recipe.fileName, recipeYAML: recipeText)
            looks.append(GalleryBuilder.Look(info: info, contentHash: hash, loadCube: { cube }))
        }
        return (looks, report)
    }
}
