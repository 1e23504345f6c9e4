import Foundation
import LookStudioTestSupport
import PluginHost

/// Paths and helpers shared by the host tests: the package root, the plugin header, and a C compiler driver.
enum PluginTestSupport {
    /// The package root: Tests/PluginHostTests/<file> is three levels below it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding `lookstudio_plugin.h`, as a plugin author would pass it to `-I`.
    static let headerDirectory = packageRoot.appendingPathComponent("Sources/PluginABI/include").path

    /// The build folder with the built-in plugins: the test binary lives there too.
    static var buildDirectory: String? { PluginSearchPath.executableDirectory() }

    /// A fresh empty folder under the system temporary folder.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookstudio-plugin-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Writes `source` to `<directory>/<name>.c` and builds `<directory>/<name>.so` with the documented one-liner.
    @discardableResult
    static func compilePlugin(_ source: String, named name: String, in directory: String) throws -> String {
        let sourcePath = directory + "/" + name + ".c"
        let libraryPath = directory + "/" + name + ".so"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "cc", "-shared", "-fPIC", "-O2", "-I", headerDirectory, sourcePath, "-o", libraryPath, "-lm",
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let diagnostics = String(decoding: errors.fileHandleForReading.readAllRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CompileFailure(source: name, diagnostics: diagnostics) }
        return libraryPath
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
        __attribute__((unused)) static void apply_gain(const float *in, float *out, size_t n, const float *params) {
            for (size_t i = 0; i < 3 * n; i++) out[i] = in[i] * (1.0f + params[0]);
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

    struct CompileFailure: Error, CustomStringConvertible {
        let source: String
        let diagnostics: String
        var description: String { "cc failed on \(source).c:\n\(diagnostics)" }
    }
}
