import Foundation
import LookStudioTestSupport
import PluginHost

/// Paths and helpers shared by the host tests: the package root, the plugin header, and a C compiler driver.
enum PluginTestSupport {
    /// The package root: Tests/PluginHostTests/<file> is three levels below it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding `lookstudio_plugin.h`, as a plugin author would pass it to `-I`.
    static let headerDirectory = PluginCompiler.headerDirectory

    /// The build folder with the built-in plugins: the test binary lives there too.
    static var buildDirectory: String? { PluginSearchPath.executableDirectory() }

    /// A fresh empty folder under the system temporary folder.
    static func temporaryDirectory() throws -> String {
        try PluginCompiler.temporaryDirectory()
    }

    /// Writes `source` to `<directory>/<name>.c` and builds `<directory>/<name>.so` with the documented one-liner.
    @discardableResult
    static func compilePlugin(_ source: String, named name: String, in directory: String) throws -> String {
        try PluginCompiler.compile(source: source, named: name, in: directory)
    }

    /// A fresh folder holding `Tests/Fixtures/plugin-v2/typed_plugin.c` built as `typed.so`: `typed.echo` writes the
    /// values it received into its output, `typed.grade` is a curve, a slope and a clamp choice.
    static func typedPluginDirectory() throws -> String {
        let directory = try temporaryDirectory()
        try PluginCompiler.compile(file: PluginCompiler.typedPluginSource, named: "typed", in: directory)
        return directory
    }

    /// Settings of every kind for `typed.echo`, and the floats it then writes first: each parameter's count, then
    /// its values.
    static let echoSettings: [String: ParameterSetting] = [
        "curve": .curve([SIMD2(0, 0), SIMD2(0.25, 0.2), SIMD2(1, 1)]), "tint": .color(SIMD3(1.1, 1, 0.9)),
        "mode": "third", "hue": .curve([SIMD2(0, 0.5), SIMD2(180, -0.25)]), "amount": -0.5,
    ]
    static let echoed: [Float] = [6, 0, 0, 0.25, 0.2, 1, 1, 3, 1.1, 1, 0.9, 1, 2, 4, 0, 0.5, 180, -0.25, 1, -0.5]

    /// `adjustment` applied to `pixels` mid-grey pixels with `values`.
    static func run(_ adjustment: Adjustment, values: [ParameterValue], pixels: Int = 16) throws -> [Float] {
        let input = [Float](repeating: 0.5, count: 3 * pixels)
        var output = [Float](repeating: -1, count: input.count)
        try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { try adjustment.apply(source, $0, parameters: values) }
        }
        return output
    }

    /// A C plugin with one adjustment `id`, and hooks to break it: ABI version, entry name, the parameter's kind,
    /// range, default and identity, and the apply function.
    static func pluginSource(
        id: String, abiVersion: String = "LOOKSTUDIO_PLUGIN_ABI_VERSION", entry: String = "lookstudio_plugin_entry",
        kind: String = "LOOKSTUDIO_PARAM_SCALAR", range: String = "-1.0f, 1.0f", defaultValue: String = "0.0f",
        identityValue: String = "0.0f", apply: String = "apply_gain"
    ) -> String {
        """
        #include "lookstudio_plugin.h"
        __attribute__((unused)) static void apply_gain(const float *in, float *out, size_t n,
                                                       const lookstudio_value *params) {
            for (size_t i = 0; i < 3 * n; i++) out[i] = in[i] * (1.0f + params[0].values[0]);
        }
        static const lookstudio_parameter params[] = {
            {"gain", "Gain", "Multiplier minus one.", \(kind), \(range), \(defaultValue), \(identityValue)},
        };
        static const lookstudio_adjustment adjustments[] = {
            {"\(id)", "Gain", "Test", "in * (1 + gain)", params, 1, \(apply)},
        };
        static const lookstudio_plugin plugin = {\(abiVersion), "Test Gain", "0.1", adjustments, 1};
        LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *\(entry)(void) { return &plugin; }
        """
    }

    typealias CompileFailure = PluginCompiler.CompileFailure
}
