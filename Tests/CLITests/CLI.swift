import Foundation
import Testing

/// Runs the built `lookstudio` binary the way a user would, on temporary files.
enum CLI {
    /// Package root, from this file's path (Tests/CLITests/CLI.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// `Tests/Fixtures`: the package's copies of the LUT corpus (`corpus/`) and reference vectors (`reference/`).
    static let fixtures = packageRoot + "/Tests/Fixtures"

    /// The binary next to the running test bundle (both live in .build/<configuration>/).
    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("lookstudio").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot + "/.build/debug/lookstudio"
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `lookstudio` with `arguments` and returns its exit status and output; `executable` replaces the
    /// binary (e.g. `/bin/sh` to set limits before `exec`ing it).
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    executable: String = binary) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a chatty child cannot block on a full pipe.
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    /// A fresh temporary folder, removed by the caller.
    static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
