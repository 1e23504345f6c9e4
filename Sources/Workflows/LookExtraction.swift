import Foundation
import ColorManagement
import Extraction
import Hashing
import ImageIO
import LookCatalog
import LookCore
import LookModel
import Rendering

/// Extract-and-save: fits a look to before/after photo pairs and stores it in the catalog with its provenance.
public enum LookExtraction {
    /// What to extract and how to store it.
    public struct Request: Sendable {
        /// (before, after) file paths.
        public var pairs: [(before: String, after: String)]
        /// Name of the new look.
        public var name: String
        /// Tags for the new look.
        public var tags: [String] = []
        /// Fit settings (size, interpolation, …).
        public var settings = ExtractionSettings()
        /// The working space word (srgb, display-p3, adobe-rgb, rec2020).
        public var workingSpace = "srgb"
        /// Images with more pixels than this are refused before any is decoded.
        public var maxPixels = PNGReader.defaultMaxPixels
        /// Told what is being done as the work goes ("reading pair 1 of 2", "fitting: round 3 of 9"), for a
        /// status line; nil for silence.
        public var progress: (@Sendable (String) -> Void)?

        /// A request for `pairs` named `name`.
        public init(pairs: [(before: String, after: String)], name: String) {
            self.pairs = pairs
            self.name = name
        }
    }

    /// What extraction did.
    public struct Outcome: Sendable {
        /// The stored look (or the existing look with the same cube).
        public var record: LookRecord
        /// False when an identical cube was already in the catalog.
        public var added: Bool
        /// The fit and its figures.
        public var fit: LookFit
        /// The provenance text stored as the look's description.
        public var provenance: String
        /// Tags given that an existing look with the same cube did not have yet and now has.
        public var tagsAdded: [String] = []
        /// SIGINT or SIGTERM, when one came while the look was being stored and was held until it was (with the
        /// handler in `.exit` mode, `Interruption.deferring`); the caller reports the look as usual and says so.
        public var interruptedWhileSaving: Int32?
        /// True when the pairs show the colours of less than a third of a typical photo's pixels: a pair of the
        /// same edit on a photo of other colours would carry the look further.
        public var isThinCoverage: Bool { fit.typicalCoverage < LookExtractor.thinCoverage }
    }

    /// Pairs loaded in the working space and checked: each decodes, and its after image is an edit of its before
    /// image (no crop, turn, flip or stranger).
    public struct CheckedPairs: Sendable {
        /// The aligned (before, after) images.
        public var pairs: [(before: PairImage, after: PairImage)]
        /// Each pair's name in reports: its after file's name.
        public var names: [String]
        /// The working space they were loaded in.
        public var space: ColorProfile
    }

    /// Loads and checks the pairs, with no catalog involved: pair checks refuse crops, turns, flips and strangers.
    /// Every file's header is read first, so a missing, unreadable or oversized file is named before the others
    /// are decoded (a 50 MP pair takes seconds and gigabytes to read).
    public static func check(_ request: Request) throws -> CheckedPairs {
        let space = try ColorProfile.named(request.workingSpace)
        for path in request.pairs.flatMap({ [$0.before, $0.after] }) {
            do {
                _ = try ImageFormat.info(path: path, maxPixels: request.maxPixels)
            } catch {
                throw ExtractionError.unreadable(file: path, cause: error)
            }
        }
        var pairs: [(before: PairImage, after: PairImage)] = []
        var names: [String] = []
        for (k, p) in request.pairs.enumerated() {
            request.progress?("reading pair \(k + 1) of \(request.pairs.count)")
            let b = try PairImage.load(path: p.before, workingSpace: space, maxPixels: request.maxPixels)
            let a = try PairImage.load(path: p.after, workingSpace: space, maxPixels: request.maxPixels)
            pairs.append(try PairGeometry.aligned(before: b, after: a, beforeName: p.before, afterName: p.after))
            names.append(URL(fileURLWithPath: p.after).lastPathComponent)
        }
        return CheckedPairs(pairs: pairs, names: names, space: space)
    }

    /// Warnings about the pairs as files: an after image that is its before image (a lossy after image is warned
    /// about by the fit, which knows what of its loss it modelled).
    static func fileWarnings(_ request: Request, checked: CheckedPairs) -> [String] {
        var warnings: [String] = []
        for (k, p) in request.pairs.enumerated() {
            let name = k < checked.names.count ? checked.names[k] : p.after
            if FileManager.default.contentsEqual(atPath: p.before, andPath: p.after) {
                warnings.append("\(name): the after image is the same file as the before image, so the look is "
                                + "the identity; give the edited export as the second image of each pair")
            }
        }
        return warnings
    }

    /// Makes the report folder and checks its two files can be written (not links to devices or folders), so a
    /// bad `--report` fails before the fit rather than after it.
    static func prepareReport(_ directory: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw WorkflowError.reportFolder(path: directory, reason: "it is a file") }
        } else if let error = Folders.make(directory) {
            throw WorkflowError.reportFolder(path: directory, reason: "cannot create the folder ("
                                             + String(cString: strerror(error)) + ")")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw WorkflowError.reportFolder(path: directory, reason: "the folder is not writable")
        }
        for file in ["coverage.png", "residuals.png"] {
            try OutputSafety.checkDestination((directory as NSString).appendingPathComponent(file))
        }
    }


    /// Loads, checks and fits the pairs (no catalog involved).
    public static func fit(_ request: Request) throws -> LookFit {
        try fit(check(request), request: request)
    }

    private static func fit(_ checked: CheckedPairs, request: Request) throws -> LookFit {
        var rounds: (@Sendable (Int, Int) -> Void)?
        if let tell = request.progress {
            rounds = { round, planned in tell("fitting: round \(round) of \(planned)") }
        }
        var fit = try LookExtractor.fit(pairs: checked.pairs, names: checked.names, settings: request.settings,
                                        workingSpace: checked.space, progress: rounds)
        fit.warnings = fileWarnings(request, checked: checked) + fit.warnings
        return fit
    }

    /// Checks the pairs, then opens the catalog (`openCatalog`, so a refused pair never creates or touches one),
    /// fits them and stores the look in one catalog transaction, with the files' SHA-256, the settings and the
    /// fit figures as provenance (so the look can be refitted and checked against its sources). The report, when
    /// asked for, is written before the look is stored, so a report that cannot be written stores nothing.
    public static func run(_ request: Request, openCatalog: () throws -> Catalog,
                           report: String? = nil) throws -> Outcome {
        let checked = try check(request)
        // The catalog, the name, the tags and the report folder are checked before the fit: each fails in a moment
        // then, rather than after the long part.
        let catalog = try openCatalog()
        try catalog.checkNewLook(name: request.name, tags: request.tags)
        if let report { try prepareReport(report) }
        let fit = try fit(checked, request: request)
        if let report {
            request.progress?("writing the report")
            try writeReport(fit, to: report)
        }
        request.progress?("storing the look")
        let provenance = try provenanceYAML(request, fit: fit)
        var new = NewLook(cube: fit.cube, name: request.name, tags: request.tags, sourceFormat: "extracted",
                          sourceFile: request.pairs.first.map { URL(fileURLWithPath: $0.after).lastPathComponent },
                          description: provenance)
        new.workingSpace = try ColorProfile.named(request.workingSpace).named?.rawValue ?? request.workingSpace
        // The fit took long; the save is a moment, and an interrupt cutting it would leave the user unsure whether
        // the look was stored. So it is held until the save is done (or has failed, storing nothing).
        var (outcome, held) = try Interruption.deferring { () throws -> Outcome in
            switch try catalog.addLook(new) {
            case .added(let record): return Outcome(record: record, added: true, fit: fit, provenance: provenance)
            case .existing(var record):
                var added: [String] = []
                if !request.tags.isEmpty {
                    (record, added) = try catalog.tagLook(guid: record.guid, tags: request.tags)
                }
                return Outcome(record: record, added: false, fit: fit, provenance: provenance, tagsAdded: added)
            }
        }
        outcome.interruptedWhileSaving = held
        return outcome
    }

    /// `run` with the catalog of `workspace`; `beforeOpening` runs first (a front end clears its status line,
    /// since opening may print a note).
    public static func run(_ request: Request, in workspace: Workspace, beforeOpening: () -> Void = {},
                           report: String? = nil) throws -> Outcome {
        try run(request, openCatalog: { beforeOpening(); return try workspace.openCatalog() }, report: report)
    }

    /// What a refit did.
    public struct RefitOutcome: Sendable {
        /// The look after the refit: same GUID, name and tags.
        public var record: LookRecord
        /// Its version before the refit.
        public var previousVersion: Int
        /// False when the refit gave the cube the look already has (nothing was stored).
        public var changed: Bool
        /// The new fit and its figures.
        public var fit: LookFit
        /// The provenance of the version refitted: its pairs and the figures its fit recorded.
        public var previous: ExtractionProvenance
        /// What was fitted: the given files with the look's recorded size, interpolation and working space.
        public var request: Request
        /// SIGINT or SIGTERM, when one came while the version was being stored and was held until it was.
        public var interruptedWhileSaving: Int32?
        /// Pairs given after the recorded ones, fitted with them for the first time.
        public var pairsAdded: Int { request.pairs.count - previous.pairs.count }
    }

    /// `refit` with the catalog of `workspace`; `beforeOpening` runs first.
    public static func refit(look reference: String, pairs: [(before: String, after: String)],
                             in workspace: Workspace, beforeOpening: () -> Void = {}, report: String? = nil,
                             maxPixels: Int = PNGReader.defaultMaxPixels,
                             progress: (@Sendable (String) -> Void)? = nil) throws -> RefitOutcome {
        try refit(look: reference, pairs: pairs, openCatalog: { beforeOpening(); return try workspace.openCatalog() },
                  report: report, maxPixels: maxPixels, progress: progress)
    }

    /// Refits the extracted look `reference` (GUID, GUID prefix or name) from its own photos, given again as
    /// `pairs` in the recorded order — each file must have the SHA-256 its provenance records — followed by any
    /// pairs to add (colours the look should carry that its photos did not show), with this version's method and
    /// the look's recorded size, interpolation and working space. The result is stored as the look's next version
    /// (GUID, name and tags kept; the old cube stays readable as GUID@N) with new provenance listing every pair.
    public static func refit(look reference: String, pairs: [(before: String, after: String)],
                             openCatalog: () throws -> Catalog, report: String? = nil,
                             maxPixels: Int = PNGReader.defaultMaxPixels,
                             progress: (@Sendable (String) -> Void)? = nil) throws -> RefitOutcome {
        let catalog = try openCatalog()
        let record = try catalog.resolveLook(reference)
        guard record.sourceFormat == "extracted" else {
            let origin = record.sourceFormat == "shipped" ? "it ships with LookStudio"
                : "it was imported from \(record.sourceFormat)"
            throw WorkflowError.provenance(look: record.name, reason: origin + ", not extracted from photos")
        }
        let provenance = try ExtractionProvenance(description: record.description, look: record.name)
        guard pairs.count >= provenance.pairs.count else {
            let names = provenance.pairs.map { "\($0.before.name) \($0.after.name)" }.joined(separator: ", ")
            throw WorkflowError.refitSources(look: record.name, reason: "it was extracted from "
                + "\(provenance.pairs.count) pair(s), \(names); \(pairs.count) were given (give them all, in that "
                + "order, then any pairs to add)")
        }
        for (k, (given, recorded)) in zip(pairs, provenance.pairs).enumerated() {
            for (path, file, role) in [(given.before, recorded.before, "before"), (given.after, recorded.after, "after")] {
                let hash: String
                do {
                    hash = try fileHash(path)
                } catch {
                    throw WorkflowError.refitSources(look: record.name, reason: "\(path): cannot be read")
                }
                guard hash == file.sha256 else {
                    throw WorkflowError.refitSources(look: record.name, reason: "\(path) is not the \(role) image of "
                        + "pair \(k + 1), \(file.name) (SHA-256 \(file.sha256.prefix(12))…, this file "
                        + "\(hash.prefix(12))…); a refit uses the same photos, a new look other ones")
                }
            }
        }
        var request = Request(pairs: pairs, name: record.name)
        request.settings.size = provenance.size
        request.settings.interpolation = provenance.interpolation
        request.workingSpace = provenance.workingSpace
        request.maxPixels = maxPixels
        request.progress = progress
        let checked = try check(request)
        if let report { try prepareReport(report) }
        let fit = try fit(checked, request: request)
        if let report {
            progress?("writing the report")
            try writeReport(fit, to: report)
        }
        progress?("storing the look")
        let text = try provenanceYAML(request, fit: fit)
        var new = NewLook(cube: fit.cube, name: record.name, sourceFormat: "extracted", sourceFile: record.sourceFile,
                          description: text)
        new.workingSpace = record.workingSpace
        new.workingSpaceICC = record.workingSpaceICC
        // Held as in `run`: the version is stored whole before an interrupt takes effect.
        let (saved, held) = try Interruption.deferring {
            try catalog.saveVersion(guid: record.guid, new, description: text)
        }
        return RefitOutcome(record: saved.after, previousVersion: saved.before.version, changed: saved.changed,
                            fit: fit, previous: provenance, request: request, interruptedWhileSaving: held)
    }

    /// The share of the image at `path` whose colours the pairs of the extracted look `record` did not show, where
    /// the look is extrapolated; nil for a look not extracted from pairs, or extracted before its provenance
    /// recorded the colours.
    public static func unshownShare(of path: String, look record: LookRecord,
                                    maxPixels: Int = PNGReader.defaultMaxPixels) throws -> Double? {
        guard let shown = shownColours(of: record) else { return nil }
        return shown.unshownShare(of: try PairImage.colourSample(path: path, maxPixels: maxPixels))
    }

    /// The colours the pairs of the extracted look `record` showed; nil for a look not extracted from pairs, or
    /// extracted before its provenance recorded them.
    public static func shownColours(of record: LookRecord) -> ShownColours? {
        (try? ExtractionProvenance(description: record.description, look: record.name))?.shownColours
    }

    /// SHA-256 of a file's bytes, lowercase hex (OpenSSL, as the catalog hashes).
    static func fileHash(_ path: String) throws -> String {
        SHA256.hex(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The provenance block: YAML a refit can read back (`ExtractionProvenance`).
    static func provenanceYAML(_ request: Request, fit: LookFit) throws -> String {
        func quoted(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let s = fit.settings
        var lines = [
            "extracted_from_pairs:",
            "  method: lattice least squares, curvature-regularised, Tukey- and spatially reweighted, "
                + "radial vignette model, global additive model, JPEG compression and 4:2:0 chroma models",
            "  working_space: \(request.workingSpace)",
            "  size: \(s.size)",
            "  interpolation: \(s.interpolation.rawValue)",
            "  smoothness: \(s.smoothness)",
            "  bins_per_axis: \(s.binsPerAxis)",
            "  robust_iterations: \(s.robustIterations)",
            "  hold_out_stride: \(s.holdOutStride)",
            "  global_model: \(s.globalModel)",
            "  chroma_subsampling_model: \(s.chromaSubsamplingModel)",
            "  noise_weighting: \(s.noiseWeighting)",
            "  jpeg_model: {enabled: \(s.jpegModel), relaxation: \(s.jpegRelaxation), "
                + "extra_rounds: \(s.jpegExtraRounds)}",
            String(format: "  held_out_de00: {mean: %.3f, p95: %.3f, pixels: %d}", fit.heldOut.mean, fit.heldOut.p95,
                   fit.heldOut.count),
            String(format: "  coverage: %.4f", fit.coverage),
            String(format: "  typical_coverage: %.4f", fit.typicalCoverage),
            "  shown_colours: \(fit.shownColours.encoded)",
            "  pairs:",
        ]
        for p in request.pairs {
            lines.append("    - before: {file: \(quoted(URL(fileURLWithPath: p.before).lastPathComponent)), "
                         + "sha256: \(try fileHash(p.before))}")
            lines.append("      after: {file: \(quoted(URL(fileURLWithPath: p.after).lastPathComponent)), "
                         + "sha256: \(try fileHash(p.after))}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `coverage.png` (blue slices of the lattice: observed cells in the fitted look's colour, the rest
    /// dimmed, with axes and a legend) and `residuals.png` (per pair, ΔE00 as brightness, 5 ΔE00 and above white)
    /// into `directory`.
    public static func writeReport(_ fit: LookFit, to directory: String) throws {
        try prepareReport(directory)
        let chart = try CoverageChart.render(cube: fit.cube, observedCells: fit.observedCells,
                                             interpolation: fit.settings.interpolation)
        try ImageFormat.write(chart, to: directory + "/coverage.png")
        let gap = 4
        let scale = 4
        let mapWidth = fit.pairs.map { $0.residuals.width }.max() ?? 1
        let mapHeight = fit.pairs.reduce(0) { $0 + $1.residuals.height + gap }
        var map = [UInt8](repeating: 0, count: 3 * mapWidth * scale * mapHeight * scale)
        var top = 0
        for p in fit.pairs {
            let r = p.residuals
            for y in 0..<(r.height * scale) {
                for x in 0..<(r.width * scale) {
                    let v = UInt8(min(r.values[(y / scale) * r.width + x / scale] / 5, 1) * 255)
                    let o = 3 * ((top * scale + y) * mapWidth * scale + x)
                    map[o] = v
                    map[o + 1] = v
                    map[o + 2] = v
                }
            }
            top += r.height + gap
        }
        try ImageFormat.write(try PixelBuffer(width: mapWidth * scale, height: mapHeight * scale, channels: 3,
                                              samples: .eight(map)), to: directory + "/residuals.png")
    }
}
