import Foundation
import LookStudioTestSupport
import Testing

@Suite("lookstudio plugins (Sources/lookstudio/Commands/PluginsCommand.swift)")
struct PluginsCommandTests {
    /// Runs the built `lookstudio` (next to the test binary) and returns exit status, stdout and stderr.
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let directory = URL(fileURLWithPath: try #require(
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))).deletingLastPathComponent()
        let executable = directory.appendingPathComponent("lookstudio")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "swift build built lookstudio")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["LOOKSTUDIO_PLUGIN_PATH"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (stdout, stderr) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                String(decoding: stderr, as: UTF8.self))
    }

    @Test("plugins list --json shows at least 16 adjustments from at least 4 plugin files, snake_case keys")
    func listJSON() throws {
        let (status, stdout, stderr) = try run(["plugins", "list", "--json"])
        #expect(status == 0, "\(stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let adjustments = try #require(object["adjustments"] as? [[String: Any]])
        let plugins = try #require(object["plugins"] as? [[String: Any]])
        #expect(adjustments.count >= 16)
        #expect(Set(adjustments.compactMap { $0["plugin_path"] as? String }).count >= 4)
        #expect(plugins.count >= 4)
        #expect((object["refusals"] as? [Any])?.isEmpty == true)
        let first = try #require(adjustments.first)
        for key in ["id", "display_name", "category", "description", "plugin_path", "plugin_name", "plugin_version"] {
            #expect(first[key] != nil, "adjustment key \(key)")
        }
    }

    @Test("plugins list prints one row per adjustment with its plugin file")
    func listText() throws {
        let (status, stdout, _) = try run(["plugins", "list"])
        #expect(status == 0)
        #expect(stdout.contains("tone.contrast") && stdout.contains("libTonePlugin.so"))
        #expect(stdout.contains("wb.temperature") && stdout.contains("shift -3000…6000 K (0)"))
    }

    @Test("plugins describe --json gives every parameter's range, default and identity")
    func describeJSON() throws {
        let (status, stdout, _) = try run(["plugins", "describe", "color.black_white", "--json"])
        #expect(status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "color.black_white")
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["name"] as? String } == ["filter_hue", "filter_strength", "amount"])
        let amount = try #require(parameters.last)
        #expect(amount["min"] as? Double == 0 && amount["max"] as? Double == 1)
        #expect(amount["default"] as? Double == 1 && amount["identity"] as? Double == 0)
        #expect(parameters.first?["kind"] as? String == "angle")
    }

    @Test("describing an unknown id fails with an error naming it; a refused file is a warning only")
    func describeUnknownAndWarning() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lookstudio-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "junk".write(to: directory.appendingPathComponent("junk.so"), atomically: true, encoding: .utf8)

        let (status, _, stderr) = try run(["plugins", "describe", "tone.nope", "--plugin-dir", directory.path])
        #expect(status != 0)
        #expect(stderr.contains("error: no adjustment \"tone.nope\""))

        let (listStatus, stdout, listErrors) = try run(["plugins", "list"],
                                                       environment: ["LOOKSTUDIO_PLUGIN_PATH": directory.path])
        #expect(listStatus == 0)
        #expect(listErrors.contains("warning: \(directory.path)/junk.so: not a loadable shared library"))
        #expect(stdout.contains("tone.exposure"))
    }

    /// A folder with the typed fixture plugin and the plugin built from the version 1 header.
    private func fixturePlugins() throws -> String {
        let directory = try PluginCompiler.temporaryDirectory()
        try PluginCompiler.compile(file: PluginCompiler.typedPluginSource, named: "typed", in: directory)
        try PluginCompiler.compile(file: PluginCompiler.versionOneDirectory + "/v1_plugin.c", named: "v1_plugin",
                                   in: directory, include: PluginCompiler.versionOneDirectory)
        return directory
    }

    @Test("plugins describe shows a curve's x and y ranges and points, a colour's range and wheel, a choice's options")
    func describeTypedText() throws {
        let directory = try fixturePlugins()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, grade, stderr) = try run(["plugins", "describe", "typed.grade", "--plugin-dir", directory])
        #expect(status == 0, "\(stderr)")
        let rows = grade.split(separator: "\n").map { $0.split(separator: "  ", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.contains(["master", "Master Curve", "curve", "x 0…1, y 0…1, 2–16 points", "[0,0 1,1]", "[0,0 1,1]",
                               "Piecewise-linear curve on each channel."]))
        #expect(rows.contains(["slope", "Slope", "color", "0…4 each", "(1, 1, 1)", "(1, 1, 1)",
                               "Gain per channel after the curve."]))
        #expect(rows.contains(["style", "Style", "choice", "clamp | no-clamp", "clamp", "clamp",
                               "Clamp the result to 0-1, or not."]))
        let (_, echo, _) = try run(["plugins", "describe", "typed.echo", "--plugin-dir", directory])
        #expect(echo.contains("curve, periodic") && echo.contains("x 0…360, y -1…1, 1–16 points"))
        #expect(echo.contains("color, wheel") && echo.contains("(0.9, 0.5, 0.1)"))
    }

    @Test("plugins describe --json: new keys on curves, colours and choices; defaults as recipes write them")
    func describeTypedJSON() throws {
        let directory = try fixturePlugins()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, stdout, _) = try run(["plugins", "describe", "typed.echo", "--json", "--plugin-dir", directory])
        #expect(status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: parameters.map { ($0["name"] as? String ?? "", $0) })
        let hue = try #require(byName["hue"])
        #expect(hue["kind"] as? String == "curve" && hue["periodic"] as? Bool == true)
        #expect(hue["x_min"] as? Double == 0 && hue["x_max"] as? Double == 360 && hue["max_points"] as? Int == 16)
        #expect((hue["default"] as? [[Double]]) == [[0, 0]])
        #expect(byName["tint"]?["wheel"] as? Bool == true)
        #expect(byName["mode"]?["choices"] as? [String] == ["first", "no-clamp", "third"])
        #expect(byName["mode"]?["default"] as? String == "no-clamp")
        #expect(byName["mode"]?["identity"] as? String == "first")
        #expect(Set(try #require(byName["amount"]).keys)
                == ["name", "display_name", "description", "kind", "min", "max", "default", "identity"])
    }

    @Test("plugins list summarises typed parameters, and counts the plugins built for ABI version 1")
    func listTyped() throws {
        let directory = try fixturePlugins()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, stdout, stderr) = try run(["plugins", "list", "--plugin-dir", directory])
        #expect(status == 0 && stderr.isEmpty, "\(stderr)")
        #expect(stdout.contains("master curve x 0…1, y 0…1, 2–16 points ([0,0 1,1]), "
            + "slope colour 0…4 each ((1, 1, 1)), style clamp|no-clamp (clamp)"))
        #expect(stdout.contains("hue curve x 0…360, y -1…1, 1–16 points, periodic ([0,0])"))
        #expect(stdout.contains("legacy.mix") && stdout.contains("(1 built for plugin ABI version 1)."))
        let (_, json, _) = try run(["plugins", "list", "--json", "--plugin-dir", directory])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let plugins = try #require(object["plugins"] as? [[String: Any]])
        let versions = Dictionary(uniqueKeysWithValues: plugins.map {
            ($0["name"] as? String ?? "", $0["abi_version"])
        })
        #expect(versions["Legacy Mix"] as? Int == 1 && versions["Typed"] as? Int == 2)
    }
}
