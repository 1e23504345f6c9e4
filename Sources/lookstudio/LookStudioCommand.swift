import ArgumentParser
import Foundation
import PluginHost
import Workflows

/// The `lookstudio` root command: every subcommand is registered here.
struct LookStudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookstudio",
        abstract: "Author, catalog and apply colour looks (3D LUTs).",
        discussion: """
        A look is a 3D colour cube. Generate an identity cube PNG, edit it in any image editor next to a photo \
        (colour-only edits: curves, hue/saturation, channel mixer), then import or apply it.

        Example:
          lookstudio generate --size 64 -o identity.png
          lookstudio apply --lut edited.png photo.png photo-look.png
        """,
        version: "0.1.0",
        subcommands: [
            GenerateCommand.self,
            ConvertCommand.self,
            InspectCommand.self,
            InfoCommand.self,
            ApplyCommand.self,
            ComposeCommand.self,
            BenchCommand.self,
            PluginsCommand.self,
            ImportCommand.self,
            ExtractCommand.self,
            ExportCommand.self,
            LooksCommand.self,
            ScenesCommand.self,
            CatalogCommand.self,
            DetectCommand.self,
            CorrectCommand.self,
            ContactSheetCommand.self,
            GalleryCommand.self,
            StudioCommand.self,
            PluginHostCommand.self,
        ]
    )

    // Declared here too so `lookstudio --catalog PATH looks list` works: ArgumentParser hands the values given
    // before the subcommand to the subcommand's own `GlobalOptions` group.
    @OptionGroup var global: GlobalOptions
}

/// Options every subcommand that touches the catalog or plugins accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Catalog database file (default: $LOOKSTUDIO_CATALOG, else "
        + "$XDG_DATA_HOME/lookstudio/catalog.sqlite).", valueName: "path"))
    var catalog: String?

    @Option(name: .long, help: ArgumentHelp("Extra folder to load plugins from (searched before "
        + "$LOOKSTUDIO_PLUGIN_PATH and the executable's folder).", valueName: "dir"))
    var pluginDir: [String] = []

    @Flag(name: .long, help: ArgumentHelp("Load plugins into this process instead of a plugin-host child (for "
        + "debugging a plugin; a crash then ends lookstudio). Also $LOOKSTUDIO_PLUGINS_IN_PROCESS=1."))
    var inProcess = false

    @Option(name: .long, help: ArgumentHelp("Seconds a plugin may take to load or to evaluate one step, above 0 and "
        + "at most 86400 (default: $LOOKSTUDIO_PLUGIN_TIMEOUT, else 10).", valueName: "seconds"))
    var pluginTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("Address-space cap of the plugin host process in MiB, 256 to 1048576 "
        + "(default: $LOOKSTUDIO_PLUGIN_MEMORY, else 4096); a plugin's allocations past it fail and are reported.",
        valueName: "MiB"))
    var pluginMemory: Int?

    func validate() throws {
        // The limits `PluginHostConfiguration.standard` reads, checked here so a bad option or variable is an
        // argument error (exit 64) in every command, also those that never start a plugin host.
        do {
            let environment = ProcessInfo.processInfo.environment
            _ = try PluginHostConfiguration.timeout(option: pluginTimeout, environment: environment)
            _ = try PluginHostConfiguration.memoryMiB(option: pluginMemory, environment: environment)
        } catch {
            throw ValidationError(ErrorText.commandLine(error))
        }
    }
}

extension GlobalOptions {
    /// The catalog and plugins these options name; notes go to stderr.
    var workspace: Workspace {
        get throws {
            Workspace(catalog: catalog, pluginDirs: pluginDir,
                      pluginIsolation: try PluginIsolation.standard(inProcess: inProcess, timeout: pluginTimeout,
                                                                  memoryMiB: pluginMemory),
                      note: printError)
        }
    }

    /// The catalog file these options name (`--catalog`, `$LOOKSTUDIO_CATALOG` or the XDG default).
    var catalogPath: String { Workspace(catalog: catalog, note: printError).catalogPath }
}
