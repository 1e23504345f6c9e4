import Pixels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into memory, with errors that name the file.
enum FileBytes {
    /// The file's bytes; `name` is what errors call the file. A file larger than `maxBytes` is refused before it is
    /// read.
    static func load(path: String, name: String, maxBytes: Int = .max) throws(LookFormatsError) -> [UInt8] {
        // Non-blocking, so a FIFO is refused below instead of waiting for a writer; regular files ignore the flag.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw LookFormatsError(file: name, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw LookFormatsError(file: name, "cannot read: \(String(cString: strerror(errno)))")
        }
        let kind = InputFile.kind(mode: info.st_mode)
        guard kind == .regular else { throw LookFormatsError(file: path, "is \(kind.noun), not a LUT file") }
        guard Int(info.st_size) <= maxBytes else {
            throw LookFormatsError(file: name, "is \(info.st_size) bytes, more than the \(maxBytes) LookStudio reads "
                                   + "for this format")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while filled < raw.count {
                let n = read(fd, base + filled, raw.count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { break }
                filled += n
            }
        }
        guard failure == 0 else {
            throw LookFormatsError(file: name, "cannot read: \(String(cString: strerror(failure)))")
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// The last path component, which is how errors name a file.
    static func displayName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let slash = trimmed.lastIndex(of: "/") { return String(trimmed[trimmed.index(after: slash)...]) }
        return trimmed
    }
}
