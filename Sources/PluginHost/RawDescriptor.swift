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

    /// A version 2 descriptor.
    init(_ plugin: lookstudio_plugin) {
        name = plugin.name
        version = plugin.version
        adjustmentCount = UInt(bitPattern: plugin.adjustment_count)
        hasAdjustments = plugin.adjustments != nil
        let list = plugin.adjustments
        adjustment = { RawAdjustment(list![$0]) }
    }

    /// A version 1 descriptor, read with the frozen layouts of lookstudio_plugin_v1.h.
    init(_ plugin: lookstudio_plugin_v1) {
        name = plugin.name
        version = plugin.version
        adjustmentCount = UInt(bitPattern: plugin.adjustment_count)
        hasAdjustments = plugin.adjustments != nil
        let list = plugin.adjustments
        adjustment = { RawAdjustment(list![$0]) }
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

    init(_ raw: lookstudio_adjustment) {
        id = raw.id
        displayName = raw.display_name
        category = raw.category
        description = raw.description
        parameterCount = UInt(bitPattern: raw.parameter_count)
        hasParameters = raw.parameters != nil
        let list = raw.parameters
        parameter = { list![$0] }
        numbersOnly = false
        apply = raw.apply.map { .version2($0) }
    }

    init(_ raw: lookstudio_adjustment_v1) {
        id = raw.id
        displayName = raw.display_name
        category = raw.category
        description = raw.description
        parameterCount = UInt(bitPattern: raw.parameter_count)
        hasParameters = raw.parameters != nil
        let list = raw.parameters
        parameter = { index in
            let old = list![index]
            return lookstudio_parameter(
                name: old.name, display_name: old.display_name, description: old.description, kind: old.kind,
                min: old.min, max: old.max, default_value: old.default_value, identity_value: old.identity_value,
                default_values: nil, default_count: 0, identity_values: nil, identity_count: 0, x_min: 0, x_max: 0,
                max_points: 0, flags: 0, choices: nil, choice_count: 0)
        }
        numbersOnly = true
        apply = raw.apply.map { .version1($0) }
    }
}
