import ArgumentParser
import Foundation
import LookCore
import LookModel
import Workflows

/// `lookstudio import FILE...`: stores looks from PNG, .cube, .3dl and ASC CDL files in the catalog.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store looks from PNG (any layout), .cube, .3dl or ASC CDL (.cc, .ccc, .cdl) files in the catalog; "
            + "prints the new look's GUID; given several files, one line per file: the file and its GUID.",
        discussion: """
        Each file is stored in its own transaction: a failed file leaves no row and the others still import. \
        A cube already in the catalog (same content hash) is not stored twice: its existing GUID is printed, a \
        note says under which name, the --tag tags are added to that look (a different --name is not applied: \
        use `looks rename`), and --as-new stores it as a separate look instead. Without --name a look is named \
        after its file ("warm.png" → "warm", "warm 2" if taken). Given several files, each stored file prints \
        "FILE<tab>GUID" on stdout and each failed one an error line naming the file on stderr, in the order given.

        --space says which colour space the look was authored in (default srgb): images in other spaces are \
        converted into it before the look and back after (docs/COLOR.md).

        An ASC CDL file becomes a look whose recipe is one grade.cdl step (slope, offset, power, saturation), \
        composed into a 64³ cube (--size); `export LOOK --for cdl` writes the same numbers back. The look is \
        named after the correction's id, else the file. A .ccc or .cdl holding several corrections needs --id. \
        --cdl-style asc (default) clamps to 0…1 as ASC CDL 1.2 does; no-clamp renders as OpenColorIO does by \
        default for CDL files (docs/guide/lut-files.md).

        Example:
          lookstudio import edited.png --name "Warm Film" --tag film --tag warm
          lookstudio import p3-grade.cube --space display-p3
          lookstudio import luts/*.cube --json
          lookstudio import grade.cc
          lookstudio import shots.ccc --id shot_020 --cdl-style no-clamp --name "Shot 20"
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Files to import (.png, .cube, .3dl, .cc, .ccc, .cdl).", valueName: "file"))
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

    @Option(help: ArgumentHelp("CDL files: the id of the correction to import from a .ccc or .cdl holding several "
                               + "(one file only).", valueName: "id"))
    var id: String?

    @Option(name: .customLong("cdl-style"),
            help: ArgumentHelp("CDL files: asc (ASC CDL 1.2, clamped to 0…1 before the power and at the end) or "
                               + "no-clamp (OpenColorIO's default for CDL files). Default: asc.",
                               valueName: "asc|no-clamp"))
    var cdlStyle: String?

    @Option(help: ArgumentHelp("CDL files: cube size the correction is composed at, 2…256 entries per axis "
                               + "(default \(ImportJob.cdlDefaultSize)); LUT files keep their own.", valueName: "n"))
    var size: Int?

    @Flag(help: "Print a JSON array describing each file (see docs/CATALOG.md).")
    var json = false

    func validate() throws {
        if name != nil && files.count != 1 { throw ValidationError("--name needs exactly one file") }
        _ = try LayoutChoice(option: layout)
        if id != nil && files.count != 1 { throw ValidationError("--id needs exactly one file") }
        if let cdlStyle, CDLStyle(rawValue: cdlStyle) == nil {
            throw ValidationError("--cdl-style must be asc or no-clamp")
        }
        if let size, !(2...256).contains(size) { throw ValidationError("--size must be 2…256") }
        if (id != nil || cdlStyle != nil || size != nil) && !files.contains(where: ImportJob.isCDL) {
            throw ValidationError("--id, --cdl-style and --size apply to CDL files (.cc, .ccc, .cdl); a LUT file "
                                  + "keeps its own grid")
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
        request.layout = try LayoutChoice(option: layout).layout
        request.space = space
        request.asNew = asNew
        request.cdlID = id
        request.cdlStyle = cdlStyle.flatMap(CDLStyle.init(rawValue:)) ?? .asc
        request.cdlSize = size
        let results = try ImportJob(request).run(in: global.workspace) { imported in
            for w in imported.warnings { printError("warning: \(w)") }
            if let error = imported.error {
                printError("error: \(message(for: error, file: imported.file))")
                return
            }
            guard let record = imported.look else { return }
            if imported.status == .existing { printError(existingNote(imported.file, record, imported.tagsAdded)) }
            if !json { print(files.count > 1 ? "\(imported.file)\t\(record.guid)" : record.guid) }
        }
        if json { print(try CatalogJSON.string(results.map { CatalogJSON.Imported($0, error: $0.error.map { message(for: $0) }) })) }
        if results.contains(where: { $0.status == .failed }) { throw ExitCode.failure }
    }

    /// A failed file's message; a file name that makes no look name points to --name.
    private func message(for error: any Error) -> String {
        if case WorkflowError.unusableFileName = error { return "\(error); give one with --name" }
        return ErrorText.commandLine(error)
    }

    /// A failed file's message for the terminal; given several files, naming the file when the error does not.
    private func message(for error: any Error, file: String) -> String {
        let text = message(for: error)
        guard files.count > 1, !text.contains(URL(fileURLWithPath: file).lastPathComponent) else { return text }
        return "\(file): \(text)"
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
