import Export
import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookFormats
import LookModel

/// `export`: a catalog look written as a LUT file (PNG, `.cube`, `.3dl`, CLF by extension), or for an
/// application target (Resolve, Lightroom, OCIO, an ICC device link, an ASC CDL, …) — the one way looks leave the
/// catalog, for every front end.
public struct ExportJob: Sendable {
    /// Where the look goes.
    public enum Destination: Sendable, Equatable {
        /// A LUT file whose format follows the output's extension: PNG `layout` and `bits` (8 or 16), `.3dl`
        /// output bits (10, 12, 16), the cube resampled to `size` entries per axis.
        case file(layout: CubeLayout? = nil, bits: Int? = nil, size: Int? = nil)
        /// An application target (`ExportJob.targets`), at `strength` percent (0…200), `size` points per axis
        /// (nil: the target's default).
        case target(String, strength: Double = 100, size: Int? = nil)
    }

    /// What to export.
    public struct Request: Sendable, Equatable {
        /// GUID, GUID prefix, name or `…@N` of the look.
        public var look: String
        /// The main file to write; a target may write companion files beside it.
        public var output: String
        /// File or target.
        public var destination: Destination

        /// A request for `look` to `output`.
        public init(look: String, output: String, destination: Destination = .file()) {
            self.look = look
            self.output = output
            self.destination = destination
        }
    }

    /// What an export wrote.
    public struct Written: Sendable, Equatable {
        /// The look exported.
        public var look: LookRecord
        /// Every file written, main file first.
        public var files: [String]
        /// What was baked, dropped or clamped.
        public var warnings: [String]
        /// How to use the result (for targets, e.g. the ffmpeg command line).
        public var notes: [String]
    }

    /// One application target, as a menu shows it.
    public struct Target: Sendable, Equatable, Codable {
        /// The word that names it (`resolve`, `lightroom`, …).
        public var id: String
        /// The application(s) and file format.
        public var format: String
        /// The main file's extension.
        public var fileExtension: String
    }

    /// Every application target, in listing order.
    public static var targets: [Target] {
        Exporter.targets.map { Target(id: $0.id, format: $0.format, fileExtension: $0.fileExtension) }
    }

    /// One line per target: id, format, size, range, what it cannot carry.
    public static func listing() -> [String] { Exporter.listing() }

    /// Throws unless `id` names a target that accepts `size` (when given): checked before anything is opened.
    public static func checkTarget(_ id: String, size: Int?) throws {
        let found = try Exporter.target(id)
        if let size { try found.checkSize(size) }
    }

    /// The request.
    public let request: Request

    /// A job for `request`.
    public init(_ request: Request) { self.request = request }

    /// Writes the look; each file atomically.
    public func run(in workspace: Workspace) throws -> Written {
        // The catalog is an input too: `--for resolve -o catalog.sqlite` would replace it by a .cube.
        try OutputSafety.check(inputs: [workspace.catalogPath], output: request.output)
        let catalog = try workspace.openCatalog()
        let record = try catalog.resolveLook(request.look)
        let cube = try catalog.cube(record)
        return try Folders.withParents(of: request.output) { try write(record, cube) }
    }

    /// Writes `cube`, the look of `record`, to the request's destination.
    private func write(_ record: LookRecord, _ cube: ColorCube) throws -> Written {
        switch request.destination {
        case .target(let id, let strength, let size):
            var look = try ExportLook(name: record.name, cube: cube, strength: Float(strength / 100),
                                      workingSpace: try LookSpaces.profile(of: record))
            var notes: [String] = []
            // Only the look's recipe knows whether it is one CDL; the Export module knows no recipes.
            if try Exporter.target(id).content == .cdl {
                let cdl = try CDLRecipe.correction(of: record)
                look.cdl = cdl.correction
                notes.append(CDLRecipe.styleNote(cdl.style))
            }
            let result = try Exporter.export(look, for: id, to: request.output, size: size)
            return Written(look: record, files: result.files, warnings: result.warnings, notes: result.notes + notes)
        case .file(let layout, let bits, let size):
            let warnings = try LookFile.write(cube, to: request.output, layout: layout, bits: bits, size: size,
                                              title: record.name)
            return Written(look: record, files: [request.output], warnings: warnings, notes: [])
        }
    }
}
