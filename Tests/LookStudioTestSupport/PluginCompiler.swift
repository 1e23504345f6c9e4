import Foundation

/// Builds C plugins for tests with the one-liner docs/PLUGINS.md gives plugin authors.
public enum PluginCompiler {
    /// The folder holding `lookstudio_plugin.h` (version 2), as a plugin author would pass it to `-I`.
    public static let headerDirectory = CLI.packageRoot + "/Sources/PluginABI/include"

    /// `Tests/Fixtures/plugin-v1`: the version 1 header and a plugin built from it.
    public static let versionOneDirectory = CLI.fixtures + "/plugin-v1"

    /// `Tests/Fixtures/plugin-v2/typed_plugin.c`: a version 2 plugin with curve, colour and choice parameters.
    public static let typedPluginSource = CLI.fixtures + "/plugin-v2/typed_plugin.c"

    /// A fresh empty folder under the system temporary folder.
    public static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookstudio-plugin-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Builds the C file `source` into `<directory>/<name>.so` with `cc -shared -fPIC -O2 -I include`; returns the
    /// library's path.
    @discardableResult
    public static func compile(file source: String, named name: String, in directory: String,
                               include: String = headerDirectory) throws -> String {
        let libraryPath = directory + "/" + name + ".so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cc", "-shared", "-fPIC", "-O2", "-I", include, source, "-o", libraryPath, "-lm"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let diagnostics = String(decoding: errors.fileHandleForReading.readAllRetryingInterrupts(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CompileFailure(source: source, diagnostics: diagnostics) }
        return libraryPath
    }

    /// Writes `text` to `<directory>/<name>.c` and builds it as ``compile(file:named:in:include:)`` does.
    @discardableResult
    public static func compile(source text: String, named name: String, in directory: String) throws -> String {
        let sourcePath = directory + "/" + name + ".c"
        try text.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        return try compile(file: sourcePath, named: name, in: directory)
    }

    /// `cc` refused a plugin source; `diagnostics` is what it printed.
    public struct CompileFailure: Error, CustomStringConvertible {
        public let source: String
        public let diagnostics: String

        /// A failure naming the source and what the compiler said.
        public init(source: String, diagnostics: String) {
            self.source = source
            self.diagnostics = diagnostics
        }

        public var description: String { "cc failed on \(source):\n\(diagnostics)" }
    }
}
