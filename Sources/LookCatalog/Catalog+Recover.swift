import Foundation
import GRDB

extension Catalog {
    /// What ``recover(from:to:seedDirectory:environment:)`` copied and what it could not read.
    public struct RecoveryReport: Sendable, Equatable {
        /// The new catalog.
        public var path: String
        /// Looks copied (with their tags and older versions).
        public var looks: Int
        /// Scenes copied.
        public var scenes: Int
        /// One line per row, table or link that could not be copied, saying which and why.
        public var skipped: [String]
        /// What opening the new catalog did (shipped looks and scenes lost to the damage are seeded again).
        public var openReport: OpenReport
    }

    /// Copies every readable look (row, tags, versions) and scene of the catalog at `source` into a new catalog
    /// at `target`, row by row, so one damaged page loses only the rows on it. A look whose blob does not decode
    /// or match its hash is skipped; a scene whose default look was lost keeps no default look. The source is only
    /// read. The new file is built beside `target` and renamed into place, then opened (seeding shipped items
    /// that were lost).
    public static func recover(from source: String, to target: String, seedDirectory: String? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> RecoveryReport {
        let fm = FileManager.default
        guard fm.fileExists(atPath: source) else { throw CatalogError.missing(path: source) }
        if fm.fileExists(atPath: target) {
            throw CatalogError.recoveryTargetExists(path: target)
        }
        var readConfig = Configuration()
        readConfig.readonly = true
        readConfig.label = "LookStudio catalog being recovered"
        let from: DatabaseQueue
        do {
            from = try DatabaseQueue(path: source, configuration: readConfig)
            _ = try from.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            let reason = (error as? DatabaseError).flatMap { isCorruption($0) ? cutShort(source) : nil }
                ?? "SQLite cannot read its list of tables (\((error as? DatabaseError)?.message ?? "\(error)"))"
            throw CatalogError.unrecoverable(path: source, reason)
        }
        let temp = "\(target).partial-\(ProcessInfo.processInfo.processIdentifier)"
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? fm.removeItem(atPath: temp + suffix) } }
        var copier = try mapErrors(target) { () throws -> RowCopier in
            try CatalogLocation.createParentFolder(of: target)
            var writeConfig = Configuration()
            writeConfig.foreignKeysEnabled = true
            let to = try DatabaseQueue(path: temp, configuration: writeConfig)
            try CatalogSchema.migrator.migrate(to)
            return RowCopier(from: from, to: to)
        }
        let looks = try mapErrors(target) { try copier.copyLooks() }
        let scenes = try mapErrors(target) { try copier.copyScenes(recovered: looks) }
        try mapErrors(target) {
            try copier.copySeededItems(recoveredLooks: looks)
            try copier.to.close()
        }
        do {
            try fm.moveItem(atPath: temp, toPath: target)
        } catch {
            throw CatalogError.database(path: target, "cannot move the recovered catalog into place: \(error)")
        }
        let opened = try Catalog(path: target, seedDirectory: seedDirectory, environment: environment)
        return RecoveryReport(path: target, looks: looks.count, scenes: scenes, skipped: copier.skipped,
                              openReport: opened.openReport)
    }
}

/// Copies rows one at a time from a possibly damaged catalog into a freshly migrated one.
private struct RowCopier {
    let from: DatabaseQueue
    let to: DatabaseQueue
    var skipped: [String] = []

    init(from: DatabaseQueue, to: DatabaseQueue) {
        self.from = from
        self.to = to
    }

    /// Columns both files' `table` have (an older source may lack newer columns; they keep their defaults).
    func sharedColumns(_ table: String) throws -> [String] {
        let target = try to.read {
            try Row.fetchAll($0, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
        }
        let source = (try? from.read {
            try Row.fetchAll($0, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
        }) ?? []
        return target.filter(source.contains)
    }

    /// The rowids of `table`: a scan, then one probe per rowid up to the largest seen when the scan broke off.
    mutating func rowids(_ table: String) -> [Int64] {
        var ids: [Int64] = []
        var scanError: (any Error)?
        do {
            try from.read { db in
                let cursor = try Int64.fetchCursor(db, sql: "SELECT rowid FROM \(table)")
                while let id = try cursor.next() { ids.append(id) }
            }
        } catch {
            scanError = error
        }
        guard let scanError else { return ids }
        let recorded = try? from.read { try Int64.fetchOne($0, sql: "SELECT max(rowid) FROM \(table)") }
        let largest = max(ids.max() ?? 0, (recorded ?? nil) ?? 0)
        let seen = Set(ids)
        // Probing is one indexed lookup per id; past a million ids a damaged catalog is not worth the wait.
        if largest > 0 && largest <= 1_000_000 {
            for id in 1...largest where !seen.contains(id) {
                if (try? from.read({ try Bool.fetchOne($0, sql: "SELECT 1 FROM \(table) WHERE rowid = ?",
                                                          arguments: [id]) })) != nil {
                    ids.append(id)
                }
            }
        }
        skipped.append("\(table): reading the table broke off (\(Self.message(scanError))); rows were probed one "
            + "by one")
        return ids.sorted()
    }

    /// Copies the looks whose row reads and whose blob decodes and matches its hash; returns their GUIDs.
    mutating func copyLooks() throws -> Set<String> {
        let columns = try sharedColumns("looks")
        let list = columns.joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        var recovered = Set<String>()
        for id in rowids("looks") {
            let row: Row?
            do {
                row = try from.read { try Row.fetchOne($0, sql: "SELECT \(list) FROM looks WHERE rowid = ?",
                                                         arguments: [id]) }
            } catch {
                skipped.append("look at row \(id): unreadable (\(Self.message(error)))")
                continue
            }
            guard let row else { continue }
            let guid: String = row["guid"] ?? "?"
            let name: String = row["name"] ?? "?"
            if let problem = Self.blobProblem(row, guid: guid) {
                skipped.append("look \(guid) (\(name)): \(problem)")
                continue
            }
            do {
                try to.write { db in
                    try db.execute(sql: "INSERT INTO looks (\(list)) VALUES (\(marks))",
                                   arguments: StatementArguments(row.databaseValues))
                }
                recovered.insert(guid)
            } catch {
                skipped.append("look \(guid) (\(name)): not stored (\(Self.message(error)))")
                continue
            }
            copyTags(of: guid, name: name)
        }
        try copyVersions(of: recovered)
        return recovered
    }

    /// A look's tags, read through the tag table's key so a damaged page elsewhere does not matter.
    mutating func copyTags(of guid: String, name: String) {
        do {
            let tags = try from.read {
                try String.fetchAll($0, sql: "SELECT tag FROM look_tags WHERE look_guid = ?", arguments: [guid])
            }
            try to.write { db in
                for tag in tags {
                    try db.execute(sql: "INSERT OR IGNORE INTO look_tags (look_guid, tag) VALUES (?, ?)",
                                   arguments: [guid, tag])
                }
            }
        } catch {
            skipped.append("tags of look \(guid) (\(name)): unreadable (\(Self.message(error)))")
        }
    }

    /// Older versions of the recovered looks, when the source has them.
    mutating func copyVersions(of recovered: Set<String>) throws {
        let columns = try sharedColumns("look_versions")
        guard columns.contains("look_guid") else { return }
        let list = columns.joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        for id in rowids("look_versions") {
            do {
                guard let row = try from.read({
                    try Row.fetchOne($0, sql: "SELECT \(list) FROM look_versions WHERE rowid = ?", arguments: [id])
                }) else { continue }
                let guid: String = row["look_guid"] ?? "?"
                let version: Int = row["version"] ?? 0
                guard recovered.contains(guid) else { continue }
                if let problem = Self.blobProblem(row, guid: guid) {
                    skipped.append("look \(guid) version \(version): \(problem)")
                    continue
                }
                try to.write { db in
                    try db.execute(sql: "INSERT INTO look_versions (\(list)) VALUES (\(marks))",
                                   arguments: StatementArguments(row.databaseValues))
                }
            } catch {
                skipped.append("look version at row \(id): unreadable (\(Self.message(error)))")
            }
        }
    }

    /// Copies readable scenes; a default look that was not recovered is cleared. Returns the count.
    mutating func copyScenes(recovered: Set<String>) throws -> Int {
        let columns = try sharedColumns("scenes")
        let list = columns.joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        var count = 0
        for id in rowids("scenes") {
            do {
                guard let row = try from.read({
                    try Row.fetchOne($0, sql: "SELECT \(list) FROM scenes WHERE rowid = ?", arguments: [id])
                }) else { continue }
                let label: Int = row["label"] ?? 0
                var values = Array(row.databaseValues)
                if let look: String = row["default_look_guid"], !recovered.contains(look),
                   let index = columns.firstIndex(of: "default_look_guid") {
                    values[index] = .null
                    skipped.append("scene \(label): its default look \(look) was not recovered; the scene has none")
                }
                let arguments = StatementArguments(values)
                try to.write { db in
                    try db.execute(sql: "INSERT INTO scenes (\(list)) VALUES (\(marks))", arguments: arguments)
                }
                count += 1
            } catch {
                skipped.append("scene at row \(id): unreadable (\(Self.message(error)))")
            }
        }
        return count
    }

    /// Seed bookkeeping for the copied items only, so the next open seeds shipped items lost to the damage again.
    mutating func copySeededItems(recoveredLooks: Set<String>) throws {
        let scenes = try to.read { try Set(String.fetchAll($0, sql: "SELECT guid FROM scenes")) }
        let kept = recoveredLooks.union(scenes)
        for id in rowids("seeded_items") {
            guard let row = try? from.read({
                try Row.fetchOne($0, sql: "SELECT guid, kind, seeded_at FROM seeded_items WHERE rowid = ?",
                                 arguments: [id])
            }) else { continue }
            let guid: String = row["guid"]
            guard kept.contains(guid) else { continue }
            try to.write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO seeded_items (guid, kind, seeded_at) VALUES (?, ?, ?)",
                               arguments: [guid, row["kind"] as String, row["seeded_at"] as String])
            }
        }
    }

    /// Why a row's stored cube cannot be used, or nil when it decodes and matches its recorded hash.
    static func blobProblem(_ row: Row, guid: String) -> String? {
        guard let hash: String = row["content_hash"] else { return "content hash missing" }
        do {
            let cube = try LookBlob.decode(row: row, guid: guid)
            if LookBlob.contentHash(cube) != hash { return "blob does not match its content hash" }
            return nil
        } catch {
            return "blob does not decode (\(error))"
        }
    }

    /// SQLite's own words for an error.
    static func message(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}
