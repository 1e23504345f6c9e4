import LookCatalog
import LookCore
import LookModel
import Recipes

/// A recipe composed and stored as a catalog look, or as the next version of one, with the recipe as provenance:
/// what `compose --save` and the studio's save both do.
public struct SaveRecipeJob: Sendable {
    /// A new look, or a new version of an existing one.
    public enum Mode: Sendable, Equatable {
        /// A new look named `name` (nil: the recipe's `name:`).
        case newLook(name: String?)
        /// The next version of the look `reference` (GUID, prefix or name): same GUID, name and tags, so scenes,
        /// recipes and scripts naming it keep working and `GUID@N` still gives each older cube.
        case newVersion(of: String)
    }

    /// What to store.
    public struct Request: Sendable {
        /// The recipe (its LUT files and looks are pinned in the stored provenance).
        public var recipe: Recipe
        /// How to store it.
        public var mode: Mode
        /// The cube, when the caller composed it already (at the catalog's precision); nil composes it here at the
        /// recipe's size (default 64).
        public var cube: ColorCube?
        /// Tags of a new look (empty: `recipe`).
        public var tags: [String] = []
        /// A new look's description: which front end composed it.
        public var description = "Composed from a recipe by lookstudio compose"
        /// The recipe file, recorded as the look's source file (nil for a recipe that is no file).
        public var sourceFile: String?

        /// A request to store `recipe` as `mode` says.
        public init(recipe: Recipe, mode: Mode, cube: ColorCube? = nil) {
            self.recipe = recipe
            self.mode = mode
            self.cube = cube
            sourceFile = recipe.fileName
        }
    }

    /// What was stored.
    public enum Saved: Sendable, Equatable {
        /// A new look.
        case added(LookRecord)
        /// Nothing: the same cube is stored already as this look (another one for a new look; for a new version,
        /// the look's current version).
        case sameCube(LookRecord)
        /// A new version: the look before and after.
        case version(VersionOutcome)

        /// The look stored, or the one holding the same cube.
        public var look: LookRecord {
            switch self {
            case .added(let record), .sameCube(let record): return record
            case .version(let outcome): return outcome.after
            }
        }
    }

    /// The request.
    public let request: Request

    /// A job for `request`.
    public init(_ request: Request) { self.request = request }

    /// Composes (unless given) and stores the cube in one transaction.
    public func run(in workspace: Workspace) throws -> Saved {
        let recipe = request.recipe
        let size = request.cube?.size ?? recipe.size ?? Composer.defaultSize
        let cube = try request.cube ?? workspace.compose(recipe, size: size)
        let catalog = try workspace.openCatalog()
        switch request.mode {
        case .newLook(let name):
            guard let lookName = name ?? recipe.name else { throw WorkflowError.lookNeedsName }
            let new = NewLook(cube: cube, name: lookName, tags: request.tags.isEmpty ? ["recipe"] : request.tags,
                              sourceFormat: "recipe", sourceFile: request.sourceFile, description: request.description,
                              recipeYAML: try Self.provenance(recipe, name: lookName, size: cube.size, in: catalog))
            switch try catalog.addLook(new) {
            case .added(let record): return .added(record)
            case .existing(let record): return .sameCube(record)
            }
        case .newVersion(let reference):
            let existing = try catalog.resolveLook(reference)
            let new = NewLook(cube: cube, name: existing.name, tags: existing.tags, sourceFormat: "recipe",
                              sourceFile: request.sourceFile, description: existing.description,
                              recipeYAML: try Self.provenance(recipe, name: existing.name, size: cube.size,
                                                              in: catalog))
            let outcome = try catalog.saveVersion(guid: existing.guid, new)
            return outcome.changed ? .version(outcome) : .sameCube(outcome.before)
        }
    }

    /// The recipe as stored beside its cube (named as written, else after the look): it must rebuild this very cube
    /// from any folder, so LUT paths are absolute, the size is the one used, and every `look:` step names its look
    /// by GUID (`GUID@N` for an older version) as resolved now — a name can later be renamed away or given to another
    /// look, and a rebuild or the removal guard would then follow the name to the wrong look or none.
    static func provenance(_ recipe: Recipe, name: String, size: Int, in catalog: Catalog) throws -> String {
        var pinned = recipe.withAbsolutePaths()
        pinned.name = recipe.name ?? name
        pinned.size = size
        for i in pinned.steps.indices {
            guard case .look(let reference) = pinned.steps[i].operation else { continue }
            let record = try catalog.resolveLook(reference)
            pinned.steps[i].operation = .look(record.isCurrentVersion ? record.guid
                                                                      : "\(record.guid)@\(record.version)")
        }
        return pinned.yaml
    }
}
