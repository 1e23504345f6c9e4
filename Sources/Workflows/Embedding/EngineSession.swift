import ColorManagement
import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookModel
import Rendering
import Scenes

/// The engine as a library (LookStudioKit, the C API): one catalog opened once; detect, apply and correct on pixels
/// in memory through the use cases the command line runs on files (`DetectJob`, `CorrectPlan`, the image pipeline's
/// colour management and applier), so the same decoded pixels give the same bytes. Every method may be called from
/// any thread at once; the two caches are the only shared mutable state, each behind its lock.
public final class EngineSession: Sendable {
    /// Where the catalog and plugins are.
    public let workspace: Workspace
    /// The catalog, read-only: looks are listed and resolved here.
    let catalog: Catalog
    /// Each look choice resolved once: its cubes and the scenes' presets (guarded by its lock).
    private let lookPlans = Locked<[LookChoice: LookPlan]>([:])
    /// Prepared cubes by request, image colour and analysis (guarded by its lock).
    private let prepared = Locked(PreparedCache(capacity: EngineSession.preparedCapacity))
    /// Recipe files composed once, by path (guarded by its lock).
    private let recipes = Locked<[String: ColorCube]>([:])

    /// Prepared cubes kept: a 33³ cube and its applier take 1.6 MB, a 65³ one 12 MB.
    public static let preparedCapacity = 16

    /// Opens the catalog at `catalog` (nil: `$LOOKSTUDIO_CATALOG` or the XDG default) read-only, creating and
    /// seeding it first when it does not exist. Plugins run in this process (a library cannot start itself as a
    /// plugin host).
    public init(catalog: String?, pluginDirs: [String] = [],
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        workspace = Workspace(catalog: catalog, pluginDirs: pluginDirs, pluginIsolation: .inProcess,
                              environment: environment, note: { _ in })
        self.catalog = try workspace.openCatalogForReading()
    }

    /// The catalog's looks by name, those with `tag` only when given.
    public func looks(tag: String? = nil) throws -> [LookRecord] { try catalog.looks(tag: tag) }

    /// The look `reference` names: GUID, GUID prefix, name or `name@N`.
    public func look(_ reference: String) throws -> LookRecord { try catalog.resolveLook(reference) }

    /// Throws when the engine cannot use the ICC profile `color` carries: a damaged one, as `apply` refuses it, and
    /// also one that is not RGB, which a file's decoder may have attached by mistake but a caller names on purpose.
    public static func check(_ color: ColorDescription) throws {
        _ = try ImageColor.profile(for: color, file: "image")
        if let space = color.iccProfile?.colorSpace, space != "RGB " {
            throw EngineError.notRGBProfile(space: space)
        }
    }

    /// Analyses pixels in memory described by `color`.
    public func detect(rows: PixelRows, color: ColorDescription) throws -> EngineAnalysis {
        EngineAnalysis(try DetectJob.run(rows: rows, color: color))
    }

    /// Analyses an image file as `detect` and `correct` do.
    public func detect(file: String) throws -> EngineAnalysis {
        EngineAnalysis(try DetectJob(image: file).run())
    }

    /// Renders `input` (described by `color`) into `output` with `request`: the look alone without an analysis (as
    /// `apply --look`), the correction with one (as `correct`); `threads` cores (nil: all).
    public func render(_ request: RenderRequest, input: PixelRows, color: ColorDescription, analysis: EngineAnalysis?,
                       output: PixelRows, threads: Int? = nil) throws {
        let prepared = try prepare(request, color: color, analysis: analysis)
        try ImagePipeline.apply(prepared, from: input, to: output, threads: threads)
    }

    /// The cube `render` applies for an image described by `color`, resampled to `size` points per axis.
    public func cube(_ request: RenderRequest, color: ColorDescription, analysis: EngineAnalysis?,
                     size: Int) throws -> ColorCube {
        guard ColorCube.sizeRange.contains(size) else { throw LookCoreError.invalidSize(size) }
        let cube = try prepare(request, color: color, analysis: analysis).applier.cube
        return cube.size == size ? cube : try cube.resampled(to: size)
    }

    /// The applier for `request` on an image described by `color`, from the cache or made as the file jobs make it:
    /// the plan's cube at the overall strength, colour-managed by `ImagePipeline.prepare`.
    func prepare(_ request: RenderRequest, color: ColorDescription,
                 analysis: EngineAnalysis?) throws -> ImagePipeline.Prepared {
        let key = PreparedKey(request: request, icc: color.iccProfile?.data, analysis: analysis?.id)
        if let hit = prepared.withLock({ $0[key] }) { return hit }
        let plan = try self.plan(request, analysis: analysis?.detected.analysis)
        let settings = plan.color(request.colorSettings)
        let look = ColorManagedLook(look: try plan.cube(strength: request.strength),
                                    workingSpace: settings.workingSpace, interpolation: request.interpolation)
        let made = try ImagePipeline.prepare(look, color: color, file: "image", settings: settings)
        prepared.withLock { $0.insert(made, for: key) }
        return made
    }

    /// `correct`'s plan for the analysed image; without an analysis the automatic correction is off and there is no
    /// scene, so only an explicit look applies (`apply --look`).
    func plan(_ request: RenderRequest, analysis: SceneAnalysis?) throws -> CorrectPlan {
        if analysis == nil, request.auto.enabled == true { throw EngineError.autoNeedsAnalysis }
        let looks = try lookPlan(request.look)
        return try CorrectPlan(analysis: analysis, scene: nil, looks: looks,
                               params: request.trims.overrides(strength: 100, preLook: try preLook(request.recipe)),
                               auto: analysis == nil ? AutoChoice(enabled: false) : request.auto)
    }

    /// The recipe at `path` composed as `correct --recipe` composes it (`Workspace.compose(recipeFile:)`: the
    /// plugins found as the command line finds them, the catalog's precision), once per engine.
    func preLook(_ path: String?) throws -> ColorCube? {
        guard let path else { return nil }
        if let known = recipes.withLock({ $0[path] }) { return known }
        let made = try workspace.compose(recipeFile: path)
        recipes.withLock { $0[path] = made }
        return made
    }

    /// The look plan of `choice`, resolved once per engine: a look changed in the catalog later is seen by a new
    /// engine (a long-lived app reopens it), never half-way through a batch.
    func lookPlan(_ choice: LookChoice) throws -> LookPlan {
        if let known = lookPlans.withLock({ $0[choice] }) { return known }
        let made = try workspace.lookPlan(choice, scene: nil)
        lookPlans.withLock { $0[choice] = made }
        return made
    }
}

/// What the embedding engine refuses that the command line cannot be asked.
public enum EngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Automatic correction switched on without an analysis to plan it from.
    case autoNeedsAnalysis
    /// An image's ICC profile describes another colour space than RGB (its header's four-letter code).
    case notRGBProfile(space: String)

    public var description: String {
        switch self {
        case .autoNeedsAnalysis:
            return "automatic correction is on but no analysis was given: detect the image first, or set it off"
        case .notRGBProfile(let space):
            return "the image's ICC profile describes \(MessageText.quote(space.trimmingCharacters(in: .whitespaces))) "
                + "pixels, not RGB: give the RGB profile the pixels are encoded in, or none for sRGB"
        }
    }
}

/// What a prepared cube depends on: the request, the image's ICC profile and the analysis.
struct PreparedKey: Hashable {
    var request: RenderRequest
    var icc: [UInt8]?
    var analysis: UUID?
}

/// The most recently used prepared cubes, at most `capacity`.
struct PreparedCache {
    let capacity: Int
    private var entries: [PreparedKey: ImagePipeline.Prepared] = [:]
    private var order: [PreparedKey] = []

    init(capacity: Int) { self.capacity = capacity }

    /// The entry for `key`, which becomes the most recently used.
    subscript(key: PreparedKey) -> ImagePipeline.Prepared? {
        mutating get {
            guard let hit = entries[key] else { return nil }
            if order.last != key, let i = order.firstIndex(of: key) { order.append(order.remove(at: i)) }
            return hit
        }
    }

    /// Keeps `prepared` for `key`, dropping the least recently used entry beyond `capacity`.
    mutating func insert(_ prepared: ImagePipeline.Prepared, for key: PreparedKey) {
        if entries.updateValue(prepared, forKey: key) == nil { order.append(key) }
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }
}
