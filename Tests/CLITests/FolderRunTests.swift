import Foundation
import LookStudioTestSupport
import ImageIO
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24: a FIFO named `b.png` in an input folder hung `correct` for ever; a non-UTF-8 name was found and then
/// "cannot open (no such file)".
@Suite struct FolderRunTests {
    @Test("correct over a folder: the FIFO is skipped with a note, the non-UTF-8 name is corrected, no hang")
    func fifoAndNonUTF8Name() throws {
        let (dir, catalog) = try CorrectBatchTests.setUp(count: 1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/in/b.png", 0o600) == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/in/img00.png")))
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let path = Array((dir + "/in/").utf8) + name + [0]
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)

        let started = Date()
        let run = try CLI.run(["timeout", "120", CLI.binary, "correct", dir + "/in", "-o", dir + "/out",
                               "--scene", "8"] + catalog, executable: "/usr/bin/env")
        #expect(Date().timeIntervalSince(started) < 100)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("note: \(dir)/in/b.png: skipped, it is a FIFO (named pipe), not an image file"),
                "\(run.stderr)")
        #expect(run.stderr.contains("note: \(dir)/in/caf%E9.png: the name is not UTF-8"))
        let plain = try PNGImage.read(path: dir + "/out/img00.png")
        let odd = try PNGImage.read(path: dir + "/out/caf%E9.png")
        #expect(plain == odd)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/b.png"))
    }
}

/// A folder run that writes nothing leaves no folder it made.
@Suite struct EmptyFolderRunTests {
    @Test("correct of a missing input into a new folder fails and leaves no empty folder")
    func noEmptyOutputFolder() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["correct", dir + "/missing/", "-o", dir + "/out/", "--no-look", "--catalog",
                             dir + "/c.sqlite"])
        #expect(r.status != 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"), "an empty out/ was left")
        try FileManager.default.createDirectory(atPath: dir + "/kept", withIntermediateDirectories: false)
        _ = try CLI.run(["correct", dir + "/missing.png", "-o", dir + "/kept/", "--no-look", "--catalog",
                         dir + "/c.sqlite"])
        #expect(FileManager.default.fileExists(atPath: dir + "/kept"), "a folder the user made is kept")
    }
}
