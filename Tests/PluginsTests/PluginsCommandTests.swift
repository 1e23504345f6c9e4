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
}
