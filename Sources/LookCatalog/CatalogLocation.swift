import Foundation
import LookCore
import ImageIO

/// Where the catalog file and the seed folder are found.
public enum CatalogLocation {
    /// The catalog file: `explicit` (`--catalog`), else `$LOOKSTUDIO_CATALOG`, else
    /// `$XDG_DATA_HOME/lookstudio/catalog.sqlite`, else `~/.local/share/lookstudio/catalog.sqlite`.
    public static func catalogPath(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment["LOOKSTUDIO_CATALOG"], !env.isEmpty { return env }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return "\(xdg)/lookstudio/catalog.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return "\(home)/.local/share/lookstudio/catalog.sqlite"
    }

    /// Creates the folder that will hold `catalogPath`, with its parents.
    public static func createParentFolder(of catalogPath: String) throws(CatalogError) {
        let dir = URL(fileURLWithPath: catalogPath).deletingLastPathComponent().path
        if let error = Folders.make(dir) { throw .cannotCreateFolder(path: dir, String(cString: strerror(error))) }
    }

    /// Folders searched for the seed: `explicit` alone when given, else `$LOOKSTUDIO_SEED_DIR`, each ancestor of
    /// the executable's real path (a source checkout's root among them) followed by its `share/lookstudio` (where
    /// `make install` puts the seed: PREFIX/bin's and PREFIX/lib's ancestor PREFIX), `/usr/local/share/lookstudio`,
    /// `/usr/share/lookstudio`.
    public static func seedCandidates(explicit: String?, environment: [String: String],
                                      executablePath: String?) -> [String] {
        if let explicit, !explicit.isEmpty { return [explicit] }
        var out: [String] = []
        if let env = environment["LOOKSTUDIO_SEED_DIR"], !env.isEmpty { out.append(env) }
        if let exe = executablePath {
            var dir = URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
            while dir.path != "/" && !dir.path.isEmpty {
                out.append(dir.path)
                out.append(dir.appendingPathComponent("share/lookstudio").path)
                dir = dir.deletingLastPathComponent()
            }
        }
        out.append("/usr/local/share/lookstudio")
        out.append("/usr/share/lookstudio")
        return out
    }

    /// The first candidate folder holding `Catalog/scenes.yaml`, or nil.
    public static func findSeed(explicit: String?, environment: [String: String],
                                executablePath: String? = currentExecutablePath()) -> String? {
        seedCandidates(explicit: explicit, environment: environment, executablePath: executablePath)
            .first { FileManager.default.fileExists(atPath: "\($0)/Catalog/scenes.yaml") }
    }

    /// The real path of the code running: the `lookstudio` executable, or liblookstudio.so inside another
    /// program (`CodeLocation`), or nil where that is unavailable.
    public static func currentExecutablePath() -> String? { CodeLocation.file }
}
