import Foundation
import LookStudioTestSupport
import GRDB
import LookModel
import Testing
@testable import LookCatalog

@Suite("Scene correction presets")
struct SceneCorrectionTests {
    @Test("a fresh catalog carries Catalog/scenes.yaml's presets")
    func seededPresets() throws {
        let catalog = try TestSupport.newCatalog()
        #expect(try catalog.scene(label: 8).correction.keepWhite)
        #expect(try catalog.scene(label: 91).correction.whiteBalance == 200)
        let bw = try catalog.scene(label: 100).correction
        #expect(bw.whiteBalance == 0 && bw.vibrance == 0)
        #expect(try catalog.scene(label: 1).correction.protectSkin)
        #expect(try catalog.scene(label: 9).correction.exposure < 100)
        #expect(try catalog.scene(label: 60).correction == CorrectionPreset())
    }

    @Test("the migration's frozen presets equal the seed's, so old and new catalogs agree")
    func migrationMatchesSeed() throws {
        let seed = try Seed.load(from: TestSupport.packageRoot)
        let frozen = Dictionary(uniqueKeysWithValues: try CatalogSchema.shippedPresets.map {
            ($0.0, try JSONDecoder().decode(CorrectionPreset.self, from: Data($0.1.utf8)))
        })
        for scene in seed.scenes {
            #expect((frozen[scene.guid] ?? CorrectionPreset()) == (scene.correction ?? CorrectionPreset()),
                    "scene \(scene.label)")
        }
    }

    @Test("a version-1 catalog opens, upgrades in place with presets, keeps its rows, and verifies")
    func oldCatalogUpgrades() throws {
        let path = "\(try TestSupport.tempDir())/old.sqlite"
        let queue = try DatabaseQueue(path: path)
        try CatalogSchema.migrator.migrate(queue, upTo: "v1-looks-scenes")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO scenes (guid, label, name, workflows, description, default_look_strength)
                VALUES ('DB08D76A-9DE4-4E00-BC5B-CB78CAF76AD9', 8, 'My Backdrops', '["Pro"]', 'renamed by me', 70),
                       ('11111111-2222-3333-4444-555555555555', 42, 'Mine', '["Pro"]', '', 100);
                INSERT INTO seeded_items (guid, kind, seeded_at)
                VALUES ('DB08D76A-9DE4-4E00-BC5B-CB78CAF76AD9', 'scene', '2026-01-01');
                """)
        }
        try queue.close()
        let catalog = try Catalog(path: path, seedDirectory: TestSupport.packageRoot, environment: [:])
        let version = try catalog.dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        #expect(version == CatalogSchema.version)
        let backdrops = try catalog.scene(label: 8)
        #expect(backdrops.name == "My Backdrops" && backdrops.defaultLookStrength == 70)
        #expect(backdrops.correction.keepWhite)
        #expect(try catalog.scene(label: 42).correction == CorrectionPreset())
        #expect(try catalog.scene(label: 91).correction.whiteBalance == 200)
        #expect(try catalog.verify().problems.isEmpty)
    }

    @Test("updateSceneCorrection changes a preset in one transaction and refuses out-of-range strengths")
    func update() throws {
        let catalog = try TestSupport.newCatalog()
        let scene = try catalog.updateSceneCorrection(label: 60) { $0.vibrance = 150; $0.enabled = false }
        #expect(scene.correction.vibrance == 150 && !scene.correction.enabled)
        #expect(try catalog.scene(label: 60).correction == scene.correction)
        #expect(throws: CatalogError.correctionOutOfRange(name: "exposure", value: 300)) {
            try catalog.updateSceneCorrection(label: 60) { $0.exposure = 300; $0.vibrance = 10 }
        }
        #expect(try catalog.scene(label: 60).correction.vibrance == 150)
        #expect(throws: CatalogError.sceneNotFound(77)) { try catalog.updateSceneCorrection(label: 77) { _ in } }
    }

    @Test("missing JSON keys take their defaults")
    func partialJSON() throws {
        let c = try JSONDecoder().decode(CorrectionPreset.self, from: Data(#"{"vibrance": 20}"#.utf8))
        #expect(c == CorrectionPreset(vibrance: 20))
    }

    @Test("scenes set changes a preset and scenes show prints it, as text and JSON")
    func cli() throws {
        guard CLI.available else { Issue.record("build lookstudio first"); return }
        let path = "\(try TestSupport.tempDir())/c.sqlite"
        var r = try CLI.run(["scenes", "set", "91", "--white-balance", "150", "--auto", "off",
                                   "--catalog", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("auto off") && r.stdout.contains("white_balance 150"))
        r = try CLI.run(["scenes", "show", "91", "--json", "--catalog", path])
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let correction = try #require(object?["correction"] as? [String: Any])
        #expect(correction["white_balance"] as? Int == 150 && correction["auto"] as? Bool == false)
        #expect(correction["vibrance"] as? Int == 150)
        r = try CLI.run(["scenes", "show", "91", "--catalog", path])
        #expect(r.stdout.contains("correction:    auto off; exposure 100"))
        r = try CLI.run(["scenes", "set", "91", "--vibrance", "250", "--catalog", path])
        #expect(r.status != 0 && r.stderr.contains("--vibrance"))
        r = try CLI.run(["catalog", "verify", "--catalog", path])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
