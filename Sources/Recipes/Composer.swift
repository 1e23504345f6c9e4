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
        case adjustment(Adjustment, parameters: [Float])
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
    /// Prepared once, so every evaluation of the step samples without rebuilding the table.
    let sampler: BatchSampler?

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
    private let resolveLook: @Sendable (String) throws -> ResolvedLook

    /// A composer over `registry`'s adjustments that finds looks (by name or GUID) through `resolveLook`.
    public init(registry: PluginRegistry, resolveLook: @escaping @Sendable (String) throws -> ResolvedLook) {
        self.registry = registry
        self.resolveLook = resolveLook
    }

    /// The output size for `recipe`: `size` if given, else the recipe's, else ``defaultSize``.
    public static func outputSize(_ recipe: Recipe, size: Int? = nil) throws(RecipeError) -> Int {
        let n = size ?? recipe.size ?? defaultSize
        guard ColorCube.sizeRange.contains(n) else { throw .invalidSize(n) }
        return n
    }

    /// Looks up every step: adjustment ids and parameters, looks, LUT files. Errors name the step and its line.
    public func resolve(_ recipe: Recipe) throws(RecipeError) -> [ResolvedStep] {
        var resolved: [ResolvedStep] = []
        for (offset, step) in recipe.steps.enumerated() {
            resolved.append(try resolve(step, index: offset + 1, in: recipe))
        }
        return resolved
    }

    private func resolve(_ step: RecipeStep, index: Int, in recipe: Recipe) throws(RecipeError) -> ResolvedStep {
        func failure(_ message: String, line: Int? = nil) -> RecipeError {
            .step(file: recipe.fileName, line: line ?? step.line, index: index, id: step.id, message: message)
        }
        guard step.strength.isFinite, (0...step.maxStrength).contains(step.strength) else {
            throw failure("strength \(TextNumber.format(step.strength)) is out of range: use 0…\(Int(step.maxStrength))")
        }
        let factor = Float(step.strength / 100)
        switch step.operation {
        case .adjust(let id, let params):
            let adjustment: Adjustment
            let values: [Float]
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
                                isNoOp: noOp, factor: factor, sampler: nil)
        case .look(let reference):
            let look: ResolvedLook
            do {
                look = try resolveLook(reference)
            } catch {
                throw failure("\(error)")
            }
            return cubeStep(step, index: index, action: .look(look), cube: look.cube, factor: factor)
        case .lut(let file):
            let path = recipe.resolvedPath(file)
            do {
                let loaded = try LUTFormat.read(path: path)
                let cube = try loaded.lut.bakedCube()
                return cubeStep(step, index: index, action: .lut(path: path, dialect: loaded.dialect, cube: cube),
                                cube: cube, factor: factor)
            } catch {
                throw failure("\(error)")
            }
        }
    }

    private func cubeStep(_ step: RecipeStep, index: Int, action: ResolvedStep.Action, cube: ColorCube,
                          factor: Float) -> ResolvedStep {
        let noOp = factor == 0 || Self.isIdentity(cube)
        return ResolvedStep(step: step, index: index, action: action, isNoOp: noOp, factor: factor,
                            sampler: noOp ? nil : BatchSampler(cube))
    }

    private static func parameterName(of error: PluginHostError) -> String? {
        switch error {
        case .unknownParameter(_, let name, _), .parameterOutOfRange(_, let name, _, _, _),
             .parameterNotBoolean(_, let name, _), .parameterNotFinite(_, let name):
            return name
        case .unknownAdjustment, .pluginFailed, .invalidTimeout:
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
    public func compose(_ recipe: Recipe, size: Int? = nil) throws -> ColorCube {
        try Self.compose(try resolve(recipe), size: try Self.outputSize(recipe, size: size))
    }

    /// Composes already resolved steps on a grid of `size`; lets `explain` resolve once and compose at many sizes.
    public static func compose(_ steps: [ResolvedStep], size n: Int) throws -> ColorCube {
        let active = steps.filter { !$0.isNoOp }
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
    public static func run(_ steps: [ResolvedStep], on rgb: UnsafeMutableBufferPointer<Float>) throws {
        guard !steps.isEmpty, !rgb.isEmpty else { return }
        var scratch = [Float](repeating: 0, count: rgb.count)
        try scratch.withUnsafeMutableBufferPointer { out in
            for step in steps {
                let s = step.factor
                switch step.action {
                case .adjustment(let adjustment, let parameters):
                    if s == 1 {
                        try adjustment.apply(UnsafeBufferPointer(rgb), rgb, parameters: parameters, step: step.index)
                        continue
                    }
                    try adjustment.apply(UnsafeBufferPointer(rgb), out, parameters: parameters, step: step.index)
                case .look, .lut:
                    guard let sampler = step.sampler else { continue }
                    sampler.apply(rgb, into: out)
                }
                Strength.blend(rgb, toward: out, strength: s)
            }
        }
    }
}
