import Foundation
import ImageIO
import Testing

/// `InPlace`: the backup is kept before the original is replaced, removed again on failure, never overwritten.
@Suite struct InPlaceTests {
    @Test("backup names: NAME.orig.EXT, recognised as backups")
    func names() {
        #expect(InPlace.backupPath(for: "/a/b/photo.jpg") == "/a/b/photo.orig.jpg")
        #expect(InPlace.backupPath(for: "photo") == "photo.orig")
        #expect(InPlace.isBackup("photo.orig.jpg") && !InPlace.isBackup("photo.jpg") && !InPlace.isBackup(".orig.jpg"))
    }

    @Test("replace keeps the original, undoes the backup when the write fails, and refuses an existing backup")
    func replace() throws {
        let dir = NSTemporaryDirectory() + "inplace-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/p.png", backup = dir + "/p.orig.png"
        try AtomicFile.write(Data("original".utf8), to: path)
        struct Failure: Error {}
        #expect(throws: Failure.self) { try InPlace.replace(path, backup: true) { throw Failure() } }
        #expect(!FileManager.default.fileExists(atPath: backup), "no backup left by a failed write")
        let kept = try InPlace.replace(path, backup: true) { try AtomicFile.write(Data("graded".utf8), to: path) }.backup
        #expect(kept == backup)
        #expect(FileManager.default.contents(atPath: backup) == Data("original".utf8))
        #expect(FileManager.default.contents(atPath: path) == Data("graded".utf8))
        var ran = false
        #expect(throws: ImageIOError.self) { try InPlace.replace(path, backup: true) { ran = true } }
        #expect(!ran, "nothing is written when the backup exists")
        #expect(FileManager.default.contents(atPath: backup) == Data("original".utf8))
    }
}
