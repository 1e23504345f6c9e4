import Foundation
import ImageIO
import Testing

/// Every `AtomicFile` temporary is registered while it exists, forgotten once committed or discarded.
@Suite struct TemporaryFilesTests {
    // `TemporaryFiles.removeAll()` is the signal handler's job and deletes every registered file of the process,
    // including other tests' temporaries running at the same time, so it is checked out of process
    // (CLITests/InterruptTests); here a registered file is only registered and forgotten.
    @Test("a temporary is registered until committed or discarded, and forgotten on request")
    func registry() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-temp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let committed = AtomicFile.temporaryPath(for: dir + "/a.png")
        let discarded = AtomicFile.temporaryPath(for: dir + "/b.png")
        #expect(TemporaryFiles.contains(committed) && TemporaryFiles.contains(discarded))
        #expect(FileManager.default.createFile(atPath: committed, contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: discarded, contents: Data([2])))
        try AtomicFile.commit(temporary: committed, to: dir + "/a.png")
        AtomicFile.discard(temporary: discarded)
        #expect(!TemporaryFiles.contains(committed) && !TemporaryFiles.contains(discarded))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.png"])

        let left = dir + "/left.tmp"
        let slot = TemporaryFiles.register(left)
        #expect(FileManager.default.createFile(atPath: left, contents: Data([3])))
        #expect(slot >= 0 && TemporaryFiles.contains(left))
        TemporaryFiles.forget(slot)
        #expect(FileManager.default.fileExists(atPath: left))
        #expect(!TemporaryFiles.contains(left))
    }

    @Test("a failed write removes and forgets its temporary", arguments: ["png", "jpg", "tif", "webp"])
    func failedWriteForgets(ext: String) throws {
        let dir = NSTemporaryDirectory() + "lookstudio-temp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The output folder does not exist: the temporary cannot be created, or is removed.
        let image = try PixelBuffer(width: 2, height: 2, channels: 3, samples: .eight([UInt8](repeating: 7, count: 12)))
        #expect(throws: ImageIOError.self) { try ImageFormat.write(image, to: dir + "/sub/o." + ext) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
