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
