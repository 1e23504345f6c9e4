import ArgumentParser
import ColorManagement
import Foundation
import LookCore
import Workflows

/// `lookstudio extract BEFORE AFTER […]`: fits a look to before/after photo pairs and stores it in the catalog.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Extract a look from before/after photo pairs (an edit made elsewhere) and store it in the catalog.",
        discussion: """
        Give the original and the edited photo, in that order; more pairs cover more colours. The images may be \
        PNG, JPEG, TIFF, WebP or HEIC, 8 or 16 bits; a larger image of the same aspect is resized to the smaller. \
        A crop, rotation, flip or a different photo is refused. The fit reproduces each pair through `apply` \
        (same interpolation), continues smoothly beyond the pair's colours, and down-weights local edits \
        (vignette, brushes, text), which are reported by region. Method and tolerances: docs/EXTRACT.md.

        --refit LOOK fits an extracted look again from its own photos (given again, in the recorded order; each \
        file must have the SHA-256 the look's provenance records) with this version's method and the look's size, \
        interpolation and working space, and stores the result as the look's next version: GUID, name and tags \
        are kept and the old cube stays readable as GUID@N (`lookstudio looks versions LOOK`). Pairs given after \
        the recorded ones are added: when the look was warned to show too few colours, refit it with a pair of \
        the same edit on a photo of other colours.

        Ctrl-C (SIGINT) or SIGTERM before the save stores nothing (exit status 130 or 143). One that comes while the \
        look is being saved is held until the save is done: the GUID is printed with a note and the status is 0. \
        A second one acts at once.

        Examples:
          lookstudio extract street.jpg street-graded.jpg --name "Teal Street" --tag film
          lookstudio extract a.tif a-edit.tif b.tif b-edit.tif --name Faded --size 33 --report report/ --json
          lookstudio extract street.jpg street-graded.jpg --refit "Teal Street"
          lookstudio extract street.jpg street-graded.jpg beach.jpg beach-graded.jpg --refit "Teal Street"
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Before and after images, in pairs: BEFORE AFTER [BEFORE2 AFTER2 …].",
                                 valueName: "image"))
    var images: [String]

    @Option(help: "Name of the new look (must be unused, ignoring case).")
    var name: String?

    @Option(help: ArgumentHelp("Refit this extracted look (GUID, GUID prefix or name) from the same photos, and "
                               + "any pairs given after them, and store it as its next version.", valueName: "look"))
    var refit: String?

    @Option(help: "Entries per cube axis (3…129). (default: 33)")
    var size: Int?

    @Option(help: "Tag to attach (repeatable).")
    var tag: [String] = []

    @Option(help: ArgumentHelp("Folder for coverage.png (cube slices) and residuals.png (where the edit is not a "
                               + "global colour change).", valueName: "dir"))
    var report: String?

    @Option(help: "Interpolation the look will be applied with: tetrahedral or trilinear. (default: tetrahedral)")
    var interp: String?

    @Option(help: ArgumentHelp("Working space the look is fitted and stored in: srgb, display-p3, adobe-rgb, "
                               + "rec2020. (default: srgb)"))
    var workingSpace: String?

    @Flag(help: "Print a JSON object with the look's GUID and every fit figure (docs/EXTRACT.md).")
    var json = false

    @OptionGroup var limit: PixelLimitOptions

    func validate() throws {
        if images.count < 2 || images.count % 2 != 0 {
            throw ValidationError("give images in pairs: BEFORE AFTER [BEFORE2 AFTER2 …] (got \(images.count))")
        }
        if let size, !(3...129).contains(size) { throw ValidationError("--size must be 3…129, got \(size)") }
        if let interp, Interpolation(rawValue: interp) == nil {
            throw ValidationError("--interp must be tetrahedral or trilinear")
        }
        if let workingSpace, ColorProfile.Named(argument: workingSpace) == nil {
            throw ValidationError("--working-space must be srgb, display-p3, adobe-rgb or rec2020 (a look is fitted "
                                  + "and stored in one of these spaces)")
        }
        if refit != nil {
            if name != nil || !tag.isEmpty || size != nil || interp != nil || workingSpace != nil {
                throw ValidationError("--refit keeps the look's name, tags, size, interpolation and working space: "
                                      + "drop --name, --tag, --size, --interp and --working-space")
            }
        } else if name == nil {
            throw ValidationError("give the new look a --name (or --refit LOOK to fit an extracted look again)")
        }
    }

    func run() throws {
        let pairs = stride(from: 0, to: images.count, by: 2).map { (before: images[$0], after: images[$0 + 1]) }
        if let refit {
            try runRefit(refit, pairs: pairs)
            return
        }
        var request = LookExtraction.Request(pairs: pairs, name: name ?? "")
        request.tags = tag
        request.settings.size = size ?? 33
        request.settings.interpolation = interp.flatMap(Interpolation.init(rawValue:)) ?? .tetrahedral
        request.workingSpace = workingSpace ?? "srgb"
        request.maxPixels = limit.maxPixels
        let workspace = try global.workspace
        let outcome = try withStatus { progress, beforeOpening in
            request.progress = progress
            return try LookExtraction.run(request, in: workspace, beforeOpening: beforeOpening, report: report)
        }
        for w in outcome.fit.warnings { printError("warning: \(w)") }
        noteUnseenHues(outcome.fit.unseenHues)
        if !outcome.added {
            var note = "note: the same cube is already in the catalog as \(outcome.record.guid) "
                + "(\"\(MessageText.quote(outcome.record.name))\"); nothing was stored"
            if !tag.isEmpty {
                note += outcome.tagsAdded.isEmpty ? "; it had every tag given"
                    : "; tags added: " + MessageText.quote(outcome.tagsAdded.joined(separator: ", "))
            }
            note += ". --name \(MessageText.quote(request.name)) was not applied: rename it with "
                + "`lookstudio looks rename \(outcome.record.guid) NAME`"
            printError(note)
        }
        if json {
            print(try jsonString(ExtractionSummary(outcome, request: request)))
        } else {
            print(outcome.record.guid)
            printError(String(format: "held-out error: mean %.2f, p95 %.2f ΔE00; the pairs show the colours of %.0f %% "
                              + "of a typical photo's pixels (%.1f %% of the colour space)", outcome.fit.heldOut.mean,
                              outcome.fit.heldOut.p95, outcome.fit.typicalCoverage * 100, outcome.fit.coverage * 100))
        }
        if outcome.added, outcome.isThinCoverage {
            printError("note: to add a pair of the same edit on a photo of other colours to this look, give "
                       + "\(pairs.count == 1 ? "this pair" : "these pairs") first: lookstudio extract BEFORE AFTER "
                       + "BEFORE2 AFTER2 --refit \(outcome.record.guid.prefix(8))")
        }
        noteHeldInterrupt(outcome.interruptedWhileSaving, guid: outcome.record.guid)
    }

    /// An interrupt held until the catalog write was done: the command finished and exits 0, so say why.
    private func noteHeldInterrupt(_ signal: Int32?, guid: String) {
        guard signal != nil else { return }
        printError("note: interrupted while saving to the catalog; the save was completed first, so \(guid) is in "
                   + "the catalog as shown above")
    }

    /// Runs `body` under a status line on a terminal (none otherwise), cleared when `body` returns or throws, so
    /// warnings, results and errors print on a clean line; `body` gets the line's updater and what clears it before
    /// the catalog opens (opening may print a note).
    private func withStatus<T>(_ body: (_ progress: (@Sendable (String) -> Void)?,
                                        _ beforeOpening: () -> Void) throws -> T) throws -> T {
        let status = TerminalStatus.onTerminal()
        defer { status?.close() }
        var progress: (@Sendable (String) -> Void)?
        if let status { progress = { status.update($0) } }
        return try body(progress, { status?.close() })
    }

    /// Which saturated hues the pairs never show, so the user knows where the look is a guess.
    private func noteUnseenHues(_ hues: [String]) {
        guard !hues.isEmpty, !json else { return }
        let list = hues.count == 1 ? hues[0] : hues.dropLast().joined(separator: ", ") + " or " + hues.last!
        printError("note: the pairs show no saturated \(list); the look is extrapolated there (a grade that "
                   + "changes those hues needs a pair that shows them)")
    }

    private func runRefit(_ look: String, pairs: [(before: String, after: String)]) throws {
        let workspace = try global.workspace
        let outcome = try withStatus { progress, beforeOpening in
            try LookExtraction.refit(look: look, pairs: pairs, in: workspace, beforeOpening: beforeOpening,
                                     report: report, maxPixels: limit.maxPixels, progress: progress)
        }
        for w in outcome.fit.warnings { printError("warning: \(w)") }
        noteUnseenHues(outcome.fit.unseenHues)
        defer { noteHeldInterrupt(outcome.interruptedWhileSaving, guid: outcome.record.guid) }
        if json {
            print(try jsonString(ExtractionSummary(outcome)))
            return
        }
        print(outcome.record.guid)
        // Added pairs bring their own held-out pixels, so the old figure is not comparable then.
        let before = (outcome.pairsAdded == 0 ? outcome.previous.heldOutMean : nil)
            .map { String(format: "%.2f → ", $0) } ?? ""
        if outcome.changed {
            let added = outcome.pairsAdded == 0 ? ""
                : " with \(outcome.pairsAdded) pair\(outcome.pairsAdded == 1 ? "" : "s") added"
                + " (typical coverage "
                + (outcome.previous.typicalCoverage.map { String(format: "%.0f → ", $0 * 100) } ?? "")
                + String(format: "%.0f %%)", outcome.fit.typicalCoverage * 100)
            printError(String(format: "refitted \"%@\": version %d → %d%@; held-out error: mean %@%.2f, p95 %.2f ΔE00",
                              outcome.record.name, outcome.previousVersion, outcome.record.version, added, before,
                              outcome.fit.heldOut.mean, outcome.fit.heldOut.p95))
        } else {
            printError("note: the refit gives \"\(outcome.record.name)\" the cube it already has; nothing was stored")
        }
    }
}
