import Foundation

/// Runs the built `lookstudio` binary the way a user would, on temporary files: the one runner every test target
/// that drives the CLI shares.
public enum CLI {
    /// Package root, from this file's path (Tests/LookStudioTestSupport/CLI.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// `Tests/Fixtures`: the package's copies of the LUT corpus (`corpus/`) and reference vectors (`reference/`).
    public static let fixtures = packageRoot + "/Tests/Fixtures"

    /// The binary beside the running test bundle (both in <scratch>/<configuration>/, so sanitizer builds with
    /// their own --scratch-path run their own binary), else .build/debug/lookstudio.
    public static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("lookstudio").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot + "/.build/debug/lookstudio"
    }()

    /// True when the binary has been built (`swift build` / `swift test` build it).
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// A finished run.
    public struct Result: Sendable {
        /// Exit status (or the signal number when `reason` is a signal).
        public var status: Int32
        /// Everything written to stdout.
        public var stdout: String
        /// Everything written to stderr.
        public var stderr: String
    }

    /// Starts `command` (the binary unless given) with `arguments`; the caller waits or kills. The user's catalog
    /// and seed settings are removed from the environment, so a test never touches the user's catalog;
    /// `environment` adds or replaces variables.
    public static func start(_ arguments: [String], command: String = binary,
                             environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "LOOKSTUDIO_CATALOG")
        env.removeValue(forKey: "LOOKSTUDIO_SEED_DIR")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// Runs `lookstudio` with `arguments` to completion; `executable` replaces the binary (e.g. `/bin/sh` to set
    /// limits before `exec`ing it).
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String] = [:],
                           executable: String = binary) throws -> Result {
        let (process, out, err) = try start(arguments, command: executable, environment: environment)
        // Read before waiting so a chatty child cannot block on a full pipe.
        let (stdout, stderr) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `command` with `arguments` to completion, with the environment the binary gets.
    @discardableResult
    public static func run(command: String, _ arguments: [String]) throws -> Result {
        try run(arguments, executable: command)
    }

    /// A fresh temporary folder, removed by the caller.
    public static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
