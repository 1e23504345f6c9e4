import Foundation
import GRDB
import LookCore

/// Remembers whether this `Catalog` has checked the file's integrity, so only the first write of a process pays
/// for `PRAGMA quick_check`, and whether a read of this process found a look blob that does not decode, which
/// `quick_check` cannot see (it checks pages, not what a blob holds). One `Catalog` may be shared by several
/// threads: the state is `Locked`, and the check runs under its lock so a second writer waits for the first one's
/// answer instead of checking again.
final class IntegrityGate: Sendable {
    private struct State {
        var checked = false
        var damage: String?
    }

    private let state = Locked(State())

    /// Runs `check` unless an earlier call succeeded; a failed check is repeated by the next write.
    func ensure(_ check: () throws -> Void) throws {
        try state.withLock { state in
            if state.checked { return }
            try check()
            state.checked = true
        }
    }

    /// What a read found broken, if anything; every later write of this catalog is refused with it.
    var damage: String? { state.withLock { $0.damage } }

    func recordDamage(_ reason: String) {
        state.withLock { if $0.damage == nil { $0.damage = reason } }
    }
}

extension Catalog {
    /// The `catalog_meta` key under which a read that found a blob that does not decode leaves its reason, so that
    /// later processes refuse writes too; `catalog verify` sets or clears it.
    static let damageKey = "damage"

    /// The tables and indexes the migrations create, by type and name. A catalog missing one (a dropped
    /// `look_tags`) fails every command that touches it, so writes are refused and `verify` names it.
    static let expectedSchema: [(type: String, name: String)] = [
        ("table", "looks"), ("table", "look_tags"), ("table", "scenes"), ("table", "seeded_items"),
        ("table", "catalog_meta"), ("table", "look_versions"), ("index", "look_tags_by_tag"),
        ("index", "scenes_by_default_look"), ("index", "looks_by_content_hash"),
    ]

    /// One line per table or index of `expectedSchema` that the file lacks.
    static func schemaProblems(_ db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')")
        let present = Set(rows.map { "\($0["type"] as String? ?? "") \($0["name"] as String? ?? "")" })
        return expectedSchema.filter { !present.contains("\($0.type) \($0.name)") }
            .map { "the \($0.type) \($0.name) is missing" }
    }

    /// Refuses to write into a damaged file: runs SQLite's `quick_check` (structure of every b-tree page, without
    /// the index cross-checks of `integrity_check`), checks the schema and the damage mark a read may have left,
    /// and throws `CatalogError.damaged` unless all are sound. Before the migrations have run (`migrated` false) the
    /// tables may not exist yet, so only the pages are checked.
    static func checkIntegrity(_ queue: DatabaseQueue, path: String, migrated: Bool = true) throws {
        let answer: [String]
        let schema: [String]
        let mark: String?
        do {
            (answer, schema, mark) = try queue.read { db in
                let answer = try String.fetchAll(db, sql: "PRAGMA quick_check(20)")
                let schema = migrated ? try schemaProblems(db) : []
                let mark = !migrated || schema.contains { $0.hasSuffix(" catalog_meta is missing") } ? nil
                    : try String.fetchOne(db, sql: "SELECT value FROM catalog_meta WHERE key = ?",
                                          arguments: [damageKey])
                return (answer, schema, mark)
            }
        } catch let error as DatabaseError where isCorruption(error) {
            throw CatalogError.damaged(path: path, error.message ?? "\(error)")
        } catch let error as DatabaseError {
            throw CatalogError.database(path: path, error.message ?? "\(error)")
        }
        if answer != ["ok"] {
            let shown = answer.prefix(3).joined(separator: "; ")
            throw CatalogError.damaged(path: path, "integrity check: " + shown
                + (answer.count > 3 ? "; and \(answer.count - 3) more" : ""))
        }
        if !schema.isEmpty { throw CatalogError.damaged(path: path, schema.joined(separator: "; ")) }
        if let mark { throw CatalogError.damaged(path: path, mark) }
    }

    /// Records that a read found `error` (a blob that does not decode): this catalog refuses writes from now on,
    /// and a read-write catalog marks the file so later processes do too. Marking is best effort: the read
    /// reports the damage either way.
    func noteDamage(_ error: CatalogError) {
        let reason = "\(error)"
        integrity.recordDamage(reason)
        guard access == .readWrite else { return }
        try? dbQueue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)",
                           arguments: [Catalog.damageKey, reason])
        }
    }

    /// Decodes a look blob read from the file, noting the damage when it does not decode.
    func decodeBlob(_ row: Row, guid: String) throws -> ColorCube {
        do {
            return try LookBlob.decode(row: row, guid: guid)
        } catch let error as CatalogError {
            noteDamage(error)
            throw error
        }
    }

    /// True for the SQLite errors that mean the file's content is broken rather than inaccessible.
    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }
}
