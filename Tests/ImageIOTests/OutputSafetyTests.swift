import Foundation
import ImageIO
import Testing

/// An output that is an input (by path, link or inode) and an output folder at or inside an input folder are refused.
@Suite struct OutputSafetyTests {
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-safety-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/shoot/sub", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/shoot/in.jpg", contents: Data([1, 2, 3])))
        return dir
    }

    @Test("the same file by path, relative path, symlink or hard link is refused")
    func sameFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/shoot/in.jpg"
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.jpg", withDestinationPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: dir + "/hard.jpg")
        try FileManager.default.createSymbolicLink(atPath: dir + "/shootlink", withDestinationPath: dir + "/shoot")
        for output in [input, dir + "/shoot/sub/../in.jpg", dir + "/link.jpg", dir + "/hard.jpg",
                       dir + "/shootlink/in.jpg"] {
            #expect(throws: OutputSafety.Refusal.self, "\(output)") {
                try OutputSafety.check(inputs: [dir + "/other.png", input], output: output)
            }
        }
        do {
            try OutputSafety.check(inputs: [input], output: dir + "/hard.jpg")
            Issue.record("a hard link was accepted")
        } catch {
            #expect(error.description.contains("same file"), "\(error)")
            #expect(error.description.contains(input) && error.description.contains(dir + "/hard.jpg"))
        }
    }

    @Test("a different file, existing or not, is accepted")
    func differentFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/copy.jpg", contents: Data([1, 2, 3])))
        try OutputSafety.check(inputs: [dir + "/shoot/in.jpg"], output: dir + "/copy.jpg")
        try OutputSafety.check(inputs: [dir + "/shoot/in.jpg"], output: dir + "/shoot/out.jpg")
        try OutputSafety.check(inputs: [dir + "/shoot/in.jpg"], output: dir + "/missing/out.jpg")
    }

    @Test("an output folder equal to or inside an input folder is refused; a sibling is accepted")
    func folders() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/shootlink", withDestinationPath: dir + "/shoot")
        for output in [dir + "/shoot", dir + "/shoot/", dir + "/shoot/sub", dir + "/shoot/new/deeper",
                       dir + "/shootlink/sub"] {
            #expect(throws: OutputSafety.Refusal.self, "\(output)") {
                try OutputSafety.check(inputFolders: [dir + "/shoot"], outputFolder: output)
            }
        }
        try OutputSafety.check(inputFolders: [dir + "/shoot"], outputFolder: dir + "/shoot-out")
        try OutputSafety.check(inputFolders: [dir + "/shoot/sub"], outputFolder: dir + "/shoot")
    }
}
