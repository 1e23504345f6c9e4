import ArgumentParser
import Foundation
import LookCatalog

/// Opening the catalog the way every catalog command does: resolve the path, open (migrate, seed), report.
enum CatalogAccess {
    /// The catalog path from `--catalog`, `$LOOKSTUDIO_CATALOG` or the XDG default.
    static func path(_ global: GlobalOptions) -> String {
        CatalogLocation.catalogPath(explicit: global.catalog, environment: ProcessInfo.processInfo.environment)
    }

    /// Opens the catalog; seeding notes go to stderr so `--json` output stays clean.
    static func open(_ global: GlobalOptions) throws -> Catalog {
        let catalog = try Catalog(path: path(global))
        let report = catalog.openReport
        if report.created {
            warn("note: created catalog \(catalog.path) with \(report.seededScenes.count) scenes and "
                 + "\(report.seededLooks.count) shipped looks")
        } else if !report.seededLooks.isEmpty || !report.seededScenes.isEmpty {
            warn("note: added \(report.seededLooks.count) new shipped looks and \(report.seededScenes.count) scenes")
        }
        for warning in report.warnings { warn("warning: \(warning)") }
        return catalog
    }

    /// Opens the catalog read-only (`Catalog.Access.readOnly`), so many processes of a batch share one file without
    /// write locks. A catalog that does not exist yet, or needs migrating, is first opened once for writing.
    static func openForReading(_ global: GlobalOptions) throws -> Catalog {
        let path = path(global)
        do {
            return try Catalog(path: path, access: .readOnly)
        } catch CatalogError.missing, CatalogError.needsMigration {
            _ = try open(global)
            return try Catalog(path: path, access: .readOnly)
        }
    }

    /// Writes a line to stderr.
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
