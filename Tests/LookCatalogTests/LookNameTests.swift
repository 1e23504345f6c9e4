import Foundation
import LookModel
import LookStudioTestSupport
import GRDB
import LookCore
import Testing
@testable import LookCatalog

/// The one naming rule (README "Names") and terminal-safe printing of text that came from files.
@Suite struct LookNameTests {
    static func add(_ catalog: Catalog, _ name: String, tags: [String] = [], seed: Int) throws -> LookRecord {
        try catalog.addLook(NewLook(cube: try TestSupport.cube(seed: seed), name: name, tags: tags,
                                    sourceFormat: "cube")).record
    }

    @Test func namesThatReadAsGUIDsOrVersionsAreRefused() throws {
        let catalog = try TestSupport.newCatalog()
        for name in ["7C7C394C", "7c7c394c", "2DA54C60-1F05-4E56-A1FF-9B21A272704C", "1234-5678", "Warm@2"] {
            #expect(throws: CatalogError.self, "\(name)") { try Self.add(catalog, name, seed: 11) }
        }
        #expect("\(CatalogError.badName("7C7C394C", LookName.problem(name: "7C7C394C") ?? ""))"
            .contains("reads as a GUID"))
        // Short hex, hex with other letters and version-like text in the middle are ordinary names.
        for (i, name) in ["CAFE", "Deadbeef Film", "Warm@2 soft", "2024-05 grade"].enumerated() {
            #expect(try Self.add(catalog, name, seed: 20 + i).name == name)
        }
        // Tags are never resolved as GUIDs, so hex tags are fine.
        #expect(try Self.add(catalog, "Tagged", tags: ["deadbeef"], seed: 30).tags == ["deadbeef"])
    }

    @Test func controlCharactersAndOverlongNamesAreRefusedInNamesAndTags() throws {
        let catalog = try TestSupport.newCatalog()
        for bad in ["a\u{1B}[31mred", "bell\u{07}", "two\nlines", "del\u{7F}", "c1\u{85}", "osc\u{1B}]0;x\u{07}",
                    "rtl\u{202E}txt", String(repeating: "x", count: 201)] {
            #expect(throws: CatalogError.self) { try Self.add(catalog, bad, seed: 12) }
            #expect(throws: CatalogError.self) { try Self.add(catalog, "fine", tags: [bad], seed: 13) }
        }
        let message = "\(CatalogError.badName("a\u{1B}[31m", LookName.problem(text: "a\u{1B}[31m") ?? ""))"
        #expect(!message.unicodeScalars.contains("\u{1B}") && message.contains("\\u{1B}"))
        #expect(try Self.add(catalog, String(repeating: "é", count: 200), seed: 14).name.count == 200)
        #expect(try catalog.looks().count == 7)
    }

    @Test func guidsResolveBeforeNames() throws {
        let catalog = try TestSupport.newCatalog()
        let target = try Self.add(catalog, "Target", seed: 15)
        let prefix = String(target.guid.prefix(8))
        // A look named like another's GUID prefix, as an older build allowed.
        let legacy = try Self.add(catalog, "Legacy", seed: 16)
        try DatabaseQueue(path: catalog.path).write { db in
            try db.execute(sql: "UPDATE looks SET name = ? WHERE guid = ?", arguments: [prefix, legacy.guid])
        }
        #expect(try catalog.resolveLook(prefix).guid == target.guid)
        // With no GUID starting so, the old hex name is still found.
        try DatabaseQueue(path: catalog.path).write { db in
            try db.execute(sql: "UPDATE looks SET name = 'ABCDEF98' WHERE guid = ?", arguments: [legacy.guid])
        }
        #expect(try catalog.resolveLook("abcdef98").guid == legacy.guid)
    }

    @Test func terminalTextEscapesControlsOnly() {
        #expect(MessageText.quote("plain é ✓") == "plain é ✓")
        #expect(MessageText.quote("a\u{1B}]0;t\u{07}b\nc\u{9B}") == "a\\u{1B}]0;t\\u{7}b\\u{A}c\\u{9B}")
        #expect(MessageText.quote("x\ny\tz\u{1B}", keepNewlines: true) == "x\ny\tz\\u{1B}")
        #expect(MessageText.hasControl("\u{2029}") && !MessageText.hasControl("ok"))
    }

    @Test(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
    func cliPrintsFileTextEscaped() throws {
        let catalog = try TestSupport.newCatalog()
        let look = try Self.add(catalog, "Evil", tags: ["t"], seed: 17)
        try DatabaseQueue(path: catalog.path).write { db in
            try db.execute(sql: "UPDATE looks SET name = ?, description = ? WHERE guid = ?",
                           arguments: ["Evil\u{1B}]0;pwned\u{07}", "line\u{1B}[2J", look.guid])
            try db.execute(sql: "UPDATE look_tags SET tag = ? WHERE look_guid = ?",
                           arguments: ["t\u{1B}[5m", look.guid])
        }
        let list = try CLI.run(["looks", "list", "--catalog", catalog.path])
        let show = try CLI.run(["looks", "show", look.guid, "--catalog", catalog.path])
        for result in [list, show] {
            #expect(result.status == 0, "\(result.stderr)")
            let scalars = result.stdout.unicodeScalars
            #expect(!scalars.contains("\u{1B}") && !scalars.contains("\u{07}"))
            #expect(result.stdout.contains("Evil\\u{1B}]0;pwned\\u{7}"))
        }
        #expect(show.stdout.contains("line\\u{1B}[2J") && show.stdout.contains("t\\u{1B}[5m"))
        let dir = try TestSupport.tempDir()
        var text = "TITLE \"Nice\u{1B}]0;owned\u{07}\"\nLUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { text += "\(r) \(g) \(b)\n" } } }
        try text.write(toFile: dir + "/evil.cube", atomically: true, encoding: .utf8)
        let inspect = try CLI.run(["inspect", dir + "/evil.cube"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(!inspect.stdout.unicodeScalars.contains("\u{1B}") && inspect.stdout.contains("Nice\\u{1B}]0;owned"))
    }
}
