import ArgumentParser
import Foundation
import PluginHost

/// `lookstudio plugins`: what adjustments the installed plugins offer.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the adjustments offered by plugins, and describe their parameters.",
        discussion: """
        Plugins are shared libraries found in --plugin-dir folders, then in $LOOKSTUDIO_PLUGIN_PATH \
        (colon-separated), then next to the lookstudio executable. Files that cannot be loaded are reported as \
        warnings and the others still load. Writing a plugin: docs/PLUGINS.md.

        Examples:
          lookstudio plugins list
          lookstudio plugins describe tone.contrast --json
        """,
        subcommands: [PluginsListCommand.self, PluginsDescribeCommand.self]
    )
}

/// `lookstudio plugins list`.
struct PluginsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every adjustment: id, plugin file and parameters (name range (default)).",
        discussion: "Example: lookstudio plugins list --plugin-dir ~/lookstudio-plugins"
    )

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Print one JSON object with plugins, adjustments and refusals (see docs/PLUGINS.md).")
    var json = false

    func run() throws {
        let registry = try global.workspace.plugins()
        if json {
            print(try jsonString(PluginListing(
                plugins: registry.plugins, adjustments: registry.adjustments, refusals: registry.refusals)))
            return
        }
        let rows = registry.adjustments.map { adjustment in
            [adjustment.id, fileName(adjustment.pluginPath), adjustment.parameters.map(summary).joined(separator: ", ")]
        }
        print(table(header: ["ID", "PLUGIN FILE", "PARAMETERS name range (default)"], rows: rows))
        let older = registry.plugins.filter { $0.abiVersion == 1 }.count
        print("\(registry.adjustments.count) adjustments from \(registry.plugins.count) plugin files"
            + (older > 0 ? " (\(older) built for plugin ABI version 1)." : "."))
    }

    private func summary(_ parameter: ParameterDescriptor) -> String {
        let initial = parameter.setting(for: parameter.defaultValue)
        switch parameter.kind {
        case .bool:
            return "\(parameter.name) on/off (\(parameter.defaultValue == .number(1) ? "on" : "off"))"
        case .scalar, .angle, .kelvin:
            return "\(parameter.name) \(range(parameter)) (\(initial))"
        case .curve:
            return "\(parameter.name) curve \(range(parameter))\(parameter.isPeriodic ? ", periodic" : "") (\(initial))"
        case .color:
            return "\(parameter.name) colour \(range(parameter))\(parameter.isWheel ? ", wheel" : "") (\(initial))"
        case .choice:
            return "\(parameter.name) \(parameter.choices.joined(separator: "|")) (\(initial))"
        }
    }
}

/// `lookstudio plugins describe ID`.
struct PluginsDescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe one adjustment: its formula, plugin and every parameter's range, default and identity.",
        discussion: "Example: lookstudio plugins describe wb.temperature"
    )

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Print the adjustment as one JSON object (see docs/PLUGINS.md).")
    var json = false

    @Argument(help: ArgumentHelp("Adjustment id, as shown by `plugins list`.", valueName: "id"))
    var id: String

    func run() throws {
        let registry = try global.workspace.plugins()
        let adjustment = try registry.requireAdjustment(id: id)
        if json {
            print(try jsonString(adjustment))
            return
        }
        print("\(adjustment.id) — \(adjustment.displayName) (\(adjustment.category))")
        print("Plugin: \(adjustment.pluginName) \(adjustment.pluginVersion), \(adjustment.pluginPath)")
        if !adjustment.description.isEmpty {
            print(adjustment.description)
        }
        guard !adjustment.parameters.isEmpty else {
            print("No parameters.")
            return
        }
        print("")
        let rows = adjustment.parameters.map { parameter in
            [parameter.name, parameter.displayName, kind(parameter), range(parameter),
             parameter.setting(for: parameter.defaultValue).fullDescription,
             parameter.setting(for: parameter.identityValue).fullDescription, parameter.description]
        }
        print(table(header: ["PARAMETER", "NAME", "KIND", "RANGE", "DEFAULT", "IDENTITY", "MEANING"], rows: rows))
    }
}

/// The `plugins list --json` object.
private struct PluginListing: Encodable {
    let plugins: [LoadedPlugin]
    let adjustments: [Adjustment]
    let refusals: [PluginRefusal]
}

/// The kind, with a curve's or a colour's flag: `curve, periodic`, `color, wheel`.
private func kind(_ parameter: ParameterDescriptor) -> String {
    if parameter.isPeriodic { return "curve, periodic" }
    if parameter.isWheel { return "color, wheel" }
    return parameter.kind.rawValue
}

/// What values the parameter takes: `-1…1`, `0…360°`, `x 0…1, y 0…1, 2–16 points`, `0…4 each`, `fwd | rev`.
private func range(_ parameter: ParameterDescriptor) -> String {
    let span = "\(number(parameter.min))…\(number(parameter.max))\(parameter.kind.unitSuffix)"
    switch parameter.kind {
    case .scalar, .angle, .kelvin, .bool:
        return span
    case .curve:
        let x = parameter.xRange.map { "\(number($0.lowerBound))…\(number($0.upperBound))" } ?? "?"
        return "x \(x), y \(span), \(parameter.minPoints)–\(parameter.maxPoints) points"
    case .color:
        return "\(span) each"
    case .choice:
        return parameter.choices.joined(separator: " | ")
    }
}

/// Shortest decimal that reads back as the same Float ("0.5", "-3000", "0.2").
private func number(_ value: Float) -> String {
    value == value.rounded() && abs(value) < 1e7 ? String(Int(value)) : "\(value)"
}

private func fileName(_ path: String) -> String {
    URL(fileURLWithPath: path).lastPathComponent
}

/// Left-aligned columns separated by two spaces; the last column is not padded.
private func table(header: [String], rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }.joined(separator: "\n")
}
