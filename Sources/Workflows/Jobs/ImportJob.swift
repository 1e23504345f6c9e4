import Foundation
import LookCatalog
import LookCore
import LookFormats
import LookModel
import Recipes

/// `import`: LUT files (PNG in any layout, `.cube`, `.3dl`, CLF) and ASC CDL files (`.cc`, `.ccc`, `.cdl`, see
/// `CDLImport.swift`) stored as catalog looks, each file in its own transaction, so a failed file leaves no row and
/// the others still import.
public struct ImportJob: Sendable {
    /// What to import and how.
    public struct Request: Sendable, Equatable {
        /// The files, in order.
        public var files: [String]
        /// The look's name (one file only); nil names each look after its file ("warm.png" → "warm", "warm 2"
        /// when taken).
        public var name: String?
        /// Tags attached to each look (added to a look already stored with the same cube).
        public var tags: [String] = []
        /// PNG layout; nil detects it from the pixels.
        public var layout: CubeLayout?
        /// The working space the looks were authored in (a named space or an ICC file); nil is sRGB.
        public var space: String?
        /// Store a cube already in the catalog again, as a separate look.
        public var asNew = false
        /// For a CDL file holding several corrections (`.ccc`, `.cdl`): the id of the one to import.
        public var cdlID: String?
        /// How a CDL is rendered into the cube.
        public var cdlStyle: CDLStyle = .asc
        /// The cube size a CDL is composed at (nil: ``ImportJob/cdlDefaultSize``); LUT files keep their own grid.
        public var cdlSize: Int?

        /// A request for `files`.
        public init(files: [String]) { self.files = files }
    }

    /// What happened to one file.
    public struct Imported: Sendable {
        /// How the file ended.
        public enum Status: String, Sendable { case added, existing, failed }
        /// The file as given.
        public var file: String
        /// Added, already stored (the same cube: nothing written), or failed.
        public var status: Status
        /// The stored look (nil when the file failed).
        public var look: LookRecord?
        /// What the reader tolerated, baked or clamped, each naming the file.
        public var warnings: [String] = []
        /// Tags this import added to a look already in the catalog.
        public var tagsAdded: [String] = []
        /// Why the file failed.
        public var error: (any Error)?
    }

    /// The request.
    public let request: Request

    /// A job for `request`.
    public init(_ request: Request) { self.request = request }

    /// Imports every file in order; `each` sees each file's outcome as it finishes (a front end prints it then).
    public func run(in workspace: Workspace, each: (Imported) -> Void = { _ in }) throws -> [Imported] {
        let workingSpace = try LookSpaces.stored(request.space ?? "srgb")
        let catalog = try workspace.openCatalog()
        // A CDL is composed through the grade plugin: plugins are loaded once, and only when a CDL is given.
        let composer = request.files.contains(where: Self.isCDL) ? workspace.composer() : nil
        return request.files.map { file in
            let outcome: Imported
            do {
                outcome = try importing(file, into: catalog, space: workingSpace, composer: composer)
            } catch {
                outcome = Imported(file: file, status: .failed, error: error)
            }
            each(outcome)
            return outcome
        }
    }

    private func importing(_ file: String, into catalog: Catalog, space: (name: String, icc: [UInt8]?),
                           composer: Composer?) throws -> Imported {
        let base = URL(fileURLWithPath: file).lastPathComponent
        let loaded: (look: NewLook, warnings: [String])
        if let composer, Self.isCDL(file) {
            loaded = try cdlLook(file, composer: composer, in: catalog)
        } else {
            loaded = try lutLook(file)
        }
        var new = loaded.look
        let warnings = loaded.warnings
        new.workingSpace = space.name
        new.workingSpaceICC = space.icc
        let outcome: AddLookOutcome
        do {
            outcome = try catalog.addLook(new, renameOnConflict: request.name == nil, asNew: request.asNew)
        } catch let error as CatalogError where request.name == nil {
            guard case .badName = error else { throw error }
            throw WorkflowError.unusableFileName(file: base, problem: error.description)
        }
        guard case .existing(var record) = outcome else {
            return Imported(file: file, status: .added, look: outcome.record, warnings: warnings)
        }
        var tagsAdded: [String] = []
        if !request.tags.isEmpty { (record, tagsAdded) = try catalog.tagLook(guid: record.guid, tags: request.tags) }
        return Imported(file: file, status: .existing, look: record, warnings: warnings, tagsAdded: tagsAdded)
    }

    /// The step the catalog's 16-bit codes will have for a cube reaching far beyond 0…1, when it is coarser than
    /// the 0.0001 an export promises back (a span of up to 6.5 stays finer); nil otherwise.
    static func precisionNote(_ cube: ColorCube, file: String) -> String? {
        let range = CodeRange(covering: cube)
        guard range.step > 1e-4 else { return nil }
        return "\(file): values span \(range.lower)…\(range.upper); the catalog keeps them in 16-bit steps of "
            + String(format: "%.2g", range.step) + ", coarser than 0.0001"
    }

    /// The look of a LUT file, named after it unless the request names it.
    private func lutLook(_ file: String) throws -> (look: NewLook, warnings: [String]) {
        let base = URL(fileURLWithPath: file).lastPathComponent
        let loaded = try LookFile.read(path: file, layout: request.layout)
        var warnings = loaded.warnings
        if let note = Self.precisionNote(loaded.cube, file: base) { warnings.append(note) }
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return (NewLook(cube: loaded.cube, name: request.name ?? stem, tags: request.tags,
                        sourceFormat: loaded.format, sourceFile: base), warnings)
    }
}
