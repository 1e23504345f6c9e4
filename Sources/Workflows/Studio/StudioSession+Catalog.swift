import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookModel
import Recipes

/// The studio's catalog actions: every write goes through the use cases the command line runs.
extension StudioSession {
    /// Every catalog look, by name.
    public func looks() throws -> [StudioLook] {
        try catalog.looks().map(Self.summary)
    }

    static func summary(_ r: LookRecord) -> StudioLook {
        StudioLook(guid: r.guid, name: r.name, tags: r.tags, size: r.cubeSize, sourceFormat: r.sourceFormat,
                   recipe: r.recipeYAML)
    }

    /// A JPEG thumbnail of `photo` with the look applied; cached.
    public func lookThumbnail(guid: String, photo id: Int) throws -> [UInt8] {
        // Keyed by the cube's content hash, not the GUID: a new version keeps the GUID and must not show the old cube.
        let look = try catalog.resolveLook(guid)
        let key = "\(look.contentHash)/\(id)"
        if let cached = lock.withLock({ thumbnails.value(for: key) }) { return cached }
        let cube = try catalog.cube(look)
        var image = try preview(photo: id, longSide: Self.thumbnailSide)
        guard case .eight(var samples) = image.samples else { throw WorkflowError.badRequest("8-bit preview") }
        try samples.withUnsafeMutableBufferPointer { try CubeApplier(cube: cube).apply(to: $0, channels: 3) }
        image.samples = .eight(samples)
        let jpeg = try JPEGImage.encode(image, quality: 85)
        lock.withLock { thumbnails.store(jpeg, bytes: jpeg.count, for: key) }
        return jpeg
    }

    /// The catalog's scenes with their default looks.
    public func scenes() throws -> [StudioScene] {
        try workspace.scenes().map(Self.scene)
    }

    static func scene(_ details: SceneDetails) -> StudioScene {
        StudioScene(label: details.scene.label, name: details.scene.name, defaultLook: details.scene.defaultLookGuid,
                    defaultStrength: details.scene.defaultLookStrength)
    }

    /// Composes the recipe at its size (default 64) and stores it as a new look with the recipe as provenance, in
    /// one transaction. A cube already in the catalog is not stored twice: ``StudioSameCube`` names that look.
    public func save(recipe: Recipe, name: String, tags: [String]) throws -> StudioLook {
        switch try store(recipe, as: .newLook(name: name), tags: tags) {
        case .sameCube(let record): throw StudioSameCube(guid: record.guid, name: record.name, isCurrentVersion: false)
        case let saved: return Self.summary(saved.look)
        }
    }

    /// Stores the recipe as a new version of an existing look (same GUID; older versions stay listable). A cube
    /// that is the look's current one already stores nothing and throws ``StudioSameCube``.
    public func saveVersion(guid: String, recipe: Recipe) throws -> StudioLook {
        switch try store(recipe, as: .newVersion(of: guid), tags: []) {
        case .sameCube(let record): throw StudioSameCube(guid: record.guid, name: record.name, isCurrentVersion: true)
        case let saved: return Self.summary(saved.look)
        }
    }

    private func store(_ recipe: Recipe, as mode: SaveRecipeJob.Mode, tags: [String]) throws -> SaveRecipeJob.Saved {
        let cube = try composer.compose(recipe, size: recipe.size ?? Composer.defaultSize).quantizedTo16Bit()
        var request = SaveRecipeJob.Request(recipe: recipe, mode: mode, cube: cube)
        request.tags = tags
        request.description = "Composed in lookstudio studio"
        request.sourceFile = nil
        return try SaveRecipeJob(request).run(in: workspace)
    }

    /// Renames a look.
    public func rename(guid: String, to name: String) throws -> StudioLook {
        Self.summary(try workspace.renameLook(guid, to: name).after)
    }

    /// Replaces a look's tags.
    public func setTags(guid: String, _ tags: [String]) throws -> StudioLook {
        Self.summary(try workspace.setTags(guid, tags))
    }

    /// Makes the look the scene's default at `strength`.
    public func setSceneDefault(label: Int, guid: String, strength: Int) throws -> StudioScene {
        Self.scene(try workspace.setSceneLook(label: label, look: guid, strength: strength))
    }

    /// The look written for an export target (`ExportJob.targets`), as `lookstudio export --for` writes it: every
    /// file, main file first, named after the look.
    public func export(guid: String, _ request: StudioExportRequest) throws -> StudioExport {
        try ExportJob.checkTarget(request.target, size: request.size)
        let record = try catalog.resolveLook(guid)
        let target = ExportJob.targets.first { $0.id == request.target.lowercased() }
        return try exporting(record, fileExtension: target?.fileExtension ?? "lut",
                             destination: .target(request.target, strength: request.strength ?? 100,
                                                  size: request.size))
    }

    /// The bits each LUT file format takes: PNG samples, `.3dl` output codes; a `.cube` holds decimals, so none.
    static let exportBits = ["cube": [Int](), "3dl": [10, 12, 16], "png": [8, 16]]

    /// The look written as a LUT file (`cube`, `3dl` or `png`), as `lookstudio export -o NAME.FORMAT` writes it.
    public func export(guid: String, format: String, bits: Int?) throws -> (bytes: [UInt8], fileName: String) {
        guard let allowed = Self.exportBits[format] else { throw WorkflowError.badFormat(format) }
        // Checked before anything is written, so the answer is about the request, not a temporary file.
        if let bits, !allowed.contains(bits) {
            throw WorkflowError.badRequest(allowed.isEmpty
                ? "bits=\(bits): a .cube file holds decimal numbers and has no bit depth; leave bits out"
                : "bits=\(bits): a .\(format) look is written with "
                    + allowed.dropLast().map(String.init).joined(separator: ", ") + " or \(allowed.last!) bits")
        }
        let record = try catalog.resolveLook(guid)
        let exported = try exporting(record, fileExtension: format, destination: .file(bits: bits))
        return (exported.files[0].data, exported.files[0].name)
    }

    /// Runs the export job for `record` into a temporary folder and reads back what it wrote; errors name the
    /// look, never the server's folder.
    private func exporting(_ record: LookRecord, fileExtension: String, destination: ExportJob.Destination) throws
        -> StudioExport {
        let folder = try uploads.makeSubfolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let safeName = String(record.name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        let main = folder + "/" + safeName + "." + fileExtension
        let written: ExportJob.Written
        do {
            written = try ExportJob(.init(look: record.guid, output: main, destination: destination)).run(in: workspace)
        } catch {
            // A write error (a full disk) names the temporary file; the page's user knows the look.
            let shown = "look \"\(record.name)\" as .\(fileExtension)"
            throw WorkflowError.badRequest("\(error)".replacingOccurrences(of: main, with: shown)
                .replacingOccurrences(of: folder + "/", with: ""))
        }
        let files = try written.files.map {
            StudioExport.File(name: URL(fileURLWithPath: $0).lastPathComponent,
                              data: [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))))
        }
        return StudioExport(files: files, warnings: written.warnings, notes: written.notes)
    }
}
