import Foundation
import ImageIO
import LookCatalog
import PluginHost
import Recipes
import Rendering
import Scenes

/// The studio's actions over the catalog, the plugins and the photos it was given: everything the HTTP layer
/// calls. Photos are addressed by index only, so no request can name a file.
public final class StudioSession: @unchecked Sendable {
    /// Long side of photo and look thumbnails, in pixels.
    public static let thumbnailSide = 160
    /// Preview long sides the API serves, in pixels.
    public static let previewSides = 16...4096
    /// Largest file accepted as a dropped photo.
    public static let maxUploadBytes = 256 << 20
    /// Bytes of downscaled previews kept for reuse, over all photos and sizes (least recently used dropped first).
    public static let previewCacheBudget = 256 << 20
    /// Bytes of look thumbnails (JPEG) kept for reuse.
    static let thumbnailCacheBudget = 32 << 20

    /// The catalog and plugins the session's writes go through (the same use cases as the command line's).
    public let workspace: Workspace
    /// The catalog, opened once for the reads every repaint makes.
    public let catalog: Catalog
    /// The plugins, loaded into this process once.
    public let registry: PluginRegistry
    /// Composes the page's recipes with those plugins and the catalog's looks.
    public let composer: Composer
    let uploads: UploadFolder

    struct Photo {
        var name: String
        var path: String
        var pixels: PixelBuffer
        var analysis: SceneAnalysis?
    }

    /// A photo's preview at one long side.
    struct PreviewKey: Hashable {
        var photo: Int
        var longSide: Int
    }

    // Guarded by `lock`: requests run concurrently.
    let lock = NSLock()
    var photos: [Photo] = []
    // Bounded: every `long` of every photo would otherwise stay (60 sizes of a 100 MP photo held 3 GB).
    var previews: StudioCache<PreviewKey, PixelBuffer>
    var thumbnails = StudioCache<String, [UInt8]>(budget: thumbnailCacheBudget)

    /// Opens the catalog and the plugins and decodes `paths` (files, or folders whose images are taken, sorted);
    /// downscaled previews are kept within `previewCacheBudget` bytes.
    public init(paths: [String], catalogPath: String, pluginSearchPaths: [String],
                previewCacheBudget: Int = StudioSession.previewCacheBudget) throws {
        previews = StudioCache(budget: previewCacheBudget)
        // A mistyped photo is reported before the catalog is opened (creating one takes seconds).
        let files = try Self.expand(paths)
        catalog = try Catalog(path: catalogPath)
        workspace = Workspace(catalog: catalogPath, note: { _ in })
        registry = PluginRegistry.load(searchPaths: pluginSearchPaths)
        let catalog = self.catalog
        composer = Composer(registry: registry) { reference in
            let record = try catalog.resolveLook(reference)
            return ResolvedLook(guid: record.guid, name: record.name, cube: try catalog.cube(guid: record.guid))
        }
        UploadFolder.removeStale()
        uploads = UploadFolder()
        for path in files { _ = try addPhoto(path: path) }
    }

    /// Removes the dropped photos' files. The studio calls it however it stops; the photos stay decoded in memory.
    public func removeUploads() { uploads.remove() }

    /// The folder dropped photos are written to (made on the first drop).
    public var uploadFolder: String { uploads.path }

    deinit { uploads.remove() }

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
        let upload = try beginUpload(name: name)
        do {
            try bytes.withUnsafeBytes { try upload.append($0) }
        } catch {
            upload.cancel()
            throw error
        }
        return try upload.finish()
    }

    /// Starts receiving a photo dropped onto the page, named `name` (only shown: the file name is ours, so it cannot
    /// point anywhere). Its bytes go straight to a file, so an upload is never held in memory whole.
    public func beginUpload(name: String) throws -> StudioUpload {
        let display = String(URL(fileURLWithPath: name).lastPathComponent.prefix(200))
        let shown = display.isEmpty ? "dropped" : display
        do {
            let (path, fd) = try uploads.create()
            return StudioUpload(session: self, path: path, fd: fd, name: shown)
        } catch {
            throw StudioUpload.cannotWrite(shown)
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
            text = error.reason
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
        guard Self.previewSides.contains(longSide) else { throw WorkflowError.badPreviewSize(longSide) }
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
}

/// A dropped photo being received into the session's upload folder: `append` its bytes as they arrive, then
/// `finish` (decode and add it) or `cancel` (remove the file). Used by one request at a time.
public final class StudioUpload: @unchecked Sendable {
    private let session: StudioSession
    private let path: String
    private var fd: Int32
    private let name: String
    /// Bytes received so far.
    public private(set) var count = 0

    init(session: StudioSession, path: String, fd: Int32, name: String) {
        self.session = session
        self.path = path
        self.fd = fd
        self.name = name
    }

    /// The system's text names the server's temporary folder, which is nothing the page's user can act on.
    static func cannotWrite(_ name: String) -> WorkflowError {
        WorkflowError.unreadablePhoto(name: name, "the server could not write it to its temporary folder")
    }

    /// Writes the next bytes; refuses an upload over `StudioSession.maxUploadBytes`.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard count + bytes.count <= StudioSession.maxUploadBytes else {
            throw WorkflowError.tooLarge(name: name, count + bytes.count)
        }
        do {
            try UploadFolder.write(bytes, to: fd)
        } catch {
            throw Self.cannotWrite(name)
        }
        count += bytes.count
    }

    /// Closes the file and decodes it as a photo of the session; on failure the file is removed.
    public func finish() throws -> StudioPhotoInfo {
        let closed = close(fd) == 0
        fd = -1
        guard closed else {
            cancel()
            throw Self.cannotWrite(name)
        }
        do {
            return try session.addPhoto(path: path, name: name)
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the upload and removes its file.
    public func cancel() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(path)
    }
}
