import GRDB

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
}
