import CTempRegistry
import Foundation

/// Writes a file so that readers see either the old file or the complete new one, never a half-written file.
///
/// Data goes to a hidden temporary file in the destination folder (same file system, so `rename` is atomic), is
/// flushed, then renamed over the destination. On any failure the temporary file is removed.
public enum AtomicFile {
    /// Runs `body` with a temporary path beside `path`, then renames it to `path` if `body` succeeds.
    public static func write<T>(to path: String, _ body: (String) throws -> T) throws -> T {
        let temp = temporaryPath(for: path)
        do {
            let result = try body(temp)
            try commit(temporary: temp, to: path)
            return result
        } catch {
            discard(temporary: temp)
            throw error
        }
    }

    /// A hidden, unique path beside `path` (same folder, so the final `rename` cannot cross file systems).
    ///
    /// For writers that stream into the file over many calls and so cannot use the closure form of `write`. The
    /// path is registered with `TemporaryFiles`, so an interrupt removes it; `commit` or `discard` forgets it.
    /// `keepingExtension` appends `path`'s extension, for writers that pick the format by it.
    public static func temporaryPath(for path: String, keepingExtension: Bool = false) -> String {
        let url = URL(fileURLWithPath: destination(path))
        let dir = url.deletingLastPathComponent().path
        StaleTemporaries.sweepOnce(dir)
        var temporary = "\(dir)/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        if keepingExtension { temporary += "." + url.pathExtension }
        _ = TemporaryFiles.register(temporary)
        return temporary
    }

    /// Renames a finished temporary file over `path`; the caller discards `temporary` if this throws.
    public static func commit(temporary: String, to path: String) throws(AtomicFileError) {
        guard rename(temporary, destination(path)) == 0 else {
            throw AtomicFileError(path: path, errno: errno)
        }
        lstemp_unregister_path(temporary)
    }

    /// Where a write to `path` lands: for a symlink to an existing regular file, that file (so the link stays a link
    /// and the file it names gets the new contents); otherwise `path` itself.
    public static func destination(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
              stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes an unfinished temporary file and forgets its registration.
    public static func discard(temporary: String) {
        unlink(temporary)
        lstemp_unregister_path(temporary)
    }

    /// Writes `data` to `path` atomically.
    ///
    /// Plain `write(2)` calls, so a full disk or a file-size limit is reported with the system's reason (not as a
    /// failure to create the file) and the temporary file is removed.
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { temp in
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw AtomicFileError(path: path, errno: errno) }
            var failure: Int32 = 0
            data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.write(fd, base + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += n
                }
            }
            if close(fd) != 0 && failure == 0 { failure = errno }
            if failure != 0 { throw AtomicFileError(path: path, errno: failure) }
        }
    }

    /// Writes an encoded image's `bytes` to `path` atomically, failing as the codecs do.
    public static func writeImage(_ bytes: [UInt8], to path: String) throws(ImageIOError) {
        do {
            try write(Data(bytes), to: path)
        } catch let error as AtomicFileError {
            throw .cannotWrite(file: path, reason: error.reason)
        } catch {
            throw .cannotWrite(file: path, reason: "\(error)")
        }
    }
}

/// A failure to put a finished file in place.
public struct AtomicFileError: Error, CustomStringConvertible {
    /// The destination path.
    public let path: String
    /// What went wrong, from the operating system.
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }

    /// The error for `path` with the system's message for `code`, and the likely cause when the disk is full.
    public init(path: String, errno code: Int32) {
        self.path = path
        let message = String(cString: strerror(code))
        let full = code == ENOSPC || code == EFBIG || code == EDQUOT
        reason = full ? message + " (the disk is full, or a quota or file-size limit was reached)" : message
    }

    /// The error for `path` with `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Temporary files that processes killed outright (SIGKILL, a crash, power loss) left beside their outputs: nothing
/// else removes them, and they can be as large as the image. The first temporary a process makes in a folder removes
/// those of dead processes there; the PID in the name (`.NAME.PID.RANDOM.tmp[.EXT]`) says whose each is.
public enum StaleTemporaries {
    // Guarded by `lock`: folders already swept by this process, so a batch writing thousands of files into one
    // folder reads it once.
    private nonisolated(unsafe) static var swept: Set<String> = []
    private static let lock = NSLock()

    static func sweepOnce(_ folder: String) {
        guard lock.withLock({ swept.insert(folder).inserted }) else { return }
        removeDead(in: folder)
    }

    /// Removes the temporary files in `folder` whose process no longer exists and that belong to this user; returns
    /// their paths. Files of live processes, of other users, and other hidden files are left alone.
    @discardableResult
    public static func removeDead(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(".") {
            guard let pid = writer(of: name), pid != getpid() else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid() else { continue }
            // ESRCH: no such process. EPERM means one exists (another user's), so its file stays.
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The PID in a temporary file's name `.NAME.PID.RANDOM.tmp` or `.NAME.PID.RANDOM.tmp.EXT`, else nil.
    static func writer(of name: String) -> pid_t? {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last != "tmp" && parts.count >= 2 && parts[parts.count - 2] == "tmp" { parts.removeLast() }
        guard parts.count >= 5, parts.last == "tmp", UInt32(parts[parts.count - 2]) != nil,
              let pid = pid_t(parts[parts.count - 3]), pid > 0 else { return nil }
        return pid
    }
}
