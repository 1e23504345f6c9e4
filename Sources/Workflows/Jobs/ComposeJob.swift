import Foundation
import ImageIO
import LookCore
import LookFormats
import Recipes
import Rendering

/// `compose`: a recipe file read once, then explained, composed into one cube, written as a LUT file, stored in
/// the catalog (``SaveRecipeJob``) or previewed step by step as a gallery.
public struct ComposeJob: Sendable {
    /// The recipe file.
    public let path: String
    /// The recipe as read.
    public let recipe: Recipe
    /// Output cube size (nil: the recipe's size, else 64).
    public let size: Int?
    private let composer: Composer

    /// Reads the recipe at `path`; plugins come from `workspace`, looks from its catalog (opened only when a step
    /// names one).
    public init(recipe path: String, size: Int?, in workspace: Workspace) throws {
        self.path = path
        recipe = try Recipe.load(path: path)
        self.size = size
        composer = workspace.composer()
    }

    /// The files the recipe reads: itself and its LUT steps (an output must be none of them).
    public var inputFiles: [String] { [path] + recipe.lutFiles }

    /// What each step resolved to and the composition error per cube size (`compose --explain`); its `text` is for
    /// people, and it encodes as the documented JSON object.
    public func explain() throws -> CompositionReport {
        try composer.explain(recipe, size: size)
    }

    /// The composed cube at the catalog's precision (see `ColorCube.quantizedTo16Bit`).
    public func cube() throws -> ColorCube {
        try composer.compose(recipe, size: size).quantizedTo16Bit()
    }

    /// The composed lattice at the catalog's precision: a chain that changes nothing stays an identity, its values
    /// computed as they are written (an empty recipe of size 256 holds no 201 MB cube).
    public func lattice() throws -> CubeLattice {
        try composer.lattice(recipe, size: size).quantizedTo16Bit()
    }

    /// Writes `lattice` as a LUT file chosen by the extension, with `options` (PNG layout and bits, `.3dl` bits).
    public func write(_ lattice: CubeLattice, to output: String, options: LUTFormat.WriteOptions) throws
        -> [FormatWarning] {
        try Folders.withParents(of: output) {
            try LUTFormat.write(lattice, title: recipe.name, to: output, options: options)
        }
    }

    /// Stores `cube` in the catalog as a new look or version, the recipe as its provenance.
    public func save(_ cube: ColorCube, as mode: SaveRecipeJob.Mode, in workspace: Workspace) throws
        -> SaveRecipeJob.Saved {
        try SaveRecipeJob(.init(recipe: recipe, mode: mode, cube: cube)).run(in: workspace)
    }

    /// The recipe's steps as a gallery in `folder` on `photos` (one card per step: the chain's cumulative result),
    /// the `--explain` report on top; previews of `previewSize` pixels, cached in the folder.
    public func preview(photos: [String], folder: String, previewSize: Int,
                        progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws -> GalleryBuilder.Report {
        let text = try? String(contentsOfFile: path, encoding: .utf8)
        let steps = try RecipePreview.looks(recipe, composer: composer, size: size, recipeText: text,
                                            hasher: GalleryCatalog.hasher)
        let title = "Recipe preview: " + (recipe.name ?? URL(fileURLWithPath: path).lastPathComponent)
        return try GalleryBuilder(hasher: GalleryCatalog.hasher).build(
            photos: photos, looks: steps.looks, into: folder,
            options: .init(size: previewSize, title: title, report: steps.report.text, kind: .recipeSteps),
            progress: progress)
    }
}
