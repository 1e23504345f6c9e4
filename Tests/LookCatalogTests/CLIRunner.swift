import Foundation

/// Runs the built `lookstudio` binary the way a user would.
enum CLIRunner {
    /// The binary beside the running test bundle (both in <scratch>/<configuration>/, so sanitizer builds with
    /// their own --scratch-path run their own binary), else .build/debug/lookstudio.
    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("lookstudio").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return "\(TestSupport.packageRoot)/.build/debug/lookstudio"
    }()

    /// True when the binary has been built (`swift build` / `swift test` build it).
    static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Starts the binary with `arguments`; the caller waits or kills.
    static func start(_ arguments: [String], command: String = binary) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "LOOKSTUDIO_CATALOG")
        env.removeValue(forKey: "LOOKSTUDIO_SEED_DIR")
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// Runs the binary to completion.
    static func run(_ arguments: [String]) throws -> Result {
        try run(command: binary, arguments)
    }

    /// Runs `command` (the binary unless given) to completion, with the environment the binary gets.
    static func run(command: String, _ arguments: [String]) throws -> Result {
        let (process, out, err) = try start(arguments, command: command)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
