import ArgumentParser
import Foundation
import PluginHost

/// `lookstudio plugin-host` (hidden): the child process that loads and runs plugins for its parent `lookstudio`.
///
/// Speaks length-prefixed frames on stdin/stdout (docs/PLUGINS.md, "Isolation"); not meant to be run by hand.
struct PluginHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: PluginHostConfiguration.subcommand,
        abstract: "Run plugins for a parent lookstudio process (internal).",
        shouldDisplay: false
    )

    func run() throws {
        Foundation.exit(PluginHostServer.run())
    }
}

extension GlobalOptions {
    /// The plugins on the search path, isolated as `--in-process`, `--plugin-timeout` and the environment say;
    /// refused files are printed as warnings.
    func pluginRegistry() throws -> PluginRegistry {
        let isolation = try PluginIsolation.standard(inProcess: inProcess, timeout: pluginTimeout)
        let registry = PluginRegistry.load(searchPaths: PluginSearchPath.standard(pluginDirs: pluginDir),
                                           isolation: isolation)
        for refusal in registry.refusals { printError("warning: \(refusal)") }
        return registry
    }
}
