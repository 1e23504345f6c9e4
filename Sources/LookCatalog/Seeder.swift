import Foundation
import GRDB
import LookCore
import LookFormats
import LookModel
import Yams
import YAMLScreen

/// The shipped seed: the scene catalogue (`Catalog/scenes.yaml`) and the shipped looks (`Looks/*.yaml` + PNG).
public struct Seed: Sendable, Equatable {
    /// One entry of `Catalog/scenes.yaml`.
    public struct Scene: Sendable, Equatable, Codable {
        public var guid: String
        public var label: Int
        public var name: String
        public var workflows: [String]
        public var description: String
        public var defaultLook: String?
        public var defaultLookStrength: Int?
        /// The scene's automatic-correction preset (nil: every correction at 100).
        public var correction: CorrectionPreset?

        enum CodingKeys: String, CodingKey {
            case guid, label, name, workflows, description, correction
            case defaultLook = "default_look"
            case defaultLookStrength = "default_look_strength"
        }
    }

    /// One `Looks/NAME.yaml`: metadata of a shipped look whose cube is in `file` (a PNG beside it).
    public struct Look: Sendable, Equatable, Codable {
        public var guid: String
        public var name: String
        public var description: String
        public var tags: [String]
        public var file: String
        public var size: Int
        public var layout: String
        /// The recipe the look was composed from (its `recipe:` key, as YAML), or nil for a colour-function look.
        public var recipeYAML: String?

        enum CodingKeys: String, CodingKey {
            case guid, name, description, tags, file, size, layout
        }
    }

    private struct SceneFile: Codable {
        var scenes: [Scene]
    }

    /// The seed folder (holding Catalog/ and Looks/).
    public var directory: String
    /// Scenes, in file order.
    public var scenes: [Scene]
    /// Shipped looks, by file name.
    public var looks: [Look]

    /// Reads and checks the YAML files of the seed in `directory` (PNG files are read only when seeded).
    public static func load(from directory: String) throws -> Seed {
        let scenes = try loadScenes(from: directory)
        let looksDir = "\(directory)/Looks"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: looksDir)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        var looks: [Look] = []
        for file in files {
            let path = "\(looksDir)/\(file)"
            do {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try screen(text, file: path)
                var look = try YAMLDecoder().decode(Look.self, from: text)
                look.recipeYAML = try recipe(in: text)
                guard UUID(uuidString: look.guid) != nil, look.guid == look.guid.uppercased() else {
                    throw CatalogError.badSeed(file: path, "guid \"\(look.guid)\" is not an uppercase UUID")
                }
                looks.append(look)
            } catch let error as CatalogError {
                throw error
            } catch {
                throw CatalogError.badSeed(file: path, "\(error)")
            }
        }
        return Seed(directory: directory, scenes: scenes, looks: looks)
    }

    /// Reads and checks the seed's `Catalog/scenes.yaml` alone (what a LUT-file run needs: the scene presets,
    /// without decoding every shipped look's YAML).
    public static func loadScenes(from directory: String) throws -> [Scene] {
        let scenesPath = "\(directory)/Catalog/scenes.yaml"
        let text: String
        do {
            text = try String(contentsOfFile: scenesPath, encoding: .utf8)
        } catch {
            throw CatalogError.badSeed(file: scenesPath, "\(error)")
        }
        let scenes = try parseScenes(text, file: scenesPath)
        for scene in scenes {
            do {
                try scene.correction?.validateForCatalog()
            } catch {
                throw CatalogError.badSeed(file: scenesPath, "scene \(scene.label): \(error)")
            }
        }
        return scenes
    }

    /// Parses and checks the text of a `scenes.yaml`; `file` labels errors.
    public static func parseScenes(_ text: String, file: String) throws -> [Scene] {
        try screen(text, file: file)
        let scenes: [Scene]
        do {
            scenes = try YAMLDecoder().decode(SceneFile.self, from: text).scenes
        } catch {
            throw CatalogError.badSeed(file: file, "\(error)")
        }
        for scene in scenes where UUID(uuidString: scene.guid) == nil || scene.guid != scene.guid.uppercased() {
            throw CatalogError.badSeed(file: file, "scene \(scene.label): guid \"\(scene.guid)\" is not an uppercase UUID")
        }
        return scenes
    }

    /// Refuses YAML that Yams would take exponential time or unbounded memory over (``YAMLScreen``).
    static func screen(_ text: String, file: String) throws {
        if let problem = YAMLScreen.problem(in: text) {
            throw CatalogError.badSeed(file: file, "line \(problem.line): \(problem.message)")
        }
    }

    /// The `recipe:` mapping of a shipped look's YAML, re-serialised as a recipe document of its own.
    static func recipe(in text: String) throws -> String? {
        guard let node = try Yams.compose(yaml: text)?.mapping?["recipe"] else { return nil }
        return try Yams.serialize(node: node)
    }

    /// Names, sizes and modification times of the seed's files: changes whenever a file is added or edited.
    public static func fingerprint(of directory: String) -> String {
        let fm = FileManager.default
        let looks = ((try? fm.contentsOfDirectory(atPath: "\(directory)/Looks")) ?? []).sorted().map { "Looks/\($0)" }
        return (["Catalog/scenes.yaml"] + looks).map { name in
            let attributes = try? fm.attributesOfItem(atPath: "\(directory)/\(name)")
            let size = attributes?[.size] as? Int ?? -1
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(name):\(size):\(time)"
        }.joined(separator: ";")
    }

    /// Decodes a shipped look's PNG.
    func cube(of look: Look) throws -> ColorCube {
        let path = "\(directory)/Looks/\(look.file)"
        let cube = try CubeImage.read(path: path, layout: CubeLayout(rawValue: look.layout)).cube
        guard cube.size == look.size else {
            throw CatalogError.badSeed(file: path, "holds a \(cube.size)³ cube, its YAML says \(look.size)³")
        }
        return cube
    }
}

/// Adds the seed items a catalog has never had, remembering each seeded GUID in `seeded_items` so that a look or
/// scene the user removed is not brought back, while items added to a later shipped set still arrive.
enum Seeder {
    static func apply(_ seed: Seed, fingerprint: String, to queue: DatabaseQueue, path: String,
                      report: inout Catalog.OpenReport) throws {
        let seeded = try Catalog.mapErrors(path) {
            try queue.read { try Set(String.fetchAll($0, sql: "SELECT guid FROM seeded_items")) }
        }
        let missingLooks = seed.looks.filter { !seeded.contains($0.guid) }
        let missingScenes = seed.scenes.filter { !seeded.contains($0.guid) }

        // PNG decoding and encoding happen before the write transaction, to keep the lock short.
        var prepared: [(Seed.Look, LookBlob.Encoded, ColorCube)] = []
        for look in missingLooks {
            let cube = try seed.cube(of: look)
            prepared.append((look, try LookBlob.encode(cube), cube))
        }
        var warnings: [String] = []
        var addedLooks: [String] = []
        var addedScenes: [Int] = []
        try Catalog.mapErrors(path) {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    // Re-read inside the lock: another process may have seeded meanwhile.
                    let done = try Set(String.fetchAll(db, sql: "SELECT guid FROM seeded_items"))
                    let now = Date()
                    for (look, blob, cube) in prepared where !done.contains(look.guid) {
                        if try Catalog.nameTaken(db, look.name) {
                            warnings.append("shipped look \"\(look.name)\" not added: a look has that name")
                        } else if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM looks WHERE content_hash = ?)",
                                                    arguments: [blob.hash]) == true {
                            warnings.append("shipped look \"\(look.name)\" not added: the same cube is already stored")
                        } else {
                            let record = LookRecord(
                                guid: look.guid, name: look.name, cubeSize: cube.size, layout: blob.layout,
                                contentHash: blob.hash, sourceFormat: "shipped", sourceFile: look.file,
                                description: look.description, recipeYAML: look.recipeYAML, createdAt: now,
                                tags: try Catalog.cleanTags(look.tags))
                            try Catalog.insert(db, record, blob: blob)
                            addedLooks.append(look.guid)
                        }
                        try db.execute(sql: "INSERT INTO seeded_items (guid, kind, seeded_at) VALUES (?, 'look', ?)",
                                       arguments: [look.guid, now])
                    }
                    for scene in missingScenes where !done.contains(scene.guid) {
                        let labelTaken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM scenes WHERE label = ?)",
                                                           arguments: [scene.label]) ?? false
                        if labelTaken {
                            warnings.append("shipped scene \(scene.label) not added: a scene has that label")
                        } else {
                            var lookGuid = scene.defaultLook?.uppercased()
                            if let guid = lookGuid, try Catalog.fetchLook(db, guid: guid) == nil {
                                warnings.append("scene \(scene.label): default look \(guid) is not in the catalog")
                                lookGuid = nil
                            }
                            let record = SceneRecord(
                                guid: scene.guid, label: scene.label, name: scene.name, workflows: scene.workflows,
                                description: scene.description, defaultLookGuid: lookGuid,
                                defaultLookStrength: min(max(scene.defaultLookStrength ?? 100, 0), 200),
                                correction: scene.correction ?? CorrectionPreset())
                            try record.insert(db)
                            addedScenes.append(scene.label)
                        }
                        try db.execute(sql: "INSERT INTO seeded_items (guid, kind, seeded_at) VALUES (?, 'scene', ?)",
                                       arguments: [scene.guid, now])
                    }
                    try db.execute(sql: "INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('seed_fingerprint', ?)",
                                   arguments: [fingerprint])
                    return .commit
                }
            }
        }
        report.seededLooks = addedLooks
        report.seededScenes = addedScenes
        report.warnings = warnings
    }
}
