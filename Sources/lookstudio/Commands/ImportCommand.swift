import ArgumentParser
import Foundation
import LookCore
import LookFormats
import LookModel
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
        var request = ImportJob.Request(files: files)
        request.name = name
        request.tags = tag
        request.layout = CubeLayout(rawValue: layout)
        request.space = space
        request.asNew = asNew
        let results = try ImportJob(request).run(in: global.workspace) { imported in
            for w in imported.warnings { printError("warning: \(w)") }
            if let error = imported.error {
                printError("error: \(message(for: error))")
                return
            }
            guard let record = imported.look else { return }
            if imported.status == .existing { printError(existingNote(imported.file, record, imported.tagsAdded)) }
            if !json { print(record.guid) }
        }
        if json { print(try CatalogJSON.string(results.map { CatalogJSON.Imported($0, error: $0.error.map(message)) })) }
        if results.contains(where: { $0.status == .failed }) { throw ExitCode.failure }
    }

    /// A failed file's message; a file name that makes no look name points to --name.
    private func message(for error: any Error) -> String {
        if case WorkflowError.unusableFileName = error { return "\(error); give one with --name" }
        return "\(error)"
    }

    /// What an import of a cube already stored did, and which options it could not apply.
    private func existingNote(_ file: String, _ record: LookRecord, _ tagsAdded: [String]) -> String {
        let base = URL(fileURLWithPath: file).lastPathComponent
        var note = "note: \(MessageText.quote(base)): already in the catalog as \(MessageText.quote(record.name)) "
            + "(\(record.guid)); nothing was stored"
        if !tag.isEmpty {
            note += tagsAdded.isEmpty ? "; it had every tag given"
                : "; tags added: " + MessageText.quote(tagsAdded.joined(separator: ", "))
        }
        if let name, name.caseInsensitiveCompare(record.name) != .orderedSame {
            note += ". --name \(MessageText.quote(name)) was not applied: rename it with "
                + "`lookstudio looks rename \(record.guid) NAME`, or store a separate look with --as-new"
        }
        if let space, (try? LookSpaces.stored(space).name) != record.workingSpace {
            note += ". --space \(MessageText.quote(space)) was not applied: the stored look keeps its "
                + "working space, \(MessageText.quote(record.workingSpace)) (store a separate look with --as-new)"
        }
        return note
    }
}
