import ArgumentParser
import Foundation
import LookCatalog
import LookCore
import LookFormats
import Workflows

/// `lookstudio import FILE...`: stores looks from PNG, .cube and .3dl files in the catalog.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store looks from PNG (any layout), .cube or .3dl files in the catalog; prints one GUID per look.",
        discussion: """
        Each file is stored in its own transaction: a failed file leaves no row and the others still import. \
        A cube already in the catalog (same content hash) is not stored twice: its existing GUID is printed, a \
        note says under which name, the --tag tags are added to that look (a different --name is not applied: \
        use `looks rename`), and --as-new stores it as a separate look instead. Without --name a look is named \
        after its file ("warm.png" → "warm", "warm 2" if taken).

        --space says which colour space the look was authored in (default srgb): images in other spaces are \
        converted into it before the look and back after (docs/COLOR.md).

        Example:
          lookstudio import edited.png --name "Warm Film" --tag film --tag warm
          lookstudio import p3-grade.cube --space display-p3
          lookstudio import luts/*.cube --json
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Files to import (.png, .cube, .3dl).", valueName: "file"))
    var files: [String]

    @Option(help: "Name of the look (one file only; must be unused, ignoring case).")
    var name: String?

    @Option(help: "Tag to attach (repeatable).")
    var tag: [String] = []

    @Option(help: "PNG layout: auto, tiled, strip or hald (auto detects it from the pixels).")
    var layout: String = "auto"

    @Option(help: ArgumentHelp("Working space of the looks: srgb, display-p3, adobe-rgb, rec2020 or an ICC "
                               + "profile file.", valueName: "space|file.icc"))
    var space: String?

    @Flag(help: "Store a cube already in the catalog again, as a separate look with its own GUID.")
    var asNew = false

    @Flag(help: "Print a JSON array describing each file (see docs/CATALOG.md).")
    var json = false

    func validate() throws {
        if name != nil && files.count != 1 { throw ValidationError("--name needs exactly one file") }
        if layout != "auto" && CubeLayout(rawValue: layout) == nil {
            throw ValidationError("--layout must be auto, tiled, strip or hald")
        }
        if let space {
            do {
                _ = try LookSpaces.stored(space)
            } catch {
                throw ValidationError("--space: \(error)")
            }
        }
    }

    func run() throws {
        let workingSpace = try LookSpaces.stored(space ?? "srgb")
        let catalog = try global.openCatalog()
        var results: [CatalogJSON.Imported] = []
        var failures = 0
        for file in files {
            let base = URL(fileURLWithPath: file).lastPathComponent
            do {
                let loaded = try LookFile.read(path: file, layout: CubeLayout(rawValue: layout))
                var warnings = loaded.warnings
                let clamped = loaded.cube.valuesOutsideUnitRange
                if clamped > 0 {
                    warnings.append("\(base): \(clamped) values outside 0…1 were clamped (looks are stored as 16-bit PNG)")
                }
                let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                var new = NewLook(cube: loaded.cube, name: name ?? stem, tags: tag, sourceFormat: loaded.format,
                                  sourceFile: base)
                new.workingSpace = workingSpace.name
                new.workingSpaceICC = workingSpace.icc
                let outcome = try catalog.addLook(new, renameOnConflict: name == nil, asNew: asNew)
                var record = outcome.record
                let existing: Bool
                if case .existing = outcome { existing = true } else { existing = false }
                var tagsAdded: [String] = []
                if existing && !tag.isEmpty {
                    (record, tagsAdded) = try catalog.tagLook(guid: record.guid, tags: tag)
                }
                var imported = CatalogJSON.Imported(file: file, status: existing ? "existing" : "added",
                                                    guid: record.guid, name: record.name, cubeSize: record.cubeSize,
                                                    warnings: warnings, error: nil, version: record.version)
                imported.tagsAdded = tagsAdded
                results.append(imported)
                for w in warnings { printError("warning: \(w)") }
                if existing {
                    let shownName = TerminalText.escape(record.name)
                    var note = "note: \(TerminalText.escape(base)): already in the catalog as \(shownName) "
                        + "(\(record.guid)); nothing was stored"
                    if !tag.isEmpty {
                        note += tagsAdded.isEmpty ? "; it had every tag given"
                            : "; tags added: " + TerminalText.escape(tagsAdded.joined(separator: ", "))
                    }
                    if let name, name.caseInsensitiveCompare(record.name) != .orderedSame {
                        note += ". --name \(TerminalText.escape(name)) was not applied: rename it with "
                            + "`lookstudio looks rename \(record.guid) NAME`, or store a separate look with --as-new"
                    }
                    if let space, record.workingSpace != workingSpace.name {
                        note += ". --space \(TerminalText.escape(space)) was not applied: the stored look keeps its "
                            + "working space, \(TerminalText.escape(record.workingSpace)) (store a separate look "
                            + "with --as-new)"
                    }
                    printError(note)
                }
                if !json { print(record.guid) }
            } catch {
                failures += 1
                var message = "\(error)"
                if name == nil, let refused = error as? CatalogError, case .badName = refused {
                    message = "\(base): its file name does not make a usable look name: \(error); give one with --name"
                }
                results.append(CatalogJSON.Imported(file: file, status: "failed", guid: nil, name: nil, cubeSize: nil,
                                                    warnings: [], error: message))
                printError("error: \(message)")
            }
        }
        if json { print(try CatalogJSON.string(results)) }
        if failures > 0 { throw ExitCode.failure }
    }
}
