import Dispatch
import Foundation
import ImageIO
import LookCore
import LookGallery

/// Builds a gallery folder: previews of looks on photos, cached by content, and the pages that show them.
///
/// Each photo is decoded once and shrunk to the gallery size; each look's cube is loaded once and applied to every
/// photo that lacks its preview. A preview's file name is a hash of (look content hash, photo content hash, size,
/// quality), so a rerun finds what it made before and renders only what changed. Looks render in parallel.
/// The catalog stays outside: looks arrive as values with a closure that loads their cube.
public struct GalleryBuilder: Sendable {
    /// Hex digest of bytes (the catalog's SHA-256 in the CLI); names cache entries.
    public typealias Hasher = @Sendable (Data) -> String

    /// A look to show: what its card says, its content hash, and how to get its cube when a preview is missing.
    public struct Look: Sendable {
        /// Card text.
        public var info: GalleryLookInfo
        /// Identifies the cube's content (the catalog's content hash); a changed cube must change it.
        public var contentHash: String
        /// Loads the cube; called at most once per build, and only when something must be rendered from it.
        public var loadCube: @Sendable () throws -> ColorCube

        /// A look from its parts.
        public init(info: GalleryLookInfo, contentHash: String, loadCube: @escaping @Sendable () throws -> ColorCube) {
            self.info = info
            self.contentHash = contentHash
            self.loadCube = loadCube
        }
    }

    /// How previews are made and what the index says.
    public struct Options: Sendable, Equatable {
        /// Long side of the previews in pixels (photos are never enlarged).
        public var size: Int
        /// JPEG quality of the previews, 1…100.
        public var jpegQuality: Int
        /// Heading of the index page.
        public var title: String
        /// A composition report shown above the cards (recipe previews).
        public var report: String?
        /// Catalog looks, or a recipe's steps (kept in recipe order).
        public var kind: GalleryDocument.Kind
        /// Photos with more pixels than this are refused (`--max-pixels`).
        public var maxPixels: Int

        /// Options; the defaults suit a screen.
        public init(size: Int = 768, jpegQuality: Int = 90, title: String = "LookStudio gallery",
                    report: String? = nil, kind: GalleryDocument.Kind = .looks,
                    maxPixels: Int = PNGReader.defaultMaxPixels) {
            self.maxPixels = maxPixels
            self.size = size
            self.jpegQuality = jpegQuality
            self.title = title
            self.report = report
            self.kind = kind
        }
    }

    /// What a build did (`gallery --json` prints it).
    public struct Report: Sendable, Equatable, Codable {
        /// Looks shown.
        public var looks: Int
        /// Photos shown.
        public var photos: Int
        /// Previews of looks rendered in this run.
        public var previewsRendered: Int
        /// Previews of looks found in the cache.
        public var previewsReused: Int
        /// Photos decoded in this run (0 when every preview was cached).
        public var photosDecoded: Int
        /// Cubes loaded in this run.
        public var cubesLoaded: Int
        /// Stale cache files removed.
        public var filesRemoved: Int
        /// Wall-clock time of the build.
        public var seconds: Double
        /// Path of the index page.
        public var index: String

        enum CodingKeys: String, CodingKey {
            case looks, photos, seconds, index
            case previewsRendered = "previews_rendered", previewsReused = "previews_reused"
            case photosDecoded = "photos_decoded", cubesLoaded = "cubes_loaded", filesRemoved = "files_removed"
        }
    }

    /// Previews can be this small or this large.
    public static let sizeRange = 16...8192
    /// Where the build remembers preview sizes and curves, so a rerun needs no decode.
    public static let cacheFile = "gallery-cache.json"
    /// Part of every cache key: bump when previews are made differently.
    static let version = "1"

    private let hasher: Hasher

    /// A builder naming its cache entries with `hasher`.
    public init(hasher: @escaping Hasher) {
        self.hasher = hasher
    }

    /// What the cache file holds: preview sizes by photo key, curves by cube key, and the files the builder wrote
    /// (or was about to write when a build stopped) that a later build may remove (relative paths; optional so that
    /// a cache from before they were listed still decodes, its previews reused, though its files are then never
    /// removed).
    struct Manifest: Codable {
        var photos: [String: [Int]] = [:]
        var curves: [String: GreyCurves] = [:]
        var files: [String]? = []
    }

    /// The gallery folder's layout.
    private struct Folder: Sendable {
        let root: String
        var previews: String { root + "/previews/" }
        var cubes: String { root + "/cubes/" }
        var cache: String { root + "/" + GalleryBuilder.cacheFile }

        /// True when a preview's JPEG and its script both exist.
        func cached(_ key: String) -> Bool {
            FileManager.default.fileExists(atPath: previews + key + ".jpg")
                && FileManager.default.fileExists(atPath: previews + key + ".js")
        }
    }

    private struct Photo: Sendable {
        var path: String
        var name: String
        var hash: String
        /// Key of the photo's own (before) preview.
        var key: String
    }

    /// A photo at the gallery size, with the ICC profile of its file.
    private struct ScaledPhoto: Sendable {
        var pixels: PixelBuffer
        var iccProfile: [UInt8]?
    }

    /// What one look needs this run.
    private struct LookPlan: Sendable {
        var look: Look
        var cubeKey: String
        var previewKeys: [String]
        /// Photo indices whose preview of this look is not cached.
        var missing: [Int]
        var needsCube: Bool
    }

    /// Renders what is missing into `directory` and writes `index.html` and `looks/ID.html`; `progress` hears of
    /// each look rendered (done, total, line).
    public func build(photos paths: [String], looks: [Look], into directory: String, options: Options = Options(),
                      progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws -> Report {
        let start = DispatchTime.now().uptimeNanoseconds
        guard !paths.isEmpty else { throw RenderingError.gallery("give at least one photo to show the looks on") }
        guard Self.sizeRange.contains(options.size) else {
            throw RenderingError.gallery("size \(options.size) is outside "
                                         + "\(Self.sizeRange.lowerBound)…\(Self.sizeRange.upperBound)")
        }
        let folder = try Self.makeFolder(directory)
        var manifest = (try? JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder.cache))))
            ?? Manifest()
        try Self.claim(folder)
        let suffix = "|\(options.size)|q\(options.jpegQuality)|v\(Self.version)"
        let photos = try paths.map { path in
            let hash = hasher(try Self.contents(of: path))
            return Photo(path: path, name: URL(fileURLWithPath: path).lastPathComponent, hash: hash,
                         key: "b-" + key("before|" + hash + suffix))
        }
        let plans = looks.map { look -> LookPlan in
            let cubeKey = "c-" + key("cube|" + look.contentHash + "|v" + Self.version)
            let keys = photos.map { "p-" + key(look.contentHash + "|" + $0.hash + suffix) }
            let missing = keys.indices.filter { !folder.cached(keys[$0]) }
            let slicesMissing = CubeDiagrams.sliceValues.contains {
                !FileManager.default.fileExists(atPath: folder.cubes + Self.sliceFile(cubeKey, $0))
            }
            return LookPlan(look: look, cubeKey: cubeKey, previewKeys: keys, missing: missing,
                            needsCube: !missing.isEmpty || manifest.curves[cubeKey] == nil || slicesMissing)
        }

        // Listed before any is written: a build that fails or is interrupted half-way leaves a cache naming every
        // file it may have made, so the next build removes those its gallery does not show, instead of never.
        let shown = Self.files(photos, plans)
        let listed = shown.union(manifest.files ?? [])
        manifest.files = listed.sorted()
        try Self.writeManifest(manifest, to: folder.cache)

        let scaled = try decode(photos, for: plans, in: folder, manifest: manifest, options: options)
        for (p, photo) in scaled { manifest.photos[photos[p].key] = [photo.pixels.width, photo.pixels.height] }
        let curves = try render(plans, on: scaled, in: folder, options: options, progress: progress)
        for (l, curve) in curves { manifest.curves[plans[l].cubeKey] = curve }

        try writePages(photos, plans, manifest: manifest, in: folder, options: options)
        let (removed, left) = Self.prune(folder, listed: listed, keeping: shown)
        manifest.files = shown.union(left).sorted()
        manifest.photos = manifest.photos.filter { key, _ in photos.contains { $0.key == key } }
        manifest.curves = manifest.curves.filter { key, _ in plans.contains { $0.cubeKey == key } }
        try Self.writeManifest(manifest, to: folder.cache)

        let rendered = plans.reduce(0) { $0 + $1.missing.count }
        return Report(looks: looks.count, photos: paths.count, previewsRendered: rendered,
                      previewsReused: looks.count * paths.count - rendered, photosDecoded: scaled.count,
                      cubesLoaded: curves.count, filesRemoved: removed,
                      seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9,
                      index: directory + "/index.html")
    }

    /// Makes the folder, refusing one that holds files but no cache: the builder replaces `index.html` and removes
    /// files it once wrote, so it only works in a folder it made (or an empty one).
    private static func makeFolder(_ directory: String) throws -> Folder {
        let folder = Folder(root: directory)
        try make(directory)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if !entries.isEmpty && !FileManager.default.fileExists(atPath: folder.cache) {
            throw RenderingError.gallery("\(directory) is not empty and was not made by a LookStudio gallery (it has "
                + "no \(cacheFile)); give an empty or new folder, so that no file of yours is replaced or removed")
        }
        for sub in ["previews", "cubes", "looks"] { try make(directory + "/" + sub) }
        return folder
    }

    /// `mkdir -p`, naming the folder and the system's reason when that fails.
    private static func make(_ path: String) throws {
        guard let error = Folders.make(path) else { return }
        switch InputFile.kind(of: path) {
        case .directory, .unknown:
            let reason = String(cString: strerror(error))
            throw RenderingError.gallery("\(path): cannot create the gallery folder (\(reason))")
        case let kind:
            throw RenderingError.gallery("\(path): cannot create the gallery folder (it is \(kind.noun))")
        }
    }

    /// Writes an empty cache into a new folder before anything else, so a build that stops half-way leaves a
    /// folder the next build recognises as its own.
    private static func claim(_ folder: Folder) throws {
        guard !FileManager.default.fileExists(atPath: folder.cache) else { return }
        try AtomicFile.write(try JSONEncoder().encode(Manifest()), to: folder.cache)
    }

    private static func writeManifest(_ manifest: Manifest, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try writeIfChanged(String(decoding: try encoder.encode(manifest), as: UTF8.self), to: path)
    }

    private static func contents(of path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RenderingError.unreadable(path: path, reason: error.localizedDescription)
        }
    }

    /// Decodes, once and in parallel, each photo some preview still needs; writes its before preview if missing.
    private func decode(_ photos: [Photo], for plans: [LookPlan], in folder: Folder, manifest: Manifest,
                        options: Options) throws -> [Int: ScaledPhoto] {
        let needed = photos.indices.filter { p in
            !folder.cached(photos[p].key) || manifest.photos[photos[p].key] == nil
                || plans.contains { $0.missing.contains(p) }
        }
        let decoded = WorkerResults<ScaledPhoto>()
        DispatchQueue.concurrentPerform(iterations: needed.count) { i in
            let photo = photos[needed[i]]
            do {
                let full = try ImageFormat.read(path: photo.path, maxPixels: options.maxPixels)
                let small = ScaledPhoto(pixels: try PreviewScaler.downscale(full.pixels, longSide: options.size),
                                        iccProfile: full.iccProfile)
                if !folder.cached(photo.key) {
                    try Self.writePreview(small.pixels, iccProfile: small.iccProfile, key: photo.key,
                                          into: folder.previews, options: options)
                }
                decoded.set(needed[i], small)
            } catch {
                decoded.fail(error)
            }
        }
        return try decoded.values()
    }

    /// Loads each look that lacks something, applies it to every photo missing its preview (one applier per look,
    /// looks in parallel), draws its slices; returns the curves of the cubes loaded, by look index.
    private func render(_ plans: [LookPlan], on scaled: [Int: ScaledPhoto], in folder: Folder, options: Options,
                        progress: (@Sendable (Int, Int, String) -> Void)?) throws -> [Int: GreyCurves] {
        let work = plans.indices.filter { plans[$0].needsCube }
        let results = WorkerResults<GreyCurves>()
        // Parallel over looks; a single look gets every core inside the applier instead.
        let innerThreads: Int? = work.count > 1 ? 1 : nil
        try Self.writeInputSlices(into: folder.cubes)
        DispatchQueue.concurrentPerform(iterations: work.count) { i in
            let plan = plans[work[i]]
            do {
                let cube: ColorCube
                do {
                    cube = try plan.look.loadCube()
                } catch {
                    throw RenderingError.gallery("cannot load the cube of look \(plan.look.info.name) "
                        + "(\(plan.look.info.id)): \(error)")
                }
                let applier = CubeApplier(cube: cube)
                for p in plan.missing {
                    guard let photo = scaled[p], case .eight(var samples) = photo.pixels.samples else { continue }
                    try samples.withUnsafeMutableBufferPointer {
                        try applier.apply(to: $0, channels: 3, threads: innerThreads)
                    }
                    let image = try PixelBuffer(width: photo.pixels.width, height: photo.pixels.height, channels: 3,
                                                samples: .eight(samples))
                    try Self.writePreview(image, iccProfile: photo.iccProfile, key: plan.previewKeys[p],
                                          into: folder.previews, options: options)
                }
                for value in CubeDiagrams.sliceValues {
                    let path = folder.cubes + Self.sliceFile(plan.cubeKey, value)
                    if !FileManager.default.fileExists(atPath: path) {
                        try ImageFormat.write(try CubeDiagrams.slice(value: value, cube: cube), to: path)
                    }
                }
                results.set(work[i], CubeDiagrams.greyCurves(cube))
                let done = results.increment()
                progress?(done, work.count, "\(plan.look.info.name): \(plan.missing.count) previews")
            } catch {
                results.fail(error)
            }
        }
        return try results.values()
    }

    /// Writes the index and one page per look.
    private func writePages(_ photos: [Photo], _ plans: [LookPlan], manifest: Manifest, in folder: Folder,
                            options: Options) throws {
        func ref(_ key: String, photo p: Int) throws -> PreviewRef {
            guard let size = manifest.photos[photos[p].key], size.count == 2 else {
                throw RenderingError.gallery("internal: no preview size for \(photos[p].path)")
            }
            return PreviewRef(key: key, file: Self.previewFile(key), script: Self.previewScript(key),
                              width: size[0], height: size[1])
        }
        let galleryPhotos = try photos.indices.map { p in
            GalleryPhoto(name: photos[p].name, before: try ref(photos[p].key, photo: p))
        }
        let galleryLooks = try plans.map { plan -> GalleryLook in
            guard let curves = manifest.curves[plan.cubeKey] else {
                throw RenderingError.gallery("internal: no curves for look \(plan.look.info.id)")
            }
            let slices = CubeDiagrams.sliceValues.map {
                CubeSlice(value: $0, beforeFile: Self.slicePath(nil, $0), afterFile: Self.slicePath(plan.cubeKey, $0))
            }
            return GalleryLook(info: plan.look.info,
                               previews: try photos.indices.map { try ref(plan.previewKeys[$0], photo: $0) },
                               curves: curves, slices: slices)
        }
        let document = GalleryDocument(title: options.title, photos: galleryPhotos, looks: galleryLooks,
                                       report: options.report, kind: options.kind)
        try Self.writeIfChanged(try GalleryPage.index(document), to: folder.root + "/index.html")
        for look in galleryLooks {
            try Self.writeIfChanged(GalleryPage.lookPage(look, photos: galleryPhotos, title: options.title),
                                    to: folder.root + "/" + look.pagePath)
        }
    }

    /// The files the gallery of `photos` and `plans` shows besides `index.html`, all of which the builder writes:
    /// previews and their scripts, slices and look pages, named as `writePages` names them.
    private static func files(_ photos: [Photo], _ plans: [LookPlan]) -> Set<String> {
        var files = Set(plans.map { GalleryLook.pagePath(of: $0.look.info) })
        for key in photos.map(\.key) + plans.flatMap(\.previewKeys) {
            files.formUnion([previewFile(key), previewScript(key)])
        }
        for value in CubeDiagrams.sliceValues {
            files.insert(slicePath(nil, value))
            for plan in plans { files.insert(slicePath(plan.cubeKey, value)) }
        }
        return files
    }

    /// Removes the files the cache lists that the gallery no longer shows, so the folder does not grow with every
    /// change; a file the cache does not list is never touched. Returns how many went, and those still there that
    /// could not be removed, for a later build to try again (a listed file that is not there is forgotten).
    private static func prune(_ folder: Folder, listed: Set<String>, keeping shown: Set<String>)
        -> (removed: Int, left: [String]) {
        var removed = 0, left: [String] = []
        // Only a name inside one of the builder's subfolders, whatever a hand-edited cache says.
        let subfolders: Set<Substring> = ["previews", "cubes", "looks"]
        for file in listed.subtracting(shown) {
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, subfolders.contains(parts[0]),
                  !["", ".", ".."].contains(parts[1]) else { continue }
            let path = folder.root + "/" + file
            if unlink(path) == 0 {
                removed += 1
            } else if errno != ENOENT {
                left.append(file)
            }
        }
        return (removed, left)
    }

    private static func previewFile(_ key: String) -> String { "previews/\(key).jpg" }
    private static func previewScript(_ key: String) -> String { "previews/\(key).js" }
    private static func slicePath(_ cubeKey: String?, _ value: Double) -> String { "cubes/" + sliceFile(cubeKey, value) }

    /// A 24-hex-digit cache key for `text`.
    private func key(_ text: String) -> String { String(hasher(Data(text.utf8)).prefix(24)) }

    static func sliceFile(_ cubeKey: String?, _ value: Double) -> String {
        let percent = Int((value * 100).rounded())
        return cubeKey.map { "\($0)-v\(percent).png" } ?? "slice-v\(percent).png"
    }

    private static func writeInputSlices(into cubes: String) throws {
        for value in CubeDiagrams.sliceValues {
            let path = cubes + sliceFile(nil, value)
            if !FileManager.default.fileExists(atPath: path) {
                try ImageFormat.write(try CubeDiagrams.slice(value: value, cube: nil), to: path)
            }
        }
    }

    /// Writes the JPEG, then the script carrying the same bytes; a preview counts as cached only when both exist.
    ///
    /// The photo's ICC profile goes with both its before and after previews, so a browser shows them (and hands the
    /// canvas their pixels) in the photo's own colours, the same conversion on both sides of the blend.
    private static func writePreview(_ image: PixelBuffer, iccProfile: [UInt8]?, key: String, into folder: String,
                                     options: Options) throws {
        let jpeg = folder + key + ".jpg"
        try ImageFormat.write(image, to: jpeg, jpegQuality: options.jpegQuality, iccProfile: iccProfile)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        try AtomicFile.write(Data(try GalleryPage.previewScript(key: key, jpeg: bytes).utf8), to: folder + key + ".js")
    }

    private static func writeIfChanged(_ text: String, to path: String) throws {
        let data = Data(text.utf8)
        if let old = FileManager.default.contents(atPath: path), old == data { return }
        try AtomicFile.write(data, to: path)
    }
}
