import Foundation
import LookStudioTestSupport
import Testing

/// Issue 24's acceptance, end to end with the built `lookstudio`: a plugin that segfaults, exits, hangs or returns NaN
/// in the middle of a ten-step recipe makes `compose` name that step and plugin and exit 1; `plugins list` survives
/// plugins that crash or exit while loading and lists the others.
@Suite("Faulty plugins through the CLI")
struct FaultyPluginCommandTests {
    /// The faults, by adjustment id: the C statements run inside apply, and what the error says.
    static let faults: [(id: String, body: String, expected: String)] = [
        ("fault.segv", "raise(SIGSEGV);", "crashed the plugin host process (signal 11, Segmentation fault)"),
        ("fault.quit", "_exit(0);", "ended the plugin host process with exit status 0"),
        ("fault.hang", "for (;;) pause();", "did not return within 1 s"),
        ("fault.nan", "out[3 * (n / 2) + 1] = NAN;", "returned NaN (first at point"),
    ]

    static func pluginSource(id: String, body: String = "", entry: String = "") -> String {
        """
        #include "lookstudio_plugin.h"
        #include <math.h>
        #include <signal.h>
        #include <unistd.h>
        static void apply(const float *in, float *out, size_t n, const lookstudio_value *params) {
            for (size_t i = 0; i < 3 * n; i++) out[i] = in[i] * (1.0f - 0.1f * params[0].values[0]);
            \(body)
        }
        static const lookstudio_parameter params[] = {
            {"amount", "Amount", "", LOOKSTUDIO_PARAM_SCALAR, 0.0f, 1.0f, 1.0f, 0.0f},
        };
        static const lookstudio_adjustment adjustments[] = {{"\(id)", "Faulty", "Test", "", params, 1, apply}};
        static const lookstudio_plugin plugin = {LOOKSTUDIO_PLUGIN_ABI_VERSION, "Faulty", "1", adjustments, 1};
        LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void) {
            \(entry)
            return &plugin;
        }
        """
    }

    /// Ten steps of built-in adjustments with `faulty` as step 5.
    static func recipe(faulty: String) -> String {
        """
        name: Ten With A Fault
        size: 17
        steps:
          - adjust: tone.exposure
            params: { stops: 0.3 }
          - adjust: wb.temperature
            params: { shift: 900 }
          - adjust: tone.contrast
            params: { amount: 0.2 }
          - adjust: color.saturation
            params: { amount: 0.15 }
          - adjust: \(faulty)
          - adjust: color.hue
            params: { angle: 8 }
          - adjust: tone.shadows
            params: { amount: 0.3 }
          - adjust: blend.soft_light
            params: { amount: 0.4 }
          - adjust: wb.tint
            params: { amount: 0.1 }
          - adjust: color.vibrance
            params: { amount: 0.2 }
        """
    }

    private static var buildDirectory: URL {
        get throws {
            URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                .deletingLastPathComponent()
        }
    }

    /// The package's plugin header folder, for `cc -I`.
    private static let headerDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/PluginABI/include")

    private func compile(_ source: String, named name: String, in directory: URL) throws {
        let sourceFile = directory.appendingPathComponent(name + ".c")
        try source.write(to: sourceFile, atomically: true, encoding: .utf8)
        let (status, _, errors) = try run(URL(fileURLWithPath: "/usr/bin/env"), [
            "cc", "-shared", "-fPIC", "-O2", "-I", Self.headerDirectory.path, sourceFile.path,
            "-o", directory.appendingPathComponent(name + ".so").path,
        ])
        try #require(status == 0, "cc: \(errors)")
    }

    private func lookstudio(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (Int32, String, String)
    {
        let executable = try Self.buildDirectory.appendingPathComponent("lookstudio")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "swift build built lookstudio")
        return try run(executable, arguments, environment: environment)
    }

    private func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (Int32, String, String)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for name in ["LOOKSTUDIO_PLUGIN_PATH", "LOOKSTUDIO_PLUGINS_IN_PROCESS", "LOOKSTUDIO_PLUGIN_HOST",
                     "LOOKSTUDIO_PLUGIN_TIMEOUT"] {
            variables[name] = nil
        }
        process.environment = variables.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readAllRetryingInterrupts()
        let stdout = out.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                String(decoding: stderr, as: UTF8.self))
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lookstudio-faulty-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("compose names the faulty step and plugin, exits 1 and writes nothing", arguments: Self.faults.indices)
    func composeReportsFault(index: Int) throws {
        let fault = Self.faults[index]
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plugins = directory.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try compile(Self.pluginSource(id: fault.id, body: fault.body), named: "faulty", in: plugins)
        let recipe = directory.appendingPathComponent("ten.yaml")
        try Self.recipe(faulty: fault.id).write(to: recipe, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out.cube")
        let catalog = directory.appendingPathComponent("catalog.sqlite")

        let (status, _, stderr) = try lookstudio(
            ["compose", recipe.path, "-o", output.path, "--save", "--catalog", catalog.path,
             "--plugin-dir", plugins.path], environment: ["LOOKSTUDIO_PLUGIN_TIMEOUT": "1"])
        #expect(status == 1, "\(stderr)")
        let prefix = "error: plugin \(plugins.path)/faulty.so (adjustment \(fault.id), recipe step 5): "
        #expect(stderr.contains(prefix + fault.expected), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "no cube is written")
        #expect(!FileManager.default.fileExists(atPath: catalog.path), "nothing is stored")
    }

    @Test("without the faulty step the same recipe composes with plugins out of process")
    func composeWithoutFault() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recipe = directory.appendingPathComponent("ten.yaml")
        try Self.recipe(faulty: "tone.brightness\n    params: { amount: 0.1 }").write(
            to: recipe, atomically: true, encoding: .utf8)
        var cubes: [String] = []
        for mode in [[], ["--in-process"]] {
            let output = directory.appendingPathComponent("out\(cubes.count).cube")
            let (status, _, stderr) = try lookstudio(["compose", recipe.path, "-o", output.path] + mode)
            #expect(status == 0, "\(stderr)")
            cubes.append(try String(contentsOf: output, encoding: .utf8))
        }
        #expect(cubes[0] == cubes[1], "isolated and in-process composition write the same cube")
    }

    @Test("plugins list names plugins that crash, exit or hang while loading, and lists the others")
    func listSurvivesLoadFaults() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try compile(Self.pluginSource(id: "load.segv", entry: "raise(SIGSEGV);"), named: "a_segv", in: directory)
        try compile(Self.pluginSource(id: "load.quit", entry: "_exit(0);"), named: "b_quit", in: directory)
        try compile(Self.pluginSource(id: "load.hang", entry: "for (;;) pause();"), named: "c_hang", in: directory)
        try compile(Self.pluginSource(id: "load.fine"), named: "d_fine", in: directory)

        let (status, stdout, stderr) = try lookstudio(["plugins", "list", "--plugin-dir", directory.path],
                                                      environment: ["LOOKSTUDIO_PLUGIN_TIMEOUT": "5"])
        #expect(status == 0, "\(stderr)")
        #expect(stdout.contains("load.fine") && stdout.contains("tone.contrast") && stdout.contains("wb.tint"))
        #expect(!stdout.contains("load.segv") && !stdout.contains("load.quit") && !stdout.contains("load.hang"))
        #expect(stderr.contains("warning: \(directory.path)/a_segv.so: the plugin crashed the plugin host process "
            + "(signal 11, Segmentation fault) while being loaded"))
        #expect(stderr.contains("warning: \(directory.path)/b_quit.so: the plugin ended the plugin host process with "
            + "exit status 0"))
        #expect(stderr.contains("warning: \(directory.path)/c_hang.so: the plugin hung the plugin host for 5 s "
            + "(raise it with --plugin-timeout or $LOOKSTUDIO_PLUGIN_TIMEOUT) while being loaded"))
    }
}
