import Foundation
import Pixels

/// Refuses outputs that would overwrite an input: a client's original is never replaced by a re-encode.
public enum OutputSafety {
    /// Why an output was refused.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        /// The output path as given.
        public let output: String
        /// The input it collides with, as given.
        public let input: String
        /// How they collide.
        public let reason: String
        public var description: String {
            if input.isEmpty { return "refusing to write \(output): \(reason); choose another output path" }
            return "refusing to write \(output): \(reason) \(input); choose another output path"
        }
    }

    /// Throws when the output file `output` is any input file: the same path once symlinks and `..` are resolved,
    /// or the same device and inode (a hard link, a symlink to it, a bind mount). An output that does not exist
    /// yet can only match by path (through a symlinked folder, say).
    ///
    /// Also refuses an output that is, or is a symlink to, a folder, device, FIFO or socket: outputs are written to
    /// a temporary file renamed into place, which would replace such a link (say to /dev/full) by a regular file.
    /// A symlink to a regular file is written through (``AtomicFile/destination(_:)``).
    public static func check(inputs: [String], output: String) throws(Refusal) {
        try checkDestination(output)
        let out = identity(output)
        for input in inputs {
            let inp = identity(input)
            if let a = out.node, let b = inp.node, a == b {
                let reason = out.resolved == inp.resolved ? "it is the input" : "it is the same file (a link) as the input"
                throw Refusal(output: output, input: input, reason: reason)
            }
            if out.resolved == inp.resolved {
                throw Refusal(output: output, input: input, reason: "it is the input")
            }
        }
    }

    /// Throws when the output file `output` is an existing folder (the writer would otherwise blame the format).
    public static func checkNotFolder(_ output: String) throws(ImageIOError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            let name = (output as NSString).appendingPathComponent("NAME.png")
            throw .cannotWrite(file: output, reason: "it is a folder; give the output image's file name, e.g. \(name)")
        }
    }

    /// Throws when `output` exists and is not a regular file (following symlinks).
    public static func checkDestination(_ output: String) throws(Refusal) {
        let kind = InputFile.kind(of: output)
        switch kind {
        case .regular, .unknown: return
        default:
            var info = stat()
            var reason = "it is \(kind.noun)"
            if lstat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
               let target = try? FileManager.default.destinationOfSymbolicLink(atPath: output) {
                reason = "it is a symlink to \(target), \(kind.noun)"
            }
            throw Refusal(output: output, input: "", reason: reason + ", and outputs are written to a temporary file "
                          + "renamed into place, which would replace it by a regular file")
        }
    }

    /// Throws when the output folder `folder` is an input folder or lies inside one (outputs would land among the
    /// originals and a later run would read them as inputs), by resolved path or by device and inode of each folder
    /// on the way up.
    public static func check(inputFolders: [String], outputFolder folder: String) throws(Refusal) {
        for input in inputFolders {
            let inp = identity(input)
            var current = identity(folder).resolved
            while true {
                let here = identity(current)
                if current == inp.resolved || (here.node != nil && here.node == inp.node) {
                    let reason = current == identity(folder).resolved ? "it is the input folder"
                                                                       : "it is inside the input folder"
                    throw Refusal(output: folder, input: input, reason: reason)
                }
                let parent = (current as NSString).deletingLastPathComponent
                if parent == current || parent.isEmpty { break }
                current = parent
            }
        }
    }

    /// A path with symlinks resolved as far as it exists (the rest appended), and its device and inode when it exists.
    static func identity(_ path: String) -> (resolved: String, node: Node?) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = (absolute as NSString).standardizingPath
        var rest: [String] = []
        while realpath(existing, nil) == nil {
            let parent = (existing as NSString).deletingLastPathComponent
            if parent == existing { break }
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = parent
        }
        var resolved = existing
        if let real = realpath(existing, nil) {
            resolved = String(cString: real)
            free(real)
        }
        for component in rest { resolved = (resolved as NSString).appendingPathComponent(component) }
        var info = stat()
        let node = stat(absolute, &info) == 0 ? Node(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) : nil
        return (resolved, node)
    }

    /// A file's identity on its file system.
    struct Node: Equatable {
        let device: UInt64
        let inode: UInt64
    }
}
