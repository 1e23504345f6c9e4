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
            print(try encodeJSON(PluginListing(
                plugins: registry.plugins, adjustments: registry.adjustments, refusals: registry.refusals)))
            return
        }
        let rows = registry.adjustments.map { adjustment in
            [adjustment.id, fileName(adjustment.pluginPath), adjustment.parameters.map(summary).joined(separator: ", ")]
        }
        print(table(header: ["ID", "PLUGIN FILE", "PARAMETERS name min…max (default)"], rows: rows))
        print("\(registry.adjustments.count) adjustments from \(registry.plugins.count) plugin files.")
    }

    private func summary(_ parameter: ParameterDescriptor) -> String {
        if parameter.kind == .bool {
            return "\(parameter.name) on/off (\(parameter.defaultValue == 1 ? "on" : "off"))"
        }
        let unit = parameter.kind.unitSuffix
        return "\(parameter.name) \(number(parameter.min))…\(number(parameter.max))\(unit) "
            + "(\(number(parameter.defaultValue)))"
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
            print(try encodeJSON(adjustment))
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
            [parameter.name, parameter.displayName, parameter.kind.rawValue,
             "\(number(parameter.min))…\(number(parameter.max))\(parameter.kind.unitSuffix)",
             number(parameter.defaultValue), number(parameter.identityValue), parameter.description]
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

private func encodeJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
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
