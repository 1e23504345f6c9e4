import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The studio's folder for dropped photos, `TMPDIR/lookstudio-studio-PID-UUID`: made on the first drop, mode 0700
/// with files 0600 (a photo someone drops is theirs alone, and `/tmp` is shared), removed by `remove()`, which the
/// studio calls on every way it stops. A server that could not call it (SIGKILL, a crash) leaves its folder; the
/// PID in the name lets the next studio remove the folders of processes that no longer exist (`removeStale`).
final class UploadFolder: @unchecked Sendable {
    static let prefix = "lookstudio-studio-"

    let path: String
    // Guarded by `lock`: uploads arrive on concurrent requests.
    private let lock = NSLock()
    private var created = false

    init(parent: String = NSTemporaryDirectory()) {
        path = Self.join(parent, Self.prefix + "\(getpid())-\(UUID().uuidString)")
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private func ensureCreated() throws {
        try lock.withLock {
            if created { return }
            // EEXIST included: the name is new, so anything already there is not ours to write into.
            guard mkdir(path, 0o700) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            created = true
        }
    }

    /// A new empty folder inside, mode 0700 (an export's scratch folder); the caller removes it when done.
    func makeSubfolder() throws -> String {
        try ensureCreated()
        let folder = path + "/export-" + UUID().uuidString
        guard mkdir(folder, 0o700) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return folder
    }

    /// A new empty file of the folder, readable and writable by this user only, open for writing.
    func create() throws -> (path: String, fd: Int32) {
        try ensureCreated()
        let file = path + "/" + UUID().uuidString
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (file, fd)
    }

    /// Writes all of `bytes` to `fd`.
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += written
        }
    }

    /// Removes the folder and every file in it.
    func remove() {
        lock.withLock {
            guard created else { return }
            try? FileManager.default.removeItem(atPath: path)
            created = false
        }
    }

    /// Removes the upload folders in `parent` left by studio processes of this user that no longer run, and returns
    /// their paths. A folder of a live process, of another user, or without a PID in its name is left alone.
    @discardableResult
    static func removeStale(in parent: String = NSTemporaryDirectory()) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0,
                  pid != getpid() else { continue }
            let folder = join(parent, name)
            var info = stat()
            guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
                continue
            }
            // ESRCH: no such process. EPERM means one exists (another user's), so its folder stays.
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            if (try? FileManager.default.removeItem(atPath: folder)) != nil { removed.append(folder) }
        }
        return removed
    }
}
