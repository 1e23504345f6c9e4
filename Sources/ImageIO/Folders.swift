import Foundation

/// Output folders made as `mkdir -p` makes them, with the system's reason when that fails.
public enum Folders {
    /// Makes `path` and its missing parents: nil once `path` is a folder, else the errno of the step that failed.
    /// Foundation's `createDirectory` is not used: on Linux its errors carry no system reason, only an
    /// NSCocoaErrorDomain code.
    public static func make(_ path: String) -> Int32? {
        guard let failure = makeOne(path) else { return nil }
        // Something that is not a folder already has the name: "Not a directory" says so, "File exists" does not.
        if failure == EEXIST { return ENOTDIR }
        guard failure == ENOENT else { return failure }
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty, parent != path else { return ENOENT }
        if let error = make(parent) { return error }
        return makeOne(path)
    }

    /// One `mkdir`: nil once `path` is a folder, else its errno, read before anything else can change it (the
    /// folder check's `stat` sets ENOENT, which made a read-only file system read as a missing parent).
    private static func makeOne(_ path: String) -> Int32? {
        if mkdir(path, 0o777) == 0 { return nil }
        let failure = errno
        return isFolder(path) ? nil : failure
    }

    /// Runs `body`, which writes `path`, with the missing folders above `path` made first; when `body` throws, the
    /// folders made here are removed again if still empty, so a failed write leaves nothing behind.
    public static func withParents<T>(of path: String, _ body: () throws -> T) throws -> T {
        let made = try makeParents(of: path)
        do {
            return try body()
        } catch {
            removeEmpty(made)
            throw error
        }
    }

    /// Makes the missing folders above `path`: those made, deepest first.
    private static func makeParents(of path: String) throws(ImageIOError) -> [String] {
        var missing: [String] = []
        var parent = (path as NSString).deletingLastPathComponent
        while !parent.isEmpty, parent != "/", !FileManager.default.fileExists(atPath: parent) {
            missing.append(parent)
            parent = (parent as NSString).deletingLastPathComponent
        }
        guard let deepest = missing.first else { return [] }
        if let failure = make(deepest) {
            removeEmpty(missing)
            throw .cannotWrite(file: path, reason: "cannot create the folder \(deepest): "
                               + String(cString: strerror(failure)))
        }
        return missing
    }

    /// Removes each of `folders` (deepest first) that is empty; `rmdir` leaves any that is not.
    private static func removeEmpty(_ folders: [String]) {
        for folder in folders { rmdir(folder) }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
