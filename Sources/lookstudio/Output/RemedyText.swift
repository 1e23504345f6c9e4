import Workflows

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

    /// `error`'s message followed by the command line's remedy, if it has one.
    static func commandLine(_ error: any Error) -> String {
        "\(error)" + (Remedy(error)?.commandLine ?? "")
    }
}
