import LookCore
import PluginABI

/// Where an adjustment's `apply` runs.
enum AdjustmentBackend: Sendable {
    /// The plugin is loaded in this process.
    case local(ApplyFunction)
    /// The plugin is loaded in a plugin-host child; `index` is the adjustment's place in the child's registry.
    case remote(PluginHostPool, index: Int)
}

/// A plugin's `apply` function pointer, of the ABI version the plugin was built for.
///
/// `@unchecked Sendable` because the pointer is into a library the registry never unloads, and the ABI requires the
/// function to be reentrant (callable from several threads at once on different buffers).
enum ApplyFunction: @unchecked Sendable {
    /// Takes one `lookstudio_value` per parameter.
    case version2(lookstudio_apply_fn)
    /// Takes one float per parameter (every version 1 parameter is a number).
    case version1(lookstudio_apply_fn_v1)
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

    /// Parameter values for `apply`: `given` by name, defaults for the rest, each checked against its descriptor
    /// (ranges, point counts, x strictly increasing, option names); unknown names and bad values throw.
    public func resolveParameters(_ given: [String: ParameterSetting]) throws(PluginHostError) -> [ParameterValue] {
        for name in given.keys.sorted() where !parameters.contains(where: { $0.name == name }) {
            throw .unknownParameter(adjustment: id, name: name, known: parameters.map(\.name))
        }
        var values: [ParameterValue] = []
        values.reserveCapacity(parameters.count)
        for parameter in parameters {
            guard let setting = given[parameter.name] else {
                values.append(parameter.defaultValue)
                continue
            }
            if parameter.kind.isNumber, case .number(let value) = setting {
                values.append(try number(value, for: parameter))
                continue
            }
            switch parameter.value(for: setting) {
            case .success(let value):
                values.append(value)
            case .failure(.unknownChoice(let name, let options)):
                throw .unknownChoice(adjustment: id, name: parameter.name, given: name, options: options)
            case .failure(.invalid(let problem)):
                throw .invalidParameter(adjustment: id, name: parameter.name, problem: problem)
            }
        }
        return values
    }

    private func number(_ value: Double, for parameter: ParameterDescriptor) throws(PluginHostError) -> ParameterValue {
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
        return .number(single)
    }

    /// The parameter values at which the adjustment returns its input.
    public var identityParameters: [ParameterValue] { parameters.map(\.identityValue) }

    /// The parameter values used when a recipe gives none.
    public var defaultParameters: [ParameterValue] { parameters.map(\.defaultValue) }

    /// `values` (one per parameter, as ``resolveParameters(_:)`` returns them) as a recipe writes them, by name.
    public func settings(for values: [ParameterValue]) -> [String: ParameterSetting] {
        Dictionary(uniqueKeysWithValues: zip(parameters, values).map { ($0.name, $0.setting(for: $1)) })
    }

    /// Applies the adjustment to interleaved RGB floats: one call of the plugin's function for the whole buffer, in
    /// this process or in the plugin host (see ``PluginIsolation``).
    ///
    /// `output` may be the same memory as `input`. `parameters` hold one value per parameter, as
    /// ``resolveParameters(_:)``, ``identityParameters`` and ``defaultParameters`` give them; the plugin trusts them
    /// (a curve's length sizes its arrays), so a value that breaks its descriptor's rules throws
    /// ``PluginHostError/invalidParameter(adjustment:name:problem:)`` before the plugin runs. `step` (1-based recipe
    /// step) only names the step in errors. A crash, exit or hang of the plugin host, and any output that is not a
    /// finite number within ±``PluginOutputCheck/limit``, throw ``PluginHostError/pluginFailed(_:)``.
    public func apply(
        _ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>, parameters: [ParameterValue],
        step: Int? = nil
    ) throws(PluginHostError) {
        precondition(input.count % 3 == 0, "\(id): input holds \(input.count) floats, not whole RGB pixels")
        precondition(output.count >= input.count, "\(id): output is smaller than input")
        precondition(parameters.count == self.parameters.count,
                     "\(id): expected \(self.parameters.count) parameter values, got \(parameters.count)")
        for (parameter, value) in zip(self.parameters, parameters) {
            if let problem = parameter.problem(with: value) {
                throw .invalidParameter(adjustment: id, name: parameter.name, problem: problem)
            }
        }
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
    ///
    /// The floats and the `lookstudio_value` array live on the stack for the call: one preparation per call, however
    /// many pixels, and no heap allocation.
    func applyLocally(
        _ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>, parameters: [ParameterValue]
    ) {
        guard case .local(let function) = backend, let source = input.baseAddress,
              let destination = output.baseAddress
        else { return }
        let pixels = input.count / 3
        switch function {
        case .version1(let apply):
            withUnsafeTemporaryAllocation(of: Float.self, capacity: Swift.max(parameters.count, 1)) { floats in
                for (i, value) in parameters.enumerated() { value.write(to: floats.baseAddress! + i) }
                apply(source, destination, pixels, parameters.isEmpty ? nil : UnsafePointer(floats.baseAddress))
            }
        case .version2(let apply):
            let (total, count) = (parameters.reduce(0) { $0 + $1.floatCount }, Swift.max(parameters.count, 1))
            withUnsafeTemporaryAllocation(of: Float.self, capacity: Swift.max(total, 1)) { floats in
                withUnsafeTemporaryAllocation(of: lookstudio_value.self, capacity: count) { values in
                    var next = floats.baseAddress!
                    for (i, value) in parameters.enumerated() {
                        value.write(to: next)
                        values[i] = lookstudio_value(values: next, count: value.floatCount)
                        next += value.floatCount
                    }
                    apply(source, destination, pixels, parameters.isEmpty ? nil : UnsafePointer(values.baseAddress))
                }
            }
        }
    }

    /// The adjustment baked into a cube: the identity grid of `size` run through `apply` in one call.
    public func bakedCube(size: Int, parameters: [ParameterValue]) throws -> ColorCube {
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
