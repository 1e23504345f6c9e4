import Foundation
import Testing
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24: folder runs take regular files only, keep non-UTF-8 names' bytes, and never open a FIFO.
@Suite struct ImageFilesTests {
    /// Writes `contents` to `folder/name`, `name` given as raw bytes (FileManager cannot spell a non-UTF-8 name).
    static func write(_ contents: [UInt8], folder: String, name: [UInt8]) throws {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == contents.count)
    }

    @Test("a FIFO, a folder and a symlink to a FIFO are skipped with notes; a non-UTF-8 name is read by its bytes")
    func collectFolder() throws {
        let dir = NSTemporaryDirectory() + "image-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub.png", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        try Self.write(png, folder: dir, name: Array("a.png".utf8))
        let odd: [UInt8] = [UInt8(ascii: "c"), 0xE9, 0xFF] + Array("%.png".utf8)
        try Self.write(png + [9], folder: dir, name: odd)
        #expect(mkfifo(dir + "/b.png", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/d.png", withDestinationPath: dir + "/b.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/e.png", withDestinationPath: dir + "/a.png")
        try Self.write(png, folder: dir, name: Array("notes.txt".utf8))

        var notes: [String] = []
        let files = try ImageFiles.collect([dir], note: { notes.append($0) })
        #expect(files.count == 3, "\(files)")
        #expect(files.first == dir + "/a.png")
        #expect(files.last == dir + "/e.png")
        #expect(notes.contains(dir + "/b.png: skipped, it is a FIFO (named pipe), not an image file"), "\(notes)")
        #expect(notes.contains(dir + "/d.png: skipped, it is a FIFO (named pipe), not an image file"))
        #expect(notes.contains(dir + "/sub.png: skipped, it is a folder, not an image file"))
        #expect(notes.contains(dir + "/c%E9%FF%25.png: the name is not UTF-8; read by its bytes, called "
                               + "c%E9%FF%25.png in messages and output names"), "\(notes)")
        let byBytes = files[1]
        #expect(byBytes.hasPrefix("/proc/self/fd/"))
        #expect(ImageFiles.displayPath(of: byBytes) == dir + "/c%E9%FF%25.png")
        // The path opens the very file whose name is not UTF-8: its bytes are intact.
        #expect(FileManager.default.contents(atPath: byBytes).map { [UInt8]($0) } == png + [9])
    }
}
