import Correction
import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookFormats
import LookModel
import PluginHost
import Recipes
import Rendering
import Scenes

/// A photo the studio shows, as the API lists it: addressed by `id`, never by path.
public struct StudioPhotoInfo: Sendable, Equatable, Codable {
    /// Index in the session's list (the only way the API names a photo).
    public var id: Int
    /// File name without folders, for display.
    public var name: String
    /// Size of the decoded photo.
    public var width: Int
    public var height: Int
}

/// A catalog look as the studio's look list shows it.
public struct StudioLook: Sendable, Equatable, Codable {
    public var guid: String
    public var name: String
    public var tags: [String]
    public var size: Int
    public var sourceFormat: String
    /// The recipe YAML a baked look was composed from, or nil.
    public var recipe: String?
}

/// A scene with its default look, for the "set as scene default" menu.
public struct StudioScene: Sendable, Equatable, Codable {
    public var label: Int
    public var name: String
    public var defaultLook: String?
    public var defaultStrength: Int
}

/// Which automatic corrections to put before the recipe (each on = the scene preset's amount, off = 0).
public struct StudioAutoSwitches: Sendable, Equatable, Codable {
    public var exposure = true
    public var levels = true
    public var whiteBalance = true
    public var contrast = true
    public var vibrance = true
    /// All on.
    public init() {}
}

/// What the studio asks to compose: a recipe, an overall strength, and optionally the photo's automatic correction.
public struct StudioComposeRequest: Sendable, Equatable, Codable {
    public var recipe: Recipe
    /// Percent, 0…200, scaling the whole chain against identity.
    public var strength: Double?
    /// Output cube size (default 33, enough for a preview).
    public var size: Int?
    /// With `auto`, the photo whose automatic correction runs first.
    public var photo: Int?
    public var auto: StudioAutoSwitches?

    public init(recipe: Recipe, strength: Double? = nil, size: Int? = nil, photo: Int? = nil,
                auto: StudioAutoSwitches? = nil) {
        self.recipe = recipe
        self.strength = strength
        self.size = size
        self.photo = photo
        self.auto = auto
    }
}

/// The automatic correction of one photo, as `correct --explain` reports it.
public struct StudioExplanation: Sendable, Equatable, Codable {
    /// One automatic correction: its setting in percent (from the scene preset) and the amount computed.
    public struct Correction: Sendable, Equatable, Codable {
        public var name: String
        public var setting: Double
        public var amount: Double
        public var unit: String
    }
    public var scene: Int
    public var sceneName: String
    public var confidence: Double
    public var reason: String
    public var faces: Int
    public var corrections: [Correction]
    /// The `correct --explain` lines.
    public var lines: [String]
}

/// A studio save that stored nothing because the catalog holds the same cube already (the API answers 409).
public struct StudioSameCube: Error, Equatable, Sendable, CustomStringConvertible {
    /// GUID of the look that stores the cube.
    public var guid: String
    /// Its name.
    public var name: String
    /// True when that look is the one given a new version: the cube is its current version already.
    public var isCurrentVersion: Bool

    public var description: String {
        isCurrentVersion
            ? "the new cube is the same as the current version of \"\(name)\" (\(guid)); nothing was saved"
            : "the same cube is already stored as \"\(name)\" (\(guid)); nothing was saved"
    }
}

/// The studio's actions over the catalog, the plugins and the photos it was given: everything the HTTP layer
/// calls. Photos are addressed by index only, so no request can name a file.
public final class StudioSession: @unchecked Sendable {
    /// Long side of photo and look thumbnails, in pixels.
    public static let thumbnailSide = 160
    /// Largest preview long side the API serves.
    public static let maxPreviewSide = 4096
    /// Largest file accepted as a dropped photo.
    public static let maxUploadBytes = 256 << 20
    /// Bytes of downscaled previews kept for reuse, over all photos and sizes (least recently used dropped first).
    public static let previewCacheBudget = 256 << 20
    /// Bytes of look thumbnails (JPEG) kept for reuse.
    static let thumbnailCacheBudget = 32 << 20

    public let catalog: Catalog
    public let registry: PluginRegistry
    public let composer: Composer
    private let uploadFolder: String

    private struct Photo {
        var name: String
        var path: String
        var pixels: PixelBuffer
        var analysis: SceneAnalysis?
    }

    /// A photo's preview at one long side.
    private struct PreviewKey: Hashable {
        var photo: Int
        var longSide: Int
    }

    // Guarded by `lock`: requests run concurrently.
    private let lock = NSLock()
    private var photos: [Photo] = []
    // Bounded: every `long` of every photo would otherwise stay (60 sizes of a 100 MP photo held 3 GB).
    private var previews: StudioCache<PreviewKey, PixelBuffer>
    private var thumbnails = StudioCache<String, [UInt8]>(budget: thumbnailCacheBudget)

    /// Opens the catalog and the plugins and decodes `paths` (files, or folders whose images are taken, sorted);
    /// downscaled previews are kept within `previewCacheBudget` bytes.
    public init(paths: [String], catalogPath: String, pluginSearchPaths: [String],
                previewCacheBudget: Int = StudioSession.previewCacheBudget) throws {
        previews = StudioCache(budget: previewCacheBudget)
        // A mistyped photo is reported before the catalog is opened (creating one takes seconds).
        let files = try Self.expand(paths)
        catalog = try Catalog(path: catalogPath)
        registry = PluginRegistry.load(searchPaths: pluginSearchPaths)
        let catalog = self.catalog
        composer = Composer(registry: registry) { reference in
            let record = try catalog.resolveLook(reference)
            return ResolvedLook(guid: record.guid, name: record.name, cube: try catalog.cube(guid: record.guid))
        }
        uploadFolder = NSTemporaryDirectory() + "lookstudio-studio-\(UUID().uuidString)"
        for path in files { _ = try addPhoto(path: path) }
    }

    deinit { try? FileManager.default.removeItem(atPath: uploadFolder) }

    /// Files given directly, and the images inside folders (not recursive), in order.
    static func expand(_ paths: [String]) throws -> [String] {
        var out: [String] = []
        for path in paths {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw WorkflowError.missingPhoto(path)
            }
            if !isDir.boolValue {
                out.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            out += names.filter { ImageFormat.fromExtension($0) != nil }.map { path + "/" + $0 }
        }
        return out
    }

    // MARK: Photos

    /// The photos, in the order given then dropped.
    public func photoList() -> [StudioPhotoInfo] {
        lock.withLock {
            photos.enumerated().map {
                StudioPhotoInfo(id: $0.offset, name: $0.element.name, width: $0.element.pixels.width,
                                height: $0.element.pixels.height)
            }
        }
    }

    /// Decodes an image file and adds it to the list.
    @discardableResult
    public func addPhoto(path: String, name: String? = nil) throws -> StudioPhotoInfo {
        let decoded: PixelBuffer
        do {
            decoded = try ImageFormat.read(path: path).pixels
        } catch {
            throw WorkflowError.unreadablePhoto(name: name ?? path, Self.reason(error, path: path, shown: name))
        }
        let shown = name ?? URL(fileURLWithPath: path).lastPathComponent
        return lock.withLock {
            photos.append(Photo(name: shown, path: path, pixels: decoded))
            return StudioPhotoInfo(id: photos.count - 1, name: shown, width: decoded.width, height: decoded.height)
        }
    }

    /// Adds a photo dropped onto the page: the bytes are kept in the session's own temporary folder.
    public func addPhoto(bytes: [UInt8], name: String) throws -> StudioPhotoInfo {
        guard bytes.count <= Self.maxUploadBytes else { throw WorkflowError.tooLarge(name: name, bytes.count) }
        let display = String(URL(fileURLWithPath: name).lastPathComponent.prefix(200))
        let shown = display.isEmpty ? "dropped" : display
        // The file name is ours; the dropped name is only shown, so it cannot point anywhere.
        let file = uploadFolder + "/" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: uploadFolder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            // The system's text names the server's temporary folder, which is nothing the page's user can act on.
            throw WorkflowError.unreadablePhoto(name: shown, "the server could not write it to its temporary folder")
        }
        do {
            return try addPhoto(path: file, name: shown)
        } catch {
            try? FileManager.default.removeItem(atPath: file)
            throw error
        }
    }

    /// Why `error` stopped the photo at `path` being read, in words that fit the studio: an uploaded photo is named
    /// `shown` (as dropped), never by the server's temporary file, and no command-line option is offered for a limit.
    static func reason(_ error: any Error, path: String, shown: String?) -> String {
        var text: String
        switch error {
        case ImageIOError.tooManyPixels(_, let width, let height, let limit):
            text = "\(width)×\(height) = \(DecodeBudget.grouped(width * height)) pixels is over the studio's limit "
                + "of \(DecodeBudget.grouped(limit)) pixels; scale the photo down first"
        case let error as ImageIOError:
            text = error.reason.replacingOccurrences(of: "; raise the pixel limit with --max-pixels", with: "")
        default:
            text = "\(error)"
        }
        guard let shown else { return text }
        // Advice such as a CMYK JPEG's `convert FILE … BASE-rgb.jpg` names the file read: the temporary path, and
        // its UUID name as the base.
        let base = URL(fileURLWithPath: shown).deletingPathExtension().lastPathComponent
        return text.replacingOccurrences(of: path, with: shown)
            .replacingOccurrences(of: URL(fileURLWithPath: path).lastPathComponent, with: base)
    }

    /// The photo as 8-bit RGB fitted to `longSide` (never enlarged); cached per size within the preview budget.
    public func preview(photo id: Int, longSide: Int) throws -> PixelBuffer {
        guard (16...Self.maxPreviewSide).contains(longSide) else { throw WorkflowError.badSize(longSide) }
        let key = PreviewKey(photo: id, longSide: longSide)
        let source: PixelBuffer = try lock.withLock {
            guard photos.indices.contains(id) else { throw WorkflowError.noSuchPhoto(id) }
            return previews.value(for: key) ?? photos[id].pixels
        }
        if source.width <= longSide && source.height <= longSide && source.channels == 3 && source.depth == .eight {
            return source
        }
        let scaled = try PreviewScaler.downscale(source, longSide: longSide)
        let bytes = scaled.width * scaled.height * scaled.channels * scaled.depth.rawValue / 8
        lock.withLock { previews.store(scaled, bytes: bytes, for: key) }
        return scaled
    }

    /// Bytes the cached previews hold now: at most the budget given to `init`.
    public var previewCacheBytes: Int { lock.withLock { previews.bytes } }

    /// The preview encoded as PNG (exact) or JPEG (small).
    public func previewFile(photo id: Int, longSide: Int, jpeg: Bool) throws -> [UInt8] {
        let image = try preview(photo: id, longSide: longSide)
        return jpeg ? try JPEGImage.encode(image, quality: 88) : try PNGImage.encode(image, options: .photo)
    }

    // MARK: Looks

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
        try catalog.scenes().map {
            StudioScene(label: $0.label, name: $0.name, defaultLook: $0.defaultLookGuid,
                        defaultStrength: $0.defaultLookStrength)
        }
    }

    // MARK: Composing

    /// Composes the request into one cube: the photo's automatic correction (when asked), then the recipe, scaled
    /// against identity by the overall strength.
    public func compose(_ request: StudioComposeRequest) throws -> ColorCube {
        let size = request.size ?? 33
        guard ColorCube.sizeRange.contains(size) else { throw WorkflowError.badSize(size) }
        let strength = request.strength ?? 100
        guard (0...200).contains(strength) else { throw WorkflowError.badStrength(strength) }
        var cube = try composer.compose(request.recipe, size: size)
        if let photo = request.photo, let switches = request.auto {
            let auto = try autoCorrection(photo: photo, switches: switches).auto
            if !auto.isIdentity {
                let sampler = CubeSampler(cube)
                cube = try ColorCube(size: size) { sampler.sample(auto.apply($0), interpolation: .tetrahedral) }
            }
        }
        return try cube.scaled(strength: Float(strength / 100))
    }

    /// The photo's scene analysis, computed once (it is the expensive part of `correct`).
    private func analysis(photo id: Int) throws -> SceneAnalysis {
        let photo: Photo = try lock.withLock {
            guard photos.indices.contains(id) else { throw WorkflowError.noSuchPhoto(id) }
            return photos[id]
        }
        if let done = photo.analysis { return done }
        let analysis: SceneAnalysis
        do {
            analysis = try SceneAnalysis(path: photo.path)
        } catch {
            // The file is read again here: an uploaded one is named as dropped, not by its temporary path.
            let upload = photo.path.hasPrefix(uploadFolder + "/") ? photo.name : nil
            throw WorkflowError.unreadablePhoto(name: upload ?? photo.path,
                                                Self.reason(error, path: photo.path, shown: upload))
        }
        lock.withLock { photos[id].analysis = analysis }
        return analysis
    }

    /// The automatic correction `correct` would plan for the photo (its scene's preset), with switches applied.
    private func autoCorrection(photo id: Int, switches: StudioAutoSwitches) throws
        -> (auto: AutoCorrection, detection: SceneDetection, analysis: SceneAnalysis) {
        let analysis = try analysis(photo: id)
        let detection = SceneDetector.detect(analysis)
        let preset = (try? catalog.scene(label: detection.label.rawValue))?.correction ?? CorrectionPreset()
        // A switch off scales its correction to 0 %; on leaves the preset's strength as it is.
        func on(_ flag: Bool) -> Double? { flag ? nil : 0 }
        let settings = preset.scaled(exposure: on(switches.exposure), levels: on(switches.levels),
                                     whiteBalance: on(switches.whiteBalance), contrast: on(switches.contrast),
                                     vibrance: on(switches.vibrance))
        return (try AutoCorrection.plan(CorrectionAnalysis(analysis), settings: settings), detection, analysis)
    }

    /// The scene and each automatic correction's amount for the photo, as `correct --explain` prints them.
    public func explain(photo id: Int) throws -> StudioExplanation {
        let (auto, detection, analysis) = try autoCorrection(photo: id, switches: StudioAutoSwitches())
        let s = auto.settings
        let corrections: [StudioExplanation.Correction] = [
            .init(name: "exposure", setting: s.exposure, amount: auto.exposure.stops, unit: "EV"),
            .init(name: "levels", setting: s.levels, amount: auto.levels.white - auto.levels.black, unit: "range"),
            .init(name: "whiteBalance", setting: s.whiteBalance, amount: auto.whiteBalance.corrected.magnitude,
                  unit: "log chroma"),
            .init(name: "contrast", setting: s.contrast, amount: auto.contrast.amount, unit: "S-curve"),
            .init(name: "vibrance", setting: s.vibrance, amount: auto.vibrance.amount, unit: "saturation"),
        ]
        return StudioExplanation(scene: detection.label.rawValue, sceneName: detection.label.name,
                                 confidence: detection.confidence, reason: detection.reason,
                                 faces: analysis.faces.count, corrections: corrections, lines: auto.explanation)
    }

    // MARK: Catalog writes

    /// Composes the recipe at its size (default 64) and stores it as a new look with the recipe as provenance, in
    /// one transaction. A cube already in the catalog is not stored twice: ``StudioSameCube`` names that look.
    public func save(recipe: Recipe, name: String, tags: [String]) throws -> StudioLook {
        var provenance = recipe
        provenance.name = name
        let size = recipe.size ?? Composer.defaultSize
        provenance.size = size
        let cube = try composer.compose(provenance, size: size).quantizedTo16Bit()
        let new = NewLook(cube: cube, name: name, tags: tags.isEmpty ? ["recipe"] : tags, sourceFormat: "recipe",
                          sourceFile: nil, description: "Composed in lookstudio studio",
                          recipeYAML: try Workspace.pinningLooks(provenance, in: catalog).yaml)
        switch try catalog.addLook(new) {
        case .added(let record): return Self.summary(record)
        case .existing(let record): throw StudioSameCube(guid: record.guid, name: record.name, isCurrentVersion: false)
        }
    }

    /// Stores the recipe as a new version of an existing look (same GUID; older versions stay listable). A cube
    /// that is the look's current one already stores nothing and throws ``StudioSameCube``.
    public func saveVersion(guid: String, recipe: Recipe) throws -> StudioLook {
        let existing = try catalog.resolveLook(guid)
        var provenance = recipe
        provenance.name = existing.name
        let size = recipe.size ?? Composer.defaultSize
        provenance.size = size
        let cube = try composer.compose(provenance, size: size).quantizedTo16Bit()
        let new = NewLook(cube: cube, name: existing.name, tags: existing.tags, sourceFormat: "recipe", sourceFile: nil,
                          description: existing.description,
                          recipeYAML: try Workspace.pinningLooks(provenance, in: catalog).yaml)
        let outcome = try catalog.saveVersion(guid: existing.guid, new)
        guard outcome.changed else {
            throw StudioSameCube(guid: existing.guid, name: existing.name, isCurrentVersion: true)
        }
        return Self.summary(outcome.after)
    }

    /// Renames a look.
    public func rename(guid: String, to name: String) throws -> StudioLook {
        Self.summary(try catalog.renameLook(guid: guid, to: name).look)
    }

    /// Replaces a look's tags.
    public func setTags(guid: String, _ tags: [String]) throws -> StudioLook {
        Self.summary(try catalog.setTags(guid: guid, tags))
    }

    /// Makes the look the scene's default at `strength`.
    public func setSceneDefault(label: Int, guid: String, strength: Int) throws -> StudioScene {
        let look = try catalog.resolveLook(guid)
        let r = try catalog.setSceneLook(label: label, lookGuid: look.guid, strength: strength)
        return StudioScene(label: r.label, name: r.name, defaultLook: r.defaultLookGuid,
                           defaultStrength: r.defaultLookStrength)
    }

    /// The bits each export format takes: PNG samples, `.3dl` output codes; a `.cube` holds decimals, so none.
    static let exportBits = ["cube": [Int](), "3dl": [10, 12, 16], "png": [8, 16]]

    /// The look written as a LUT file (`cube`, `3dl` or `png`), as `lookstudio export` writes it.
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
        let cube = try catalog.cube(record)
        try FileManager.default.createDirectory(atPath: uploadFolder, withIntermediateDirectories: true)
        let file = uploadFolder + "/export-\(UUID().uuidString).\(format)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try LUTFormat.write(LUT(cube: cube, title: record.name), to: file, options: .init(bits: bits))
        } catch {
            // A write error (a full disk) names the temporary file; the page's user knows the look.
            let shown = "look \"\(record.name)\" as .\(format)"
            throw WorkflowError.badRequest("\(error)".replacingOccurrences(of: file, with: shown)
                .replacingOccurrences(of: URL(fileURLWithPath: file).lastPathComponent, with: shown))
        }
        let safeName = record.name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), String(safeName) + "." + format)
    }
}

/// A composed cube as bytes for the page: red fastest, RGB triples, as float32 (little-endian) or 8/16-bit codes.
public enum CubeBytes {
    /// `format`: `f32`, `u8` or `u16`.
    public static func encode(_ cube: ColorCube, format: String) throws -> [UInt8] {
        let values = cube.values
        switch format {
        case "f32":
            // Float's own bytes: every platform Swift runs the studio on is little-endian.
            return values.withUnsafeBytes { Array($0) }
        case "u8":
            return values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        case "u16":
            var out = [UInt8](repeating: 0, count: values.count * 2)
            for (i, v) in values.enumerated() {
                let code = UInt16((min(max(v, 0), 1) * 65535).rounded())
                out[2 * i] = UInt8(code & 0xFF)
                out[2 * i + 1] = UInt8(code >> 8)
            }
            return out
        default:
            throw WorkflowError.badFormat(format)
        }
    }
}
