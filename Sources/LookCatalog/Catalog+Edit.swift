import Foundation
import GRDB
import LookCore

extension Catalog {
    /// Renames a look in one transaction; refused when another look already has the name (ignoring case).
    @discardableResult
    public func renameLook(guid: String, to name: String) throws -> LookRecord {
        let clean = try Catalog.cleanName(name)
        return try write { db in
            let key = guid.uppercased()
            guard let record = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            if record.name.caseInsensitiveCompare(clean) != .orderedSame, try Catalog.nameTaken(db, clean) {
                throw CatalogError.duplicateName(clean)
            }
            try db.execute(sql: "UPDATE looks SET name = ? WHERE guid = ?", arguments: [clean, key])
            return try Catalog.fetchLook(db, guid: key) ?? record
        }
    }

    /// Replaces a look's tags in one transaction (duplicates and blanks dropped, as on import).
    @discardableResult
    public func setTags(guid: String, _ tags: [String]) throws -> LookRecord {
        let clean = try Catalog.cleanTags(tags)
        return try write { db in
            let key = guid.uppercased()
            guard let record = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            try db.execute(sql: "DELETE FROM look_tags WHERE look_guid = ?", arguments: [key])
            for tag in clean {
                try db.execute(sql: "INSERT INTO look_tags (look_guid, tag) VALUES (?, ?)", arguments: [key, tag])
            }
            return try Catalog.fetchLook(db, guid: key) ?? record
        }
    }

    /// A new version of a look: its cube and recipe replaced together in one transaction, keeping GUID, name and
    /// tags (so scenes and scripts naming it get the new version). Refused when another look stores the same cube.
    @discardableResult
    public func replaceLook(guid: String, cube: ColorCube, recipeYAML: String?) throws -> LookRecord {
        let key = guid.uppercased()
        let blob = try LookBlob.encode(cube)
        let record: LookRecord = try write { db in
            guard let before = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            if let other = try LookRecord.fetchOne(db, sql: LookRecord.selectSQL
                + " WHERE content_hash = ? AND guid != ?", arguments: [blob.hash, key]) {
                throw CatalogError.contentTaken(guid: key, by: "\(other.guid) (\(other.name))")
            }
            try db.execute(sql: """
                UPDATE looks SET png = ?, layout = ?, cube_size = ?, content_hash = ?, recipe_yaml = ? WHERE guid = ?
                """, arguments: [Data(blob.png), blob.layout, cube.size, blob.hash, recipeYAML, key])
            return try Catalog.fetchLook(db, guid: key) ?? before
        }
        cache.remove(key)
        return record
    }
}
