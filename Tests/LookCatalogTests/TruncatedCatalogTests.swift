import Foundation
import LookStudioTestSupport
import Testing
@testable import LookCatalog

/// A catalog file cut short (an interrupted copy, a full disk) gets the damaged-catalog advice, not "SQLite error
/// 11", and `catalog recover` says plainly that it could save nothing (issue 56 item 9).
@Suite struct TruncatedCatalogTests {
    static func truncatedCatalog() throws -> String {
        let path = "\(try TestSupport.tempDir())/catalog.sqlite"
        try FileManager.default.copyItem(atPath: try TestSupport.template.get(), toPath: path)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1_000_000)
        try handle.close()
        return path
    }

    @Test func openingSaysTheFileIsCutShort() throws {
        let path = try Self.truncatedCatalog()
        #expect {
            try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        } throws: { error in
            guard case CatalogError.damaged(_, let details) = error else { return false }
            return details.hasPrefix("the file is cut short: 1,000,000 bytes of the ")
        }
    }

    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func cliGivesTheDamagedHintAndRecoverSavesNothingSayingSo() throws {
        let path = try Self.truncatedCatalog()
        let list = try CLI.run(["looks", "list", "--catalog", path])
        #expect(list.status == 1)
        #expect(list.stderr.hasPrefix("error: catalog \(path) is damaged (the file is cut short"), "\(list.stderr)")
        #expect(!list.stderr.contains("SQLite error"))
        let target = URL(fileURLWithPath: path).deletingLastPathComponent().path + "/new.sqlite"
        let recover = try CLI.run(["catalog", "recover", "--to", target, "--catalog", path])
        #expect(recover.status == 1)
        #expect(recover.stderr.hasPrefix("error: nothing could be recovered from \(path): the file is cut short"),
                "\(recover.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
