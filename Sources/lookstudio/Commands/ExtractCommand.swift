import ArgumentParser
import Extraction
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

        Example:
          lookstudio extract street.jpg street-graded.jpg --name "Teal Street" --tag film
          lookstudio extract a.tif a-edit.tif b.tif b-edit.tif --name Faded --size 33 --report report/ --json
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Before and after images, in pairs: BEFORE AFTER [BEFORE2 AFTER2 …].",
                                 valueName: "image"))
    var images: [String]

    @Option(help: "Name of the new look (must be unused, ignoring case).")
    var name: String

    @Option(help: "Entries per cube axis (3…129).")
    var size = 33

    @Option(help: "Tag to attach (repeatable).")
    var tag: [String] = []

    @Option(help: ArgumentHelp("Folder for coverage.png (cube slices) and residuals.png (where the edit is not a "
                               + "global colour change).", valueName: "dir"))
    var report: String?

    @Option(help: "Interpolation the look will be applied with: tetrahedral or trilinear.")
    var interp = "tetrahedral"

    @Option(help: "Working space the look is fitted and stored in: srgb, display-p3, adobe-rgb, rec2020.")
    var workingSpace = "srgb"

    @Flag(help: "Print a JSON object with the look's GUID and every fit figure (docs/EXTRACT.md).")
    var json = false

    func validate() throws {
        if images.count < 2 || images.count % 2 != 0 {
            throw ValidationError("give images in pairs: BEFORE AFTER [BEFORE2 AFTER2 …] (got \(images.count))")
        }
        if !(3...129).contains(size) { throw ValidationError("--size must be 3…129, got \(size)") }
        if Interpolation(rawValue: interp) == nil { throw ValidationError("--interp must be tetrahedral or trilinear") }
    }

    func run() throws {
        let pairs = stride(from: 0, to: images.count, by: 2).map { (before: images[$0], after: images[$0 + 1]) }
        var request = LookExtraction.Request(pairs: pairs, name: name)
        request.tags = tag
        request.settings.size = size
        request.settings.interpolation = Interpolation(rawValue: interp) ?? .tetrahedral
        request.workingSpace = workingSpace
        let outcome = try LookExtraction.run(request, openCatalog: global.openCatalog, report: report)
        for w in outcome.fit.warnings { printError("warning: \(w)") }
        if !outcome.added {
            printError("note: the same cube is already in the catalog as \(outcome.record.guid) "
                       + "(\"\(outcome.record.name)\"); nothing was stored")
        }
        if json {
            print(try jsonString(ExtractionSummary(outcome, request: request)))
        } else {
            print(outcome.record.guid)
            printError(String(format: "held-out error: mean %.2f, p95 %.2f ΔE00; coverage %.1f %% of the cube",
                              outcome.fit.heldOut.mean, outcome.fit.heldOut.p95, outcome.fit.coverage * 100))
        }
    }
}
