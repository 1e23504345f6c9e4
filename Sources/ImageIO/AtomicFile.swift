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
            unlink(temp)
            throw error
        }
    }

    /// A hidden, unique path beside `path` (same folder, so the final `rename` cannot cross file systems).
    ///
    /// For writers that stream into the file over many calls and so cannot use the closure form of `write`.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        return "\(dir)/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Renames a finished temporary file over `path`; the caller removes `temporary` if this throws.
    public static func commit(temporary: String, to path: String) throws(AtomicFileError) {
        guard rename(temporary, path) == 0 else {
            throw AtomicFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `data` to `path` atomically.
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { temp in
            guard FileManager.default.createFile(atPath: temp, contents: data) else {
                throw AtomicFileError(path: path, reason: "cannot create a file in \(URL(fileURLWithPath: path).deletingLastPathComponent().path)")
            }
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
}
