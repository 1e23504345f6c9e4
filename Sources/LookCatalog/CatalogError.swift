import LookCore
import LookModel

/// A problem opening, reading or writing the look catalog, with the path, GUID or name it concerns.
public enum CatalogError: Error, Equatable, CustomStringConvertible {
    /// The file exists but is not an SQLite database.
    case notSQLite(path: String)
    /// The file is an SQLite database of some other program.
    case notACatalog(path: String)
    /// The catalog was written by a newer LookStudio (schema version or migrations this build does not know).
    case newerSchema(path: String, version: Int, known: Int, unknownMigrations: [String])
    /// A new catalog needs the seed (Catalog/scenes.yaml and Looks/) and none was found.
    case seedNotFound(searched: [String])
    /// A seed file is missing a field or has a wrong value.
    case badSeed(file: String, _ message: String)
    /// No look matches a GUID, GUID prefix or name.
    case lookNotFound(String)
    /// No look matches the reference, but these names are near it (a typo).
    case lookNotFoundNear(String, names: [String])
    /// A GUID prefix matches several looks.
    case ambiguousLook(String, candidates: [String])
    /// No scene has this label.
    case sceneNotFound(Int)
    /// Another look already has this name (names are unique, ignoring case).
    case duplicateName(String)
    /// A name or tag is empty or made only of spaces.
    case invalidName(String)
    /// `GUID@N` or `NAME@N` names a version the look does not have.
    case versionNotFound(guid: String, version: Int, available: [Int])
    /// A look that scenes use as their default or other looks' recipes name; removing it needs `--force`.
    case lookUsed(guid: String, name: String, sceneLabels: [Int], recipeUsers: [String])
    /// A name or tag breaks a rule of `LookName` (control characters, length, reads as a GUID or version).
    case badName(String, _ reason: String)
    /// Replacing a look's cube would store a cube another look already has (content hashes are unique).
    case contentTaken(guid: String, by: String)
    /// A scene uses the look as its default; removing it needs `--force`.
    case lookInUse(guid: String, name: String, sceneLabels: [Int])
    /// A strength outside 0…200.
    case strengthOutOfRange(Int)
    /// A scene correction strength outside 0…200.
    case correctionOutOfRange(name: String, value: Double)
    /// A stored look blob does not decode or does not match its hash.
    case corruptLook(guid: String, _ message: String)
    /// An error from SQLite, with the catalog path.
    case database(path: String, _ message: String)
    /// Recovery was asked to write where a file already is; it writes only new files.
    case recoveryTargetExists(path: String)
    /// Creating the catalog folder failed.
    case cannotCreateFolder(path: String, _ reason: String)
    /// A write to a catalog opened for reading only, or whose file or folder is not writable.
    case readOnly(path: String)
    /// A read-only open of a catalog file that does not exist (it is created only by a read-write open).
    case missing(path: String)
    /// A read-only open of a catalog whose schema this build would migrate (a read-only open never writes).
    case needsMigration(path: String, pending: [String])
    /// Nothing may be written in the catalog's folder or file system: a new catalog cannot be created there, and
    /// an existing one was opened immutable (reads work).
    case cannotWrite(path: String, folder: String, creating: Bool)
    /// SQLite's integrity check failed: the catalog takes no writes until it is recovered.
    case damaged(path: String, _ details: String)
    /// A catalog on a read-only file system whose write-ahead log `log` may hold its last commits, which SQLite
    /// cannot read there without the `-shm` index beside it.
    case unreadableLog(path: String, log: String)
    /// `catalog recover` could save nothing: the file cannot even be opened or its tables listed.
    case unrecoverable(path: String, _ reason: String)

    public var description: String {
        switch self {
        case .notSQLite(let path):
            return "\(path) is not an SQLite database; it was left untouched"
        case .notACatalog(let path):
            return "\(path) is an SQLite database of another program (it has tables but no LookStudio "
                + "migrations); it was left untouched"
        case .newerSchema(let path, let version, let known, let unknown):
            let names = unknown.isEmpty ? "" : " (unknown migrations: \(unknown.joined(separator: ", ")))"
            return "\(path) was written by a newer LookStudio: schema version \(version), this build knows up to "
                + "\(known)\(names). Upgrade lookstudio; the catalog was left untouched"
        case .seedNotFound(let searched):
            return "cannot create a new catalog: the seed (Catalog/scenes.yaml and Looks/) was not found; searched "
                + searched.joined(separator: ", ") + ". Set $LOOKSTUDIO_SEED_DIR to the folder holding Catalog/"
        case .badSeed(let file, let message):
            return "\(file): \(message)"
        case .lookNotFound(let ref):
            return Self.lookNotFound(ref)
        case .lookNotFoundNear(let ref, let names):
            return "no look named or with GUID \"\(MessageText.quote(ref))\"; did you mean "
                + names.map { "\"\(MessageText.quote($0))\"" }.joined(separator: " or ") + "?"
        case .ambiguousLook(let ref, let candidates):
            return "\"\(MessageText.quote(ref))\" matches several looks; give more of the GUID: "
                + candidates.joined(separator: ", ")
        case .sceneNotFound(let label):
            return "no scene with label \(label)"
        case .duplicateName(let name):
            return "a look named \"\(MessageText.quote(name))\" already exists (names are unique, ignoring case); "
                + "choose another name"
        case .invalidName(let name):
            return "\"\(MessageText.quote(name))\" is not a usable name: names and tags need at least one visible "
                + "character"
        case .versionNotFound(let guid, let version, let available):
            return Self.versionNotFound(guid: guid, version: version, available: available)
        case .lookUsed(let guid, let name, let labels, let users):
            return "look \(guid) (\(MessageText.quote(name))) is " + Self.uses(labels: labels, users: users)
                + "; nothing was removed (removing it anyway leaves those scenes without a default look, and those "
                + "looks keep their cubes but cannot be rebuilt)"
        case .badName(let name, let reason):
            return "\"\(MessageText.quote(name.count > 80 ? String(name.prefix(80)) + "…" : name))\" is not a "
                + "usable name or tag: \(reason) (rules: README, \"Names\")"
        case .contentTaken(let guid, let other):
            return "look \(guid): the new cube is the same as look \(other)'s; nothing was changed "
                + "(two looks cannot store the same cube)"
        case .lookInUse(let guid, let name, let labels):
            return "look \(guid) (\(MessageText.quote(name))) is " + Self.uses(labels: labels, users: [])
                + "; nothing was removed"
        case .correctionOutOfRange(let name, let value):
            return TextNumber.outOfRange("\(name) strength", value, CorrectionPreset.strengthRange)
                + " (percent of what the engine chooses)"
        case .strengthOutOfRange(let s):
            return TextNumber.outOfRange("strength", s, 0...200) + " (100 is the look as authored)"
        case .corruptLook(let guid, let message):
            return "look \(guid): \(message)"
        case .database(let path, let message):
            return "catalog \(path): \(message)"
        case .recoveryTargetExists(let path):
            return "\(path) already exists; recovery writes a new catalog, never over a file"
        case .cannotCreateFolder(let path, let reason):
            return "cannot create the catalog folder \(path): \(reason)"
        case .readOnly(let path):
            return "catalog \(path) is read-only (opened for reading, or the file or its folder is not writable); "
                + "nothing was changed. Reading still works; to change it, make the file and its folder writable"
        case .missing(let path):
            return "no catalog at \(path): a read-only open does not create one"
        case .needsMigration(let path, let pending):
            return "catalog \(path) needs migrations this build would apply (\(pending.joined(separator: ", "))), "
                + "and it was opened read-only; open it once for writing first"
        case .cannotWrite(let path, let folder, let creating):
            return Self.cannotWrite(path: path, folder: folder, creating: creating)
        case .unrecoverable(let path, let reason):
            return Self.unrecoverable(path: path, reason: reason)
        case .unreadableLog(let path, let log):
            return Self.unreadableLog(path: path, log: log)
        case .damaged(let path, let details):
            return "catalog \(path) is damaged (\(details)); nothing was written. Recover every readable look and "
                + "scene into a new catalog file and use that file"
        }
    }

    /// No look answers `ref`; a short hex reference is told that a GUID prefix needs 8 digits.
    private static func lookNotFound(_ ref: String) -> String {
        let hex = !ref.isEmpty && ref.count < 8 && ref.allSatisfy { $0.isHexDigit || $0 == "-" }
        return "no look named or with GUID \"\(MessageText.quote(ref))\""
            + (hex ? "; a GUID prefix needs at least 8 hex digits" : "")
    }

    /// A catalog of which nothing could be saved.
    private static func unrecoverable(path: String, reason: String) -> String {
        "nothing could be recovered from \(path): \(reason), so no look or scene in it can be reached; no new "
            + "catalog was written. Restore the catalog from a backup"
    }

    /// A write-ahead log a read-only open cannot read, and how to get at the changes it holds.
    private static func unreadableLog(path: String, log: String) -> String {
        "catalog \(path) has a write-ahead log \(log) that may hold its latest changes (a process that used it did "
            + "not close it), and SQLite cannot read that log on a read-only file system without the \(path)-shm file "
            + "beside it, so it was not opened (without the log it would show an older catalog). Open the catalog "
            + "once where its folder is writable (SQLite then moves the log into the file), or copy the catalog with "
            + "its -wal file to a writable folder"
    }

    /// A missing version, and the versions there are.
    private static func versionNotFound(guid: String, version: Int, available: [Int]) -> String {
        "look \(guid) has no version \(version)"
            + (available.isEmpty ? "" : "; its versions are " + available.map(String.init).joined(separator: ", "))
    }

    /// What uses a look: the scenes it is the default look of, the looks whose recipes name it.
    private static func uses(labels: [Int], users: [String]) -> String {
        var uses: [String] = []
        if !labels.isEmpty {
            uses.append("the default look of scene" + (labels.count == 1 ? " " : "s ")
                + labels.map(String.init).joined(separator: ", "))
        }
        if !users.isEmpty {
            uses.append("named by the recipe of " + users.map { MessageText.quote($0) }.joined(separator: ", "))
        }
        return uses.joined(separator: " and ")
    }

    /// Why nothing may be written where the catalog is, and what to do about it.
    private static func cannotWrite(path: String, folder: String, creating: Bool) -> String {
        if creating {
            return "cannot create the catalog \(path): its folder \(folder) is not writable (or is on a "
                + "read-only file system); make the folder writable, or use a catalog file in a writable folder"
        }
        return "catalog \(path) is on a read-only file system or in a folder that is not writable (\(folder)), "
            + "so it was opened for reading only; nothing was changed. To change it, make \(folder) writable, "
            + "or use a copy of the catalog in a writable folder"
    }
}
