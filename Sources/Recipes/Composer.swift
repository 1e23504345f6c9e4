import Foundation
import LookCore
import LookFormats
import PluginHost

/// A catalog look as the composer sees it: its identity and its cube. The catalog (or a test) provides these.
public struct ResolvedLook: Sendable, Equatable {
    /// Uppercase UUID.
    public var guid: String
    /// Unique name.
    public var name: String
    /// The look's cube.
    public var cube: ColorCube

    /// A look from its parts.
    public init(guid: String, name: String, cube: ColorCube) {
        self.guid = guid
        self.name = name
        self.cube = cube
    }
}

/// A recipe step made concrete: the plugin function with its parameter values, or the cube of a look or LUT file.
public struct ResolvedStep: Sendable {
    /// What the step became.
    public enum Action: Sendable {
        /// A plugin adjustment with its parameter values in the order `apply` takes them.
        case adjustment(Adjustment, parameters: [ParameterValue])
        /// A catalog look's cube.
        case look(ResolvedLook)
        /// A LUT file turned into a plain cube, and the format it was read as.
        case lut(path: String, dialect: String, cube: ColorCube)
    }

    /// The step as written.
    public let step: RecipeStep
    /// 1-based position in the recipe.
    public let index: Int
    /// What it resolved to.
    public let action: Action
    /// True when the step cannot change anything (strength 0, identity parameters, an identity cube), so it is left out.
    public let isNoOp: Bool
    /// Strength as a factor, 0…2.
    let factor: Float
    /// For look and LUT steps: what the cube was loaded from (file identity or look reference), so steps naming the
    /// same file share one cube and one sampler table.
    let cubeKey: String?

    /// The cube of a look or LUT step.
    public var cube: ColorCube? {
        switch action {
        case .adjustment: return nil
        case .look(let look): return look.cube
        case .lut(_, _, let cube): return cube
        }
    }
}

/// Merges a recipe's chain of adjustments, looks and LUT files into one cube.
///
/// Every step is evaluated in Float on the output grid, each blended against its own input by its strength
/// (`x + s·(step(x) − x)`), looks sampled tetrahedrally; a plugin's `apply` runs once per step over all N³ entries.
/// The composer knows nothing of the catalog: looks come from the `resolveLook` closure.
public struct Composer: Sendable {
    /// Output size when neither the caller nor the recipe gives one.
    public static let defaultSize = 64
    /// The sizes `explain` measures besides the chosen one.
    public static let canonicalSizes = [4, 16, 33, 64]

    /// Where adjustments come from.
    public let registry: PluginRegistry
    /// What a compose may cost (work and held cubes), checked before the work.
    public var budget: ComposeBudget
    private let resolveLook: @Sendable (String) throws -> ResolvedLook

    /// A composer over `registry`'s adjustments that finds looks (by name or GUID) through `resolveLook`.
    public init(registry: PluginRegistry, budget: ComposeBudget = .standard,
                resolveLook: @escaping @Sendable (String) throws -> ResolvedLook) {
        self.registry = registry
        self.budget = budget
        self.resolveLook = resolveLook
    }

    /// The cubes loaded while resolving one recipe, by file identity or look reference, and the entries they hold.
    private struct LoadedCubes {
        var luts: [String: (dialect: String, cube: ColorCube)] = [:]
        var looks: [String: ResolvedLook] = [:]
        var heldEntries = 0
    }

    /// The output size for `recipe`: `size` if given, else the recipe's, else ``defaultSize``.
    public static func outputSize(_ recipe: Recipe, size: Int? = nil) throws(RecipeError) -> Int {
        let n = size ?? recipe.size ?? defaultSize
        guard ColorCube.sizeRange.contains(n) else { throw .invalidSize(n) }
        return n
    }

    /// Looks up every step: adjustment ids and parameters, looks, LUT files. Errors name the step and its line.
    ///
    /// A LUT file or look named by several steps is loaded once; the distinct cubes held are kept within
    /// ``budget``.
    public func resolve(_ recipe: Recipe) throws(RecipeError) -> [ResolvedStep] {
        var resolved: [ResolvedStep] = []
        var loaded = LoadedCubes()
        for (offset, step) in recipe.steps.enumerated() {
            resolved.append(try resolve(step, index: offset + 1, in: recipe, loaded: &loaded))
        }
        return resolved
    }

    private func resolve(_ step: RecipeStep, index: Int, in recipe: Recipe,
                         loaded: inout LoadedCubes) throws(RecipeError) -> ResolvedStep {
        func failure(_ message: String, line: Int? = nil) -> RecipeError {
            .step(file: recipe.fileName, line: line ?? step.line, index: index, id: step.id, message: message)
        }
        guard step.strength.isFinite, (0...step.maxStrength).contains(step.strength) else {
            throw failure(TextNumber.outOfRange("strength", step.strength, 0...step.maxStrength))
        }
        let factor = Float(step.strength / 100)
        switch step.operation {
        case .adjust(let id, let params):
            let adjustment: Adjustment
            let values: [ParameterValue]
            do {
                adjustment = try registry.requireAdjustment(id: id)
            } catch {
                throw failure(error.description)
            }
            do {
                values = try adjustment.resolveParameters(params)
            } catch {
                throw failure(error.description, line: Self.parameterName(of: error).flatMap { step.parameterLines[$0] })
            }
            let noOp = factor == 0 || values == adjustment.identityParameters
            return ResolvedStep(step: step, index: index, action: .adjustment(adjustment, parameters: values),
                                isNoOp: noOp, factor: factor, cubeKey: nil)
        case .look(let reference):
            let key = "look:" + reference
            if let look = loaded.looks[key] {
                return cubeStep(step, index: index, action: .look(look), cube: look.cube, factor: factor, key: key)
            }
            let look: ResolvedLook
            do {
                look = try resolveLook(reference)
            } catch {
                throw failure("\(error)")
            }
            loaded.heldEntries += look.cube.entryCount
            try budget.checkHeld(loaded.heldEntries, adding: "look \(reference) at step \(index)", size: look.cube.size,
                                 recipe: recipe.fileName)
            loaded.looks[key] = look
            return cubeStep(step, index: index, action: .look(look), cube: look.cube, factor: factor, key: key)
        case .lut(let file):
            let path = recipe.resolvedPath(file)
            let key = "file:" + (ComposeBudget.fileIdentity(path) ?? path)
            if let (dialect, cube) = loaded.luts[key] {
                return cubeStep(step, index: index, action: .lut(path: path, dialect: dialect, cube: cube),
                                cube: cube, factor: factor, key: key)
            }
            let dialect: String
            let cube: ColorCube
            do {
                let file = try LUTFormat.readCube(path: path)
                dialect = file.file.dialect
                cube = file.cube
            } catch {
                throw failure("\(error)")
            }
            loaded.heldEntries += cube.entryCount
            try budget.checkHeld(loaded.heldEntries, adding: "\(file) at step \(index)", size: cube.size,
                                 recipe: recipe.fileName)
            loaded.luts[key] = (dialect, cube)
            return cubeStep(step, index: index, action: .lut(path: path, dialect: dialect, cube: cube),
                            cube: cube, factor: factor, key: key)
        }
    }

    private func cubeStep(_ step: RecipeStep, index: Int, action: ResolvedStep.Action, cube: ColorCube,
                          factor: Float, key: String) -> ResolvedStep {
        let noOp = factor == 0 || Self.isIdentity(cube)
        return ResolvedStep(step: step, index: index, action: action, isNoOp: noOp, factor: factor, cubeKey: key)
    }

    private static func parameterName(of error: PluginHostError) -> String? {
        switch error {
        case .unknownParameter(_, let name, _), .parameterOutOfRange(_, let name, _, _, _),
             .parameterNotBoolean(_, let name, _), .parameterNotFinite(_, let name),
             .invalidParameter(_, let name, _), .unknownChoice(_, let name, _, _):
            return name
        case .unknownAdjustment, .pluginFailed, .invalidTimeout, .invalidMemory:
            return nil
        }
    }

    /// True when every entry is exactly its grid colour, so applying the cube changes nothing and can be skipped.
    static func isIdentity(_ cube: ColorCube) -> Bool {
        let n = cube.size
        let last = Float(n - 1)
        return cube.values.withUnsafeBufferPointer { v -> Bool in
            var i = 0
            for b in 0..<n {
                for g in 0..<n {
                    for r in 0..<n {
                        if v[i] != Float(r) / last || v[i + 1] != Float(g) / last || v[i + 2] != Float(b) / last {
                            return false
                        }
                        i += 3
                    }
                }
            }
            return true
        }
    }

    /// The whole chain as one cube of `size` (default: the recipe's, else 64).
    ///
    /// A recipe that is a single look at strength s returns `I + s·(L − I)` on the look's own entries (exact) when
    /// the output size is the look's size.
    ///
    /// Refused before anything is loaded when the recipe's steps × size³ exceed ``budget``.
    public func compose(_ recipe: Recipe, size: Int? = nil) throws -> ColorCube {
        try lattice(recipe, size: size).materialized()
    }

    /// The whole chain as ``compose(_:size:)`` makes it, except that a chain of which no step changes anything (no
    /// steps, strength 0, identity parameters or cubes) is the identity of that size, computed only as it is read.
    public func lattice(_ recipe: Recipe, size: Int? = nil) throws -> CubeLattice {
        let n = try Self.outputSize(recipe, size: size)
        try budget.checkWork(steps: recipe.steps.count, size: n, recipe: recipe.fileName)
        let steps = try resolve(recipe)
        if steps.allSatisfy(\.isNoOp) { return .identity(IdentityValues(size: n, quantizedTo16Bit: false)) }
        return .cube(try Self.compose(steps, size: n, budget: budget))
    }

    /// Composes already resolved steps on a grid of `size`; lets `explain` resolve once and compose at many sizes.
    public static func compose(_ steps: [ResolvedStep], size n: Int, budget: ComposeBudget = .standard,
                               recipe: String = "recipe") throws -> ColorCube {
        let active = steps.filter { !$0.isNoOp }
        try budget.checkWork(steps: active.count, size: n, recipe: recipe)
        if active.count == 1, let only = active.first, let cube = only.cube, cube.size == n {
            return try cube.scaled(strength: only.factor)
        }
        var values = try ColorCube.identity(size: n).values
        try values.withUnsafeMutableBufferPointer { try run(active, on: $0) }
        return try ColorCube(size: n, values: values)
    }

    /// The chain evaluated step by step in Float at each colour: the reference a composed cube approximates.
    public func evaluateExactly(_ recipe: Recipe, colors: inout [SIMD3<Float>]) throws {
        try Self.evaluate(try resolve(recipe), colors: &colors)
    }

    /// Evaluates already resolved steps at each colour.
    public static func evaluate(_ steps: [ResolvedStep], colors: inout [SIMD3<Float>]) throws {
        var flat = [Float](repeating: 0, count: 3 * colors.count)
        for (i, c) in colors.enumerated() {
            flat[3 * i] = c.x
            flat[3 * i + 1] = c.y
            flat[3 * i + 2] = c.z
        }
        try flat.withUnsafeMutableBufferPointer { try run(steps.filter { !$0.isNoOp }, on: $0) }
        for i in colors.indices {
            colors[i] = SIMD3(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2])
        }
    }

    /// Runs `steps` over interleaved RGB floats in place, one whole-buffer pass per step (no-op steps included).
    /// A plugin that fails throws an error naming its file, adjustment and step.
    ///
    /// A look or LUT step's sampler table (16 bytes an entry) is built when first needed and dropped after the last
    /// step using that cube, so at most the tables of cubes still ahead are alive, never one per step.
    public static func run(_ steps: [ResolvedStep], on rgb: UnsafeMutableBufferPointer<Float>) throws {
        guard !steps.isEmpty, !rgb.isEmpty else { return }
        var lastUse: [String: Int] = [:]
        for (position, step) in steps.enumerated() where !step.isNoOp {
            if let key = step.cubeKey { lastUse[key] = position }
        }
        var samplers: [String: BatchSampler] = [:]
        var scratch = [Float](repeating: 0, count: rgb.count)
        try scratch.withUnsafeMutableBufferPointer { out in
            for (position, step) in steps.enumerated() {
                let s = step.factor
                switch step.action {
                case .adjustment(let adjustment, let parameters):
                    if s == 1 {
                        try adjustment.apply(UnsafeBufferPointer(rgb), rgb, parameters: parameters, step: step.index)
                        continue
                    }
                    try adjustment.apply(UnsafeBufferPointer(rgb), out, parameters: parameters, step: step.index)
                case .look, .lut:
                    guard !step.isNoOp, let key = step.cubeKey, let cube = step.cube else { continue }
                    let sampler = samplers[key] ?? BatchSampler(cube)
                    if lastUse[key] == position {
                        samplers[key] = nil
                    } else {
                        samplers[key] = sampler
                    }
                    sampler.apply(rgb, into: out)
                }
                Strength.blend(rgb, toward: out, strength: s)
            }
        }
    }
}
