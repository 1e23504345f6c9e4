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

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
