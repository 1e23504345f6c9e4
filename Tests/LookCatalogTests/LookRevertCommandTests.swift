import Foundation
import LookStudioTestSupport
import Testing

/// `looks revert LOOK@N`: an older version made current again, as a new version, with its recipe.
@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct LookRevertCommandTests {
    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func revertBringsBackAnOlderCubeWithItsRecipeTagsAndDescription() throws {
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", "\(dir)/c.sqlite"]
        try "name: Grade\nsize: 17\nsteps:\n  - adjust: tone.contrast\n    params: { amount: 0.3 }\n"
            .write(toFile: "\(dir)/grade.yaml", atomically: true, encoding: .utf8)
        let saved = try CLI.run(["compose", "\(dir)/grade.yaml", "--save"] + catalog)
        #expect(saved.status == 0, "\(saved.stderr)")
        let guid = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try CLI.run(["looks", "tag", guid, "client"] + catalog).status == 0)
        let v1 = Self.json(try CLI.run(["looks", "show", guid, "--json"] + catalog).stdout)

        // Version 2 from a LUT file has no recipe: a rebuild refuses it.
        let cube = "\(dir)/other.cube"
        try "steps:\n  - adjust: tone.gamma\n    params: { gamma: 1.4 }\n"
            .write(toFile: "\(dir)/other.yaml", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compose", "\(dir)/other.yaml", "--size", "17", "-o", cube] + catalog).status == 0)
        #expect(try CLI.run(["looks", "update", guid, cube] + catalog).status == 0)
        #expect(try CLI.run(["looks", "rebuild", guid] + catalog).status != 0)

        let reverted = try CLI.run(["looks", "revert", "\(guid)@1"] + catalog)
        #expect(reverted.status == 0, "\(reverted.stderr)")
        #expect(reverted.stdout.contains("version 3 stored from \(guid)@1"), "\(reverted.stdout)")
        let v3 = Self.json(try CLI.run(["looks", "show", guid, "--json"] + catalog).stdout)
        #expect(v3["version"] as? Int == 3)
        #expect(v3["content_hash"] as? String == v1["content_hash"] as? String)
        #expect(v3["recipe_yaml"] as? String == v1["recipe_yaml"] as? String && v1["recipe_yaml"] is String)
        #expect(v3["tags"] as? [String] == v1["tags"] as? [String])
        #expect(v3["description"] as? String == v1["description"] as? String)
        let rebuilt = try CLI.run(["looks", "rebuild", guid] + catalog)
        #expect(rebuilt.status == 0 && rebuilt.stdout.hasPrefix("unchanged"), "\(rebuilt.stdout)\(rebuilt.stderr)")
        let versions = try CLI.run(["looks", "versions", guid] + catalog)
        #expect(versions.stdout.split(separator: "\n").count == 3)
    }

    @Test func revertRefusesTheCurrentVersionAndAReferenceWithoutOne() throws {
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", "\(dir)/c.sqlite"]
        let current = try CLI.run(["looks", "revert", "Warm Film@1"] + catalog)
        #expect(current.status == 64 && current.stderr.contains("is the current version (1)"), "\(current.stderr)")
        let bare = try CLI.run(["looks", "revert", "Warm Film"] + catalog)
        #expect(bare.status == 64 && bare.stderr.contains("LOOK@N"), "\(bare.stderr)")
    }
}
