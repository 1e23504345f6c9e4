import PluginABI

/// A plugin descriptor of either ABI version, seen through one shape so that both pass the same checks.
struct RawPlugin {
    let name: UnsafePointer<CChar>?
    let version: UnsafePointer<CChar>?
    /// `adjustment_count`, read unsigned: `size_t` imports as Int, and SIZE_MAX must read 18446744073709551615.
    let adjustmentCount: UInt
    let hasAdjustments: Bool
    /// Adjustment `index`; only called for an index below a count the host accepted.
    let adjustment: (Int) -> RawAdjustment
}

// In an extension, so that the memberwise initialisers both versions go through stay available.
extension RawPlugin {
    /// A version 2 descriptor.
    init(_ plugin: lookstudio_plugin) {
        let (list, count) = (plugin.adjustments, UInt(bitPattern: plugin.adjustment_count))
        self.init(name: plugin.name, version: plugin.version, adjustmentCount: count, hasAdjustments: list != nil,
                  adjustment: { RawAdjustment(list![$0]) })
    }

    /// A version 1 descriptor, read with the frozen layouts of lookstudio_plugin_v1.h.
    init(_ plugin: lookstudio_plugin_v1) {
        let (list, count) = (plugin.adjustments, UInt(bitPattern: plugin.adjustment_count))
        self.init(name: plugin.name, version: plugin.version, adjustmentCount: count, hasAdjustments: list != nil,
                  adjustment: { RawAdjustment(list![$0]) })
    }
}

/// One adjustment of either ABI version; a version 1 parameter is read as a version 2 number parameter.
struct RawAdjustment {
    let id: UnsafePointer<CChar>?
    let displayName: UnsafePointer<CChar>?
    let category: UnsafePointer<CChar>?
    let description: UnsafePointer<CChar>?
    let parameterCount: UInt
    let hasParameters: Bool
    /// Parameter `index`; only called for an index below a count the host accepted.
    let parameter: (Int) -> lookstudio_parameter
    /// True for version 1, whose parameters are numbers only.
    let numbersOnly: Bool
    let apply: ApplyFunction?
}

extension RawAdjustment {
    /// A version 2 adjustment.
    init(_ raw: lookstudio_adjustment) {
        let list = raw.parameters
        self.init(id: raw.id, displayName: raw.display_name, category: raw.category, description: raw.description,
                  parameterCount: UInt(bitPattern: raw.parameter_count), hasParameters: list != nil,
                  parameter: { list![$0] }, numbersOnly: false, apply: raw.apply.map { .version2($0) })
    }

    /// A version 1 adjustment, its parameters widened to version 2 number parameters.
    init(_ raw: lookstudio_adjustment_v1) {
        let list = raw.parameters
        self.init(id: raw.id, displayName: raw.display_name, category: raw.category, description: raw.description,
                  parameterCount: UInt(bitPattern: raw.parameter_count), hasParameters: list != nil,
                  parameter: { Self.widened(list![$0]) }, numbersOnly: true, apply: raw.apply.map { .version1($0) })
    }

    /// A version 1 parameter as the version 2 number parameter it is.
    private static func widened(_ old: lookstudio_parameter_v1) -> lookstudio_parameter {
        lookstudio_parameter(
            name: old.name, display_name: old.display_name, description: old.description, kind: old.kind,
            min: old.min, max: old.max, default_value: old.default_value, identity_value: old.identity_value,
            default_values: nil, default_count: 0, identity_values: nil, identity_count: 0, x_min: 0, x_max: 0,
            max_points: 0, flags: 0, choices: nil, choice_count: 0)
    }
}
