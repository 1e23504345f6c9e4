import Foundation
import GRDB
import LookCore
import LookModel

extension Catalog {
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
