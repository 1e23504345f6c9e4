import Foundation
import GRDB
import LookCore
import LookModel
import Yams

extension Catalog {
    /// Stores `new`'s cube (with its source, recipe and working space) as the next version of the look `guid`,
    /// in one transaction; the older version stays readable as `GUID@N`. The name, tags and GUID of `new` are
    /// not used: the look keeps its own; its description is replaced only when `description` is given (a refit's
    /// new provenance). Refused when another look's current cube is the same.
    @discardableResult
    public func saveVersion(guid: String, _ new: NewLook, description: String? = nil) throws -> VersionOutcome {
        let key = guid.uppercased()
        let blob = try LookBlob.encode(new.cube)
        let outcome: VersionOutcome = try write { db in
            let before = try Catalog.lookTakingCube(db, guid: guid, hash: blob.hash)
            if before.contentHash == blob.hash { return VersionOutcome(before: before, after: before) }
            try db.execute(sql: """
                INSERT INTO look_versions (look_guid, version, cube_size, png, layout, value_min, value_max,
                                           content_hash, source_format, source_file, recipe_yaml, working_space,
                                           working_space_icc, created_at)
                SELECT guid, version, cube_size, png, layout, value_min, value_max, content_hash, source_format,
                       source_file, recipe_yaml, working_space, working_space_icc,
                       coalesce(version_created_at, created_at)
                FROM looks WHERE guid = ?
                """, arguments: [key])
            try db.execute(sql: """
                UPDATE looks SET png = ?, layout = ?, value_min = ?, value_max = ?, cube_size = ?, content_hash = ?,
                                 source_format = ?, source_file = ?, recipe_yaml = ?, working_space = ?,
                                 working_space_icc = ?, version = version + 1, version_created_at = ?,
                                 description = coalesce(?, description)
                WHERE guid = ?
                """, arguments: [Data(blob.png), blob.layout, blob.range.lower, blob.range.upper, new.cube.size,
                                 blob.hash, new.sourceFormat, new.sourceFile, new.recipeYAML, new.workingSpace,
                                 new.workingSpaceICC.map { Data($0) }, Date(), description, key])
            return VersionOutcome(before: before, after: try Catalog.fetchLook(db, guid: key) ?? before)
        }
        cache.remove(key)
        return outcome
    }

    /// Every version of the look, oldest first (the last is current).
    public func versions(guid: String) throws -> [LookVersion] {
        let key = guid.uppercased()
        return try read { db in
            guard let current = try Row.fetchOne(db, sql: """
                SELECT version, cube_size, content_hash, source_format, source_file,
                       coalesce(version_created_at, created_at) AS at FROM looks WHERE guid = ?
                """, arguments: [key]) else { throw CatalogError.lookNotFound(guid) }
            let older = try Row.fetchAll(db, sql: """
                SELECT version, cube_size, content_hash, source_format, source_file, created_at AS at
                FROM look_versions WHERE look_guid = ? ORDER BY version
                """, arguments: [key])
            return (older + [current]).map { row in
                LookVersion(version: row["version"], cubeSize: row["cube_size"], contentHash: row["content_hash"],
                            sourceFormat: row["source_format"], sourceFile: row["source_file"], createdAt: row["at"],
                            isCurrent: row == current)
            }
        }
    }

    /// The cube of exactly this record's version (an older one for `GUID@N`); cached like `cube(guid:)`.
    public func cube(_ record: LookRecord) throws -> ColorCube {
        if record.isCurrentVersion { return try cube(guid: record.guid) }
        let key = "\(record.guid.uppercased())@\(record.version)"
        if let cached = cache.cube(key, hash: record.contentHash) { return cached }
        let row = try read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(LookBlob.columns) FROM look_versions WHERE look_guid = ? AND version = ?
                """, arguments: [record.guid.uppercased(), record.version])
        }
        guard let row else { throw CatalogError.versionNotFound(guid: record.guid, version: record.version,
                                                                 available: []) }
        let cube = try decodeBlob(row, guid: key)
        cache.store(cube, for: key, hash: record.contentHash)
        return cube
    }

    /// The record of version `version` of `current`'s look: the older version's cube, source and recipe with the
    /// look's name, tags and description.
    static func fetchVersion(_ db: Database, of current: LookRecord, version: Int) throws -> LookRecord {
        if version == current.version { return current }
        guard let row = try Row.fetchOne(db, sql: """
            SELECT cube_size, layout, content_hash, source_format, source_file, recipe_yaml, working_space,
                   working_space_icc, created_at FROM look_versions WHERE look_guid = ? AND version = ?
            """, arguments: [current.guid, version]) else {
            let all = try Int.fetchAll(db, sql: "SELECT version FROM look_versions WHERE look_guid = ?",
                                       arguments: [current.guid])
            throw CatalogError.versionNotFound(guid: current.guid, version: version,
                                               available: (all + [current.version]).sorted())
        }
        var record = current
        record.version = version
        record.isCurrentVersion = false
        record.cubeSize = row["cube_size"]
        record.layout = row["layout"]
        record.contentHash = row["content_hash"]
        record.sourceFormat = row["source_format"]
        record.sourceFile = row["source_file"]
        record.recipeYAML = row["recipe_yaml"]
        record.workingSpace = row["working_space"]
        record.workingSpaceICC = (row["working_space_icc"] as Data?).map { [UInt8]($0) }
        return record
    }

    /// Renames a look (names are unique ignoring case; a change of case alone is allowed). Returns the renamed
    /// look and the looks whose recipe named it by its old name (they keep their cubes; rebuilding them needs an
    /// edit of the recipe).
    public func renameLook(guid: String, to newName: String) throws -> (look: LookRecord, recipesNamingIt: [String]) {
        let key = guid.uppercased()
        let name = try Catalog.cleanName(newName)
        return try write { db in
            guard let before = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            let users = try Catalog.recipeUsers(db, of: before)
            if try Catalog.nameTaken(db, name, except: key) { throw CatalogError.duplicateName(name) }
            try db.execute(sql: "UPDATE looks SET name = ? WHERE guid = ?", arguments: [name, key])
            let after = try Catalog.fetchLook(db, guid: key) ?? before
            let stillFound = try Catalog.recipeUsers(db, of: after).map(\.guid)
            return (after, users.filter { !stillFound.contains($0.guid) }.map { "\($0.guid) (\($0.name))" })
        }
    }

    /// Adds tags to a look (tags it has already are kept once); returns the look and the tags that were new.
    public func tagLook(guid: String, tags: [String]) throws -> (look: LookRecord, added: [String]) {
        let key = guid.uppercased()
        let clean = try Catalog.cleanTags(tags)
        return try write { db in
            guard let before = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            let have = Set(before.tags.map { $0.lowercased() })
            let added = clean.filter { !have.contains($0.lowercased()) }
            for tag in added {
                try db.execute(sql: "INSERT INTO look_tags (look_guid, tag) VALUES (?, ?)", arguments: [key, tag])
            }
            return (try Catalog.fetchLook(db, guid: key) ?? before, added)
        }
    }

    /// Removes tags from a look (ignoring case); returns the look and the tags that were removed.
    public func untagLook(guid: String, tags: [String]) throws -> (look: LookRecord, removed: [String]) {
        let key = guid.uppercased()
        let clean = try Catalog.cleanTags(tags)
        return try write { db in
            guard let before = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            let wanted = Set(clean.map { $0.lowercased() })
            let removed = before.tags.filter { wanted.contains($0.lowercased()) }
            for tag in removed {
                try db.execute(sql: "DELETE FROM look_tags WHERE look_guid = ? AND tag = ? COLLATE NOCASE",
                               arguments: [key, tag])
            }
            return (try Catalog.fetchLook(db, guid: key) ?? before, removed)
        }
    }

    /// The looks (other than `look`) whose stored recipe has a `look:` step that resolves to `look`.
    public func recipeUsers(of look: LookRecord) throws -> [LookRecord] {
        try read { db in try Catalog.recipeUsers(db, of: look) }
    }

    static func recipeUsers(_ db: Database, of look: LookRecord) throws -> [LookRecord] {
        let candidates = try LookRecord.fetchAll(db, sql: LookRecord.selectSQL
            + " WHERE recipe_yaml IS NOT NULL AND guid != ? ORDER BY name COLLATE NOCASE", arguments: [look.guid])
        return candidates.filter { user in
            lookReferences(in: user.recipeYAML ?? "").contains { reference in
                (try? resolveLook(db, reference).guid) == look.guid
            }
        }
    }

    /// The values of every `look:` key in a recipe (steps may nest in mappings and lists).
    static func lookReferences(in yaml: String) -> [String] {
        guard let node = try? Yams.compose(yaml: yaml) else { return [] }
        var found: [String] = []
        func walk(_ node: Node) {
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    if key.string == "look", let s = value.string { found.append(s) } else { walk(value) }
                }
            case .sequence(let sequence):
                sequence.forEach(walk)
            default:
                break
            }
        }
        walk(node)
        return found
    }
}
