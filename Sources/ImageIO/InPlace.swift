import Foundation
import Pixels

/// Replacing originals on purpose (`--in-place`): the new image is written beside the original and renamed over it,
/// after the original is kept as `NAME.orig.EXT` (a hard link, so keeping it costs no copy).
public enum InPlace {
    /// `dir/photo.orig.jpg` for `dir/photo.jpg` (`dir/photo.orig` for a name without extension).
    public static func backupPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().lastPathComponent + ".orig" + (ext.isEmpty ? "" : "." + ext)
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(base)
    }

    /// Whether a file name is a backup this writes (`NAME.orig.EXT`), so folder runs can leave backups out.
    public static func isBackup(_ name: String) -> Bool {
        let base = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        return base.hasSuffix(".orig") && base.count > ".orig".count
    }

    /// Runs `replace`, which must replace `path` atomically (temporary file and rename), after keeping the original
    /// as its backup when `backup` is true; the backup is removed again if `replace` throws, since the original is
    /// then unchanged. A backup already there (an earlier run's, which may be the real original) is never
    /// overwritten: the call throws `ImageIOError.backupExists` before anything is written. Returns `replace`'s
    /// result and the backup path.
    public static func replace<T>(_ path: String, backup: Bool,
                                  _ replace: () throws -> T) throws -> (result: T, backup: String?) {
        guard backup else { return (try replace(), nil) }
        let copy = backupPath(for: path)
        if FileManager.default.fileExists(atPath: copy) {
            throw ImageIOError.backupExists(file: path, backup: copy)
        }
        if link(path, copy) != 0 {
            // A file system without hard links: copy instead, atomically, so a backup is complete or absent.
            let reason = String(cString: strerror(errno))
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ImageIOError.cannotWrite(file: copy, reason: "cannot keep the backup: \(reason)")
            }
            try AtomicFile.write(data, to: copy)
        }
        do {
            return (try replace(), copy)
        } catch {
            unlink(copy)
            throw error
        }
    }
}
