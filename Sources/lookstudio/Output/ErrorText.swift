import LookCore
import PluginHost
import Workflows

/// How the command line says an error: the library's message and its remedy in the command line's words, or, for a
/// setting out of its range (the engine's, the plugin host's limits), the option that was given.
enum ErrorText {
    /// `error` as the command line prints it after `error: `.
    static func commandLine(_ error: any Error) -> String {
        if let setting = SettingOutOfRange(error) {
            return TextNumber.outOfRange("--" + setting.name, setting.value, setting.range)
        }
        switch error {
        case PluginHostError.invalidTimeout(let text, from: nil):
            return "--plugin-timeout " + PluginHostError.timeoutRule(given: text)
        case PluginHostError.invalidMemory(let text, from: nil):
            return "--plugin-memory \(text): use " + PluginHostError.memoryAmount
        default:
            return "\(error)" + (Remedy(error)?.commandLine ?? "")
        }
    }
}

extension Remedy {
    /// The command line's words for the remedy, written after the error's message.
    var commandLine: String {
        switch self {
        case .raisePixelLimit:
            "; raise it with --max-pixels"
        case .stripMetadata:
            "; --strip-metadata skips it"
        case .otherCatalog:
            "; point --catalog or $LOOKSTUDIO_CATALOG at a catalog file in a writable folder, or at a path where a "
                + "new one may be created"
        case .createCatalog(let path):
            "; create it with any catalog command (e.g. `lookstudio looks list --catalog \(path)`)"
        case .recoverCatalog:
            " (`lookstudio catalog verify` shows the problems, `lookstudio catalog recover --to NEW.sqlite` writes "
                + "the new file)"
        case .forceRemoval:
            "; use --force to remove it anyway"
        case .listLooks:
            " (see `lookstudio looks list`)"
        case .listAdjustments:
            "; `lookstudio plugins list` shows what is installed"
        case .importAsLook(let file):
            " with `lookstudio import \(file)` and use the look"
        case .listScenes:
            " (see `lookstudio scenes list`)"
        case .listVersions(let guid):
            " (see `lookstudio looks versions \(guid)`)"
        case .newRecoveryTarget:
            ": give another --to"
        case .migrateCatalog:
            " (e.g. `lookstudio looks list`)"
        }
    }
}
