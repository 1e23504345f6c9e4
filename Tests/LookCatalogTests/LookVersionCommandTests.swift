import Foundation
import LookStudioTestSupport
import Testing
@testable import LookCatalog

/// The CLI side of revisable looks: update, versions, apply GUID@N, rename, tag, guarded rm, import of known cubes.
@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct LookVersionCommandTests {
    static func cubeFile(_ dir: String, _ name: String, seed: Int) throws -> String {
        let path = "\(dir)/\(name).cube"
        _ = try LookFile.write(try TestSupport.cube(size: 9, seed: seed), to: path, layout: nil, bits: nil, size: nil,
                               title: nil)
        return path
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func aSceneTakesALooksCurrentVersionAndRefusesAnOlderOne() throws {
        let dir = try TestSupport.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", "\(dir)/c.sqlite"]
        let v1 = try Self.cubeFile(dir, "grade", seed: 62), v2 = try Self.cubeFile(dir, "grade2", seed: 63)
        #expect(try CLI.run(["import", v1, "--name", "Grade"] + catalog).status == 0)
        #expect(try CLI.run(["looks", "update", "Grade", v2] + catalog).status == 0)
        let old = try CLI.run(["scenes", "set-look", "91", "Grade@1"] + catalog)
        #expect(old.status == 64 && old.stderr.contains("names version 1 of \"Grade\""), "\(old.stderr)")
        let shown = try CLI.run(["scenes", "show", "91"] + catalog)
        #expect(!shown.stdout.contains("Grade"), "the scene was not changed: \(shown.stdout)")
        let current = try CLI.run(["scenes", "set-look", "91", "Grade@2"] + catalog)
        #expect(current.status == 0 && current.stdout.contains("Grade"), "\(current.stderr)")
    }

    @Test func updateVersionsAndApplyAnOlderVersion() throws {
        let dir = try TestSupport.tempDir()
        let catalog = ["--catalog", "\(dir)/c.sqlite"]
        let v1 = try Self.cubeFile(dir, "grade", seed: 60), v2 = try Self.cubeFile(dir, "grade2", seed: 61)
        let imported = try CLI.run(["import", v1, "--name", "Grade"] + catalog)
        #expect(imported.status == 0, "\(imported.stderr)")
        let guid = imported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try CLI.run(["generate", "--size", "16", "-o", "\(dir)/in.png"]).status == 0)
        #expect(try CLI.run(["apply", "--look", "Grade", "\(dir)/in.png", "\(dir)/before.png"] + catalog)
            .status == 0)

        let update = try CLI.run(["looks", "update", "Grade", v2] + catalog)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("version 2 stored") && update.stdout.contains("\(guid)@1"))
        let again = try CLI.run(["looks", "update", guid, v2] + catalog)
        #expect(again.status == 0 && again.stdout.hasPrefix("unchanged"))

        let versions = try CLI.run(["looks", "versions", "Grade", "--json"] + catalog)
        let list = try #require(try Self.json(versions.stdout) as? [[String: Any]])
        #expect(list.map { $0["version"] as? Int } == [1, 2])
        #expect(list.map { $0["current"] as? Bool } == [false, true])
        let show = try #require(try Self.json(CLI.run(["looks", "show", "Grade", "--json"] + catalog).stdout)
            as? [String: Any])
        #expect(show["version"] as? Int == 2 && show["guid"] as? String == guid)

        for (ref, out) in [("\(guid)@1", "old"), ("Grade@2", "new"), ("Grade", "current")] {
            let r = try CLI.run(["apply", "--look", ref, "\(dir)/in.png", "\(dir)/\(out).png"] + catalog)
            #expect(r.status == 0, "\(ref): \(r.stderr)")
        }
        #expect(TestSupport.bytes("\(dir)/old.png") == TestSupport.bytes("\(dir)/before.png"))
        #expect(TestSupport.bytes("\(dir)/new.png") == TestSupport.bytes("\(dir)/current.png"))
        #expect(TestSupport.bytes("\(dir)/new.png") != TestSupport.bytes("\(dir)/old.png"))
        let missing = try CLI.run(["apply", "--look", "Grade@7", "\(dir)/in.png", "\(dir)/x.png"] + catalog)
        #expect(missing.status == 1 && missing.stderr.contains("has no version 7; its versions are 1, 2"))
    }

    @Test func renameTagUntagAndGuardedRemove() throws {
        let dir = try TestSupport.tempDir()
        let catalog = ["--catalog", "\(dir)/c.sqlite"]
        let file = try Self.cubeFile(dir, "look", seed: 62)
        let guid = try CLI.run(["import", file, "--name", "Mine"] + catalog).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let rename = try CLI.run(["looks", "rename", "Mine", "Yours"] + catalog)
        #expect(rename.status == 0 && rename.stdout.contains("Mine → Yours"))
        let hex = try CLI.run(["looks", "rename", guid, "7C7C394C"] + catalog)
        #expect(hex.status == 1 && hex.stderr.contains("reads as a GUID"))
        #expect(try CLI.run(["looks", "tag", "Yours", "client", "warm"] + catalog).stdout
            .contains("tags client, warm"))
        #expect(try CLI.run(["looks", "untag", "Yours", "WARM"] + catalog).stdout.contains("tags client"))
        let scene = try CLI.run(["scenes", "set-look", "100", guid] + catalog)
        #expect(scene.status == 0, "\(scene.stderr)")
        let refused = try CLI.run(["looks", "rm", "Yours"] + catalog)
        #expect(refused.status == 1 && refused.stderr.contains("default look of scene 100"))
        let forced = try CLI.run(["looks", "rm", "Yours", "--force"] + catalog)
        #expect(forced.status == 0 && forced.stderr.contains("cleared the default look of scenes 100"))
    }

    @Test func importingAKnownCubeAppliesTagsAndSaysSo() throws {
        let dir = try TestSupport.tempDir()
        let catalog = ["--catalog", "\(dir)/c.sqlite"]
        let file = try Self.cubeFile(dir, "warm", seed: 63)
        let first = try CLI.run(["import", file] + catalog)
        let guid = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let again = try CLI.run(["import", file, "--name", "Fancy", "--tag", "portrait", "--json"] + catalog)
        #expect(again.status == 0)
        #expect(again.stderr.contains("already in the catalog as warm (\(guid)); nothing was stored; tags added: "
            + "portrait. --name Fancy was not applied"), "\(again.stderr)")
        let item = try #require((try Self.json(again.stdout) as? [[String: Any]])?.first)
        #expect(item["status"] as? String == "existing" && item["tags_added"] as? [String] == ["portrait"])
        #expect(item["version"] as? Int == 1)
        let show = try #require(try Self.json(CLI.run(["looks", "show", guid, "--json"] + catalog).stdout)
            as? [String: Any])
        #expect(show["tags"] as? [String] == ["portrait"] && show["name"] as? String == "warm")
        // An imported look has no description: null, as every empty value in the JSON contract.
        #expect(show["description"] is NSNull, "\(String(describing: show["description"]))")
        let separate = try CLI.run(["import", file, "--as-new", "--name", "Fancy"] + catalog)
        #expect(separate.status == 0, "\(separate.stderr)")
        let newGUID = separate.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(newGUID != guid && newGUID.count == 36)
        #expect(try CLI.run(["catalog", "verify"] + catalog).status == 0)
    }
}
