import ArgumentParser
import Foundation
import LookCatalog

/// `lookstudio catalog path|verify`.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Where the catalog is, and whether it is sound.",
        subcommands: [Path.self, Verify.self])

    /// `catalog path`: prints the resolved path without opening or creating anything.
    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the catalog file path (--catalog, $LOOKSTUDIO_CATALOG, else the XDG data folder).",
            discussion: "Example:\n  lookstudio catalog path")
        @OptionGroup var global: GlobalOptions
        func run() throws { print(CatalogAccess.path(global)) }
    }

    /// `catalog verify`: exit status 1 when anything is wrong.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check SQLite integrity and that every look blob decodes and matches its hash.",
            discussion: "Exits non-zero when a problem is found.\n\nExample:\n  lookstudio catalog verify")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let catalog = try CatalogAccess.open(global)
            let result = try catalog.verify()
            for problem in result.problems { CatalogAccess.warn("error: \(problem)") }
            if !result.problems.isEmpty {
                CatalogAccess.warn("\(catalog.path): \(result.problems.count) problems in \(result.lookCount) looks")
                throw ExitCode.failure
            }
            print("\(catalog.path): ok (\(result.lookCount) looks verified)")
        }
    }
}
