import Foundation
import LookCore

/// Where plugins are looked for: `--plugin-dir` folders, then `$LOOKSTUDIO_PLUGIN_PATH`, then the executable's folder.
public struct PluginSearchPath {
    /// The environment variable holding extra plugin folders, separated by colons.
    public static let environmentVariable = "LOOKSTUDIO_PLUGIN_PATH"

    /// File name ending of a loadable plugin on this platform.
    public static let pluginExtension: String = {
        #if canImport(Darwin)
        return "dylib"
        #else
        return "so"
        #endif
    }()

    /// The folders to search, in order, as absolute paths without duplicates: `pluginDirs`, the variable's,
    /// `executableDirectory`, then `codeDirectories` (a library's own folders, see `standard`).
    ///
    /// Empty entries of the variable (`a::b`, a leading or trailing colon) are skipped rather than read as the current
    /// folder, as `PATH` would: nothing is loaded from the current folder unless it is named. A relative folder that
    /// is named is resolved against the current folder. Symbolic links are resolved so that one folder reached two
    /// ways is searched once.
    public static func resolve(pluginDirs: [String], environment: [String: String], executableDirectory: String?,
                               codeDirectories: [String] = []) -> [String]
    {
        let fromEnvironment = (environment[environmentVariable] ?? "")
            .split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        let named = pluginDirs + fromEnvironment + (executableDirectory.map { [$0] } ?? []) + codeDirectories
        var seen = Set<String>()
        var result: [String] = []
        for entry in named where !entry.isEmpty {
            let path = URL(fileURLWithPath: entry).standardizedFileURL.resolvingSymlinksInPath().path
            if seen.insert(path).inserted {
                result.append(path)
            }
        }
        return result
    }

    /// The search path a command uses: its `--plugin-dir` folders, then this process's environment, then the folder
    /// of the running executable; then, when LookStudio runs as liblookstudio.so inside another program, the
    /// library's folder, and the installed plugins (`PREFIX/lib/lookstudio/plugins`, where `make install` puts
    /// them, beside `PREFIX/bin/lookstudio` and `PREFIX/lib/liblookstudio.so`) when that folder exists.
    public static func standard(pluginDirs: [String]) -> [String] {
        let installed = CodeLocation.directory.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("lib/lookstudio/plugins").path
        }
        let extra = ([CodeLocation.directory] + [installed]).compactMap { $0 }
            .filter { FileManager.default.fileExists(atPath: $0) }
        return resolve(
            pluginDirs: pluginDirs, environment: ProcessInfo.processInfo.environment,
            executableDirectory: executableDirectory(), codeDirectories: extra)
    }

    /// Whether `directory` is the running executable's folder or the library's (symbolic links resolved): folders
    /// where the build puts every library it makes, so only the built-in plugins there are candidates.
    static func isExecutableDirectory(_ directory: String) -> Bool {
        let resolved = { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        return [executableDirectory(), CodeLocation.directory].compactMap { $0 }.map(resolved)
            .contains(resolved(directory))
    }

    /// The folder of the running executable (`/proc/self/exe` on Linux), where `swift build` puts the built-in plugins.
    ///
    /// In a test run this is the folder of the test bundle, which is the same build folder.
    public static func executableDirectory() -> String? {
        #if os(Linux)
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: target).deletingLastPathComponent().path
        }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// File name ending of the built-in plugins in the executable's folder (`libTonePlugin.so`, …).
    static let builtInSuffix = "Plugin." + pluginExtension

    /// The plugin candidates in one folder: regular files ending in ``pluginExtension``, sorted by name so that the
    /// load order (and so which of two duplicates wins) does not depend on the file system.
    ///
    /// With `builtInsOnly` (the executable's own folder) only the built-in plugins (``builtInSuffix``) are
    /// candidates: SwiftPM puts every dynamic library it builds there too (`libGRDB-dynamic.so` after a plain
    /// `swift build`), and those are the program's libraries, neither plugins to load nor broken plugins to report.
    static func pluginFiles(in directory: String, builtInsOnly: Bool = false) -> Result<[String], PluginRefusal> {
        let suffix = builtInsOnly ? builtInSuffix : "." + pluginExtension
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            return .failure(PluginRefusal(path: directory, reason: .unreadableDirectory("it does not exist")))
        }
        guard isDirectory.boolValue else {
            return .failure(PluginRefusal(path: directory, reason: .unreadableDirectory("it is a file, not a folder")))
        }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: directory)
        } catch {
            return .failure(PluginRefusal(path: directory, reason: .unreadableDirectory(error.localizedDescription)))
        }
        let files = names.sorted().compactMap { name -> String? in
            guard name.hasSuffix(suffix), !name.hasPrefix(".") else { return nil }
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
            return path
        }
        return .success(files)
    }
}
