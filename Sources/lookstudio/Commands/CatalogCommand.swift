import ArgumentParser
import Foundation
import Workflows

/// `lookstudio catalog path|verify|recover`.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Where the catalog is, and whether it is sound.",
        subcommands: [Path.self, Verify.self, Recover.self])

    /// `catalog path`: prints the resolved path without opening or creating anything.
    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the catalog file path (--catalog, $LOOKSTUDIO_CATALOG, else the XDG data folder).",
            discussion: "Example:\n  lookstudio catalog path")
        @OptionGroup var global: GlobalOptions
        func run() throws { print(global.catalogPath) }
    }

    /// `catalog verify`: exit status 1 when anything is wrong.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check SQLite integrity and that every look blob decodes and matches its hash.",
            discussion: "Exits non-zero when a problem is found.\n\nExample:\n  lookstudio catalog verify")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let result = try global.workspace.verifyCatalog()
            for problem in result.problems { printError("error: \(problem)") }
            if !result.problems.isEmpty {
                let n = result.problems.count
                printError("\(result.path): \(n) problem\(n == 1 ? "" : "s") in \(result.lookCount) looks")
                throw ExitCode.failure
            }
            print("\(result.path): ok (\(result.lookCount) looks verified)")
        }
    }

    /// `catalog recover`: copies every readable look and scene of a damaged catalog into a new file.
    struct Recover: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy every readable look and scene of a damaged catalog into a new catalog file.",
            discussion: """
            The damaged catalog is only read. Rows are copied one by one, so a damaged page loses only the rows on \
            it; each look, tag list, version or scene that cannot be read is named on stderr. Shipped looks and \
            scenes that were lost are added again from the seed. Use the new file with --catalog, or move it over \
            the old one once you have checked it.

            Example:
              lookstudio catalog recover --to ~/catalog-recovered.sqlite
            """)
        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("New catalog file (must not exist; default: beside the catalog, "
                                   + "NAME-recovered.sqlite).", valueName: "new.sqlite"))
        var to: String?

        func run() throws {
            let target = to ?? Self.defaultTarget(for: global.catalogPath)
            let report = try global.workspace.recoverCatalog(to: target)
            for line in report.skipped { printError("warning: skipped \(line)") }
            print("\(report.path): recovered \(report.looks) looks and \(report.scenes) scenes"
                + (report.skipped.isEmpty ? "" : "; could not save \(report.skipped.count) "
                    + (report.skipped.count == 1 ? "item" : "items") + ", each named in a warning above (they are "
                    + "lost from the new catalog; the damaged file is left as it was)")
                + (report.reseeded == 0 ? "" : "; \(report.reseeded) shipped looks and scenes added again from the seed"))
        }

        static func defaultTarget(for source: String) -> String {
            let url = URL(fileURLWithPath: source)
            let stem = url.deletingPathExtension().lastPathComponent
            return url.deletingLastPathComponent().appendingPathComponent("\(stem)-recovered.sqlite").path
        }
    }
}
