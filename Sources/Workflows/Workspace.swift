import Foundation
import LookCatalog
import LookCore
import PluginHost
import Recipes

/// Where a run finds its catalog and plugins, and where it sends notes: what every catalog-backed job starts from.
public struct Workspace: Sendable {
    /// The catalog file (from `--catalog`, `$LOOKSTUDIO_CATALOG` or the XDG default).
    public let catalogPath: String
    /// Extra plugin folders, searched before `$LOOKSTUDIO_PLUGIN_PATH` and the executable's folder.
    public let pluginDirs: [String]
    /// Where plugins run: a plugin-host child process (the CLI's default) or this process.
    public let pluginIsolation: PluginIsolation
    /// Receives notes and warnings (the CLI prints them on stderr), so JSON output stays clean.
    public let note: @Sendable (String) -> Void

    /// A workspace for `catalog` (nil: the environment's or XDG default), `pluginDirs` and `pluginIsolation`.
    public init(catalog: String?, pluginDirs: [String] = [], pluginIsolation: PluginIsolation = .inProcess,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                note: @escaping @Sendable (String) -> Void) {
        catalogPath = CatalogLocation.catalogPath(explicit: catalog, environment: environment)
        self.pluginDirs = pluginDirs
        self.pluginIsolation = pluginIsolation
        self.note = note
    }

    /// Opens the catalog for writing (created, migrated and seeded on first use), reporting what opening did.
    public func openCatalog() throws -> Catalog {
        let catalog = try Catalog(path: catalogPath)
        let report = catalog.openReport
        if report.created {
            note("note: created catalog \(catalog.path) with \(report.seededScenes.count) scenes and "
                 + "\(report.seededLooks.count) shipped looks")
        } else if !report.seededLooks.isEmpty || !report.seededScenes.isEmpty {
            note("note: added \(report.seededLooks.count) new shipped looks and \(report.seededScenes.count) scenes")
        }
        for warning in report.warnings { note("warning: \(warning)") }
        return catalog
    }

    /// Opens the catalog read-only (`Catalog.Access.readOnly`), so many processes of a batch share one file without
    /// write locks. A catalog that does not exist yet, or needs migrating, is first opened once for writing.
    public func openCatalogForReading() throws -> Catalog {
        do {
            return try Catalog(path: catalogPath, access: .readOnly)
        } catch CatalogError.missing, CatalogError.needsMigration {
            _ = try openCatalog()
            return try Catalog(path: catalogPath, access: .readOnly)
        }
    }

    /// The plugins on the search path; refusals are noted.
    public func plugins() -> PluginRegistry {
        let registry = PluginRegistry.load(searchPaths: PluginSearchPath.standard(pluginDirs: pluginDirs),
                                           isolation: pluginIsolation)
        for refusal in registry.refusals { note("warning: \(refusal)") }
        return registry
    }

    /// A composer over the plugins, resolving looks in the catalog, which it opens on first use only (recipes
    /// without looks never touch it).
    public func composer() -> Composer {
        let opened = Locked<Catalog?>(nil)
        let workspace = self
        return Composer(registry: plugins()) { reference in
            let catalog = try opened.withLock { cached in
                if let cached { return cached }
                let made = try workspace.openCatalog()
                cached = made
                return made
            }
            let record = try catalog.resolveLook(reference)
            return ResolvedLook(guid: record.guid, name: record.name, cube: try catalog.cube(record))
        }
    }

    /// Reads the recipe file at `path` and composes it at its size, at the catalog's precision.
    public func compose(recipeFile path: String) throws -> ColorCube {
        try compose(try Recipe.load(path: path))
    }

    /// Composes a recipe at the catalog's precision (see `ColorCube.quantizedTo16Bit`).
    public func compose(_ recipe: Recipe, size: Int? = nil) throws -> ColorCube {
        try composer().compose(recipe, size: size).quantizedTo16Bit()
    }
}
