import Foundation
import ImageIO
import LookCore

/// Finding the images of a run.
///
/// Folders are listed with `opendir`/`readdir`, byte for byte: a name that is not UTF-8 cannot be held by a Swift
/// `String` (Foundation repairs it, and the repaired path names no file), so such a file is opened here by its bytes
/// and the run reads it through `/proc/self/fd/N`, an ASCII path to the same open file. Only regular files and
/// symlinks to them are taken; a FIFO (opening one waits for a writer), socket, device or folder is skipped with a
/// note.
public enum ImageFiles {
    /// Display paths of the files opened by their bytes, keyed by their `/proc/self/fd/N` path; shared by every
    /// worker of a run, so guarded by a lock.
    private static let opened = Locked([String: String]())

    /// True when `path` is an existing folder.
    public static func isDirectory(_ path: String) -> Bool {
        var dir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && dir.boolValue
    }

    /// Files as given, folders expanded to their images (sorted by name, not recursive, hidden files skipped);
    /// `note` receives one line per file skipped or opened by its bytes.
    public static func collect(_ inputs: [String], note: (String) -> Void = { _ in }) throws -> [String] {
        var files: [String] = []
        for input in inputs {
            if isDirectory(input) {
                files += try list(folder: input, note: note)
            } else {
                files.append(input)
            }
        }
        return files
    }

    /// How messages and output names call `path`: the folder and the name with each byte that is not ASCII
    /// written `%XX` for a file opened by its bytes, otherwise `path` itself.
    public static func displayPath(of path: String) -> String {
        guard path.hasPrefix("/proc/self/fd/") else { return path }
        return opened.withLock { $0[path] } ?? path
    }

    /// A file name's bytes with `%` and every byte above 0x7F written `%XX`, so it is valid (ASCII) text.
    public static func escaped(_ name: [UInt8]) -> String {
        var out = ""
        for byte in name {
            if byte >= 0x80 || byte == UInt8(ascii: "%") {
                out += "%" + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    private static func list(folder: String, note: (String) -> Void) throws -> [String] {
        guard let dir = opendir(folder) else {
            // Foundation's error names the folder and the reason.
            _ = try FileManager.default.contentsOfDirectory(atPath: folder)
            return []
        }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            // The extension is ASCII, so a lossy decoding of the name is enough to read it; `--in-place` backups
            // (NAME.orig.EXT) are originals kept aside, not inputs.
            let text = String(decoding: name, as: UTF8.self)
            guard name.first != UInt8(ascii: "."), !InPlace.isBackup(text),
                  ImageFormat.fromExtension(text) != nil else { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var files: [String] = []
        for name in names {
            let text = String(validating: name, as: UTF8.self)
            let display = base + (text ?? escaped(name))
            let shown = MessageText.quote(display)
            var info = stat()
            let found = name.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    fstatat(dirfd(dir), Array(chars) + [0], &info, 0) == 0
                }
            }
            guard found else {
                note("\(shown): skipped, \(String(cString: strerror(errno)))")
                continue
            }
            let kind = InputFile.kind(mode: info.st_mode)
            guard kind == .regular else {
                note("\(shown): skipped, it is \(kind.noun), not an image file")
                continue
            }
            if let text {
                files.append(base + text)
                continue
            }
            let fd = name.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    openat(dirfd(dir), Array(chars) + [0], O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                }
            }
            guard fd >= 0 else {
                note("\(shown): skipped, cannot open (\(String(cString: strerror(errno))))")
                continue
            }
            // Left open for the run: the descriptor is the file's only name a String can hold.
            let path = "/proc/self/fd/\(fd)"
            opened.withLock { $0[path] = display }
            note("\(shown): the name is not UTF-8; read by its bytes, called "
                 + "\(MessageText.quote((display as NSString).lastPathComponent)) in messages and output names")
            files.append(path)
        }
        return files
    }
}
