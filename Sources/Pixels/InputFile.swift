import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names on the file system, so readers refuse folders, FIFOs, sockets and devices before opening them.
///
/// Opening a FIFO for reading blocks until a writer comes (a FIFO named `b.png` would hang a folder run), reading a
/// folder fails deep inside a library (Foundation's `FileHandle` traps on it), and a device can stream for ever; a
/// `stat` first (which follows symlinks, so a link to a regular file is taken) answers before anything is opened.
public enum InputFile {
    /// The kind of file system object behind a path (after following symlinks).
    public enum Kind: Sendable, Equatable {
        case regular, directory, fifo, socket, characterDevice, blockDevice
        /// The path does not exist, or `stat` failed (`errno` says why); the opener reports that as usual.
        case unknown(errno: Int32)

        /// How a message names this kind: "a folder", "a FIFO (named pipe)", ….
        public var noun: String {
            switch self {
            case .regular: return "a regular file"
            case .directory: return "a folder"
            case .fifo: return "a FIFO (named pipe)"
            case .socket: return "a socket"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .unknown: return "missing or unreadable"
            }
        }
    }

    /// The kind of `path`, following symlinks.
    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .unknown(errno: errno) }
        return kind(mode: info.st_mode)
    }

    /// The kind a `st_mode` names.
    public static func kind(mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        default: return .unknown(errno: 0)
        }
    }

    /// Why `path` cannot be read as `what` (e.g. "a LUT file"): "is a folder, not a LUT file"; nil for a regular
    /// file, a symlink to one, or a path that does not exist (the opener's own message covers that).
    public static func refusal(_ path: String, what: String) -> String? {
        refusal(kind(of: path), what: what)
    }

    /// Why a file of `kind` cannot be read as `what`; nil for a regular file or an unknown kind.
    static func refusal(_ kind: Kind, what: String) -> String? {
        switch kind {
        case .regular, .unknown: return nil
        case let other: return "is \(other.noun), not \(what)"
        }
    }

    /// Throws when `path` is a folder, FIFO, socket or device instead of an image file, or an empty file.
    public static func requireImageFile(_ path: String) throws(ImageIOError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let kind = kind(mode: info.st_mode)
        if let refusal = refusal(kind, what: "an image file") {
            throw .unsupportedImage(file: path, detail: refusal)
        }
        // An empty file is nearly always a copy or download cut short; each library would call it "not a PNG
        // file" or "no 'ftyp' box" by its extension, which sends the user looking at the format instead.
        if kind == .regular, info.st_size == 0 {
            throw .unsupportedImage(file: path, detail: emptyImageFile)
        }
    }

    /// How an empty file is refused where an image is expected.
    public static let emptyImageFile = "is empty (0 bytes), not an image: was a copy or download cut short?"

    /// The whole file, for codecs that decode from memory (WebP, HEIF/AVIF); refused as `requireImageFile` refuses.
    public static func contents(of path: String) throws(ImageIOError) -> [UInt8] {
        try requireImageFile(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotOpen(file: path, reason: FileManager.default.fileExists(atPath: path)
                              ? "permission denied" : "no such file")
        }
        return [UInt8](data)
    }
}
