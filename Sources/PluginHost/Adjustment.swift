import LookCore
import PluginABI

/// Where an adjustment's `apply` runs.
enum AdjustmentBackend: Sendable {
    /// The plugin is loaded in this process.
    case local(ApplyFunction)
    /// The plugin is loaded in a plugin-host child; `index` is the adjustment's place in the child's registry.
    case remote(PluginHostPool, index: Int)
}

/// A plugin's `apply` function pointer.
///
/// `@unchecked Sendable` because the pointer is into a library the registry never unloads, and the ABI requires the
/// function to be reentrant (callable from several threads at once on different buffers).
struct ApplyFunction: @unchecked Sendable {
    let pointer: lookstudio_apply_fn
}

/// One adjustment offered by a loaded plugin: its description, parameters, and the C function that applies it.
public struct Adjustment: Sendable, Equatable, Encodable {
    /// Unique id, `domain.name` (`tone.contrast`).
    public let id: String
    /// Name for people.
    public let displayName: String
    /// Group for listings (`Tone`, `Color`, …).
    public let category: String
    /// What it does, its formula and working space, as the plugin describes it.
    public let description: String
    /// The parameters, in the order `apply` expects their values.
    public let parameters: [ParameterDescriptor]
    /// Absolute path of the plugin file.
    public let pluginPath: String
    /// The plugin's name.
    public let pluginName: String
    /// The plugin's version string.
    public let pluginVersion: String
    /// Where `apply` runs: the C function in this process, or a plugin-host child process.
    let backend: AdjustmentBackend

    /// Parameter values for `apply`: `given` by name, defaults for the rest; unknown names and bad values throw.
    public func resolveParameters(_ given: [String: Double]) throws(PluginHostError) -> [Float] {
        for name in given.keys.sorted() where !parameters.contains(where: { $0.name == name }) {
            throw .unknownParameter(adjustment: id, name: name, known: parameters.map(\.name))
        }
        var values: [Float] = []
        values.reserveCapacity(parameters.count)
        for parameter in parameters {
            guard let value = given[parameter.name] else {
                values.append(parameter.defaultValue)
                continue
            }
            guard value.isFinite else { throw .parameterNotFinite(adjustment: id, name: parameter.name) }
            // Compare in Float, the type the plugin declared its range in, so that 0.1 passes a max of 0.1f.
            let single = Float(value)
            guard parameter.range.contains(single) else {
                throw .parameterOutOfRange(
                    adjustment: id, name: parameter.name, value: value, min: parameter.min, max: parameter.max)
            }
            if parameter.kind == .bool && single != 0 && single != 1 {
                throw .parameterNotBoolean(adjustment: id, name: parameter.name, value: value)
            }
            values.append(single)
        }
        return values
    }

    /// The parameter values at which the adjustment returns its input.
    public var identityParameters: [Float] { parameters.map(\.identityValue) }

    /// The parameter values used when a recipe gives none.
    public var defaultParameters: [Float] { parameters.map(\.defaultValue) }

    /// Applies the adjustment to interleaved RGB floats: one call of the plugin's function for the whole buffer, in
    /// this process or in the plugin host (see ``PluginIsolation``).
    ///
    /// `output` may be the same memory as `input`. `parameters` must come from ``resolveParameters(_:)``,
    /// ``identityParameters`` or ``defaultParameters``: the plugin trusts them to be in range. `step` (1-based recipe
    /// step) only names the step in errors. A crash, exit or hang of the plugin host, and any output that is not a
    /// finite number within ±``PluginOutputCheck/limit``, throw ``PluginHostError/pluginFailed(_:)``.
    public func apply(
        _ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>, parameters: [Float],
        step: Int? = nil
    ) throws(PluginHostError) {
        precondition(input.count % 3 == 0, "\(id): input holds \(input.count) floats, not whole RGB pixels")
        precondition(output.count >= input.count, "\(id): output is smaller than input")
        precondition(parameters.count == self.parameters.count,
                     "\(id): expected \(self.parameters.count) parameter values, got \(parameters.count)")
        guard !input.isEmpty else { return }
        let result = UnsafeMutableBufferPointer(rebasing: output[..<input.count])
        switch backend {
        case .local:
            applyLocally(input, result, parameters: parameters)
        case .remote(let host, let index):
            if let problem = host.evaluate(index: index, parameters: parameters, input: input, output: result) {
                throw .pluginFailed(PluginFailure(path: pluginPath, adjustmentID: id, step: step, problem: problem))
            }
        }
        if let problem = PluginOutputCheck.problem(in: UnsafeBufferPointer(result)) {
            throw .pluginFailed(PluginFailure(path: pluginPath, adjustmentID: id, step: step, problem: problem))
        }
    }

    /// Calls the C function in this process; the plugin-host child and in-process registries use it.
    func applyLocally(
        _ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>, parameters: [Float]
    ) {
        guard case .local(let function) = backend, let source = input.baseAddress,
              let destination = output.baseAddress
        else { return }
        parameters.withUnsafeBufferPointer { values in
            function.pointer(source, destination, input.count / 3, values.baseAddress)
        }
    }

    /// The adjustment baked into a cube: the identity grid of `size` run through `apply` in one call.
    public func bakedCube(size: Int, parameters: [Float]) throws -> ColorCube {
        var values = try ColorCube.identity(size: size).values
        try values.withUnsafeMutableBufferPointer { (buffer) throws(PluginHostError) in
            try apply(UnsafeBufferPointer(buffer), buffer, parameters: parameters)
        }
        return try ColorCube(size: size, values: values)
    }

    /// Two adjustments are equal when they describe the same thing from the same file; the function pointer
    /// follows from the file, and C function pointers are not comparable in Swift.
    public static func == (lhs: Adjustment, rhs: Adjustment) -> Bool {
        lhs.id == rhs.id && lhs.displayName == rhs.displayName && lhs.category == rhs.category
            && lhs.description == rhs.description && lhs.parameters == rhs.parameters
            && lhs.pluginPath == rhs.pluginPath && lhs.pluginName == rhs.pluginName
            && lhs.pluginVersion == rhs.pluginVersion
    }

    // The JSON keys are part of the documented `--json` contract (docs/PLUGINS.md).
    enum CodingKeys: String, CodingKey {
        case id, category, description, parameters
        case displayName = "display_name"
        case pluginPath = "plugin_path"
        case pluginName = "plugin_name"
        case pluginVersion = "plugin_version"
    }
}
