import Foundation
import GRDB
import LookCore

/// Remembers whether this `Catalog` has checked the file's integrity, so only the first write of a process pays
/// for `PRAGMA quick_check`. One `Catalog` may be shared by several threads: the flag is `Locked`, and the check
/// runs under its lock so a second writer waits for the first one's answer instead of checking again.
final class IntegrityGate: Sendable {
    private let checked = Locked(false)

    /// Runs `check` unless an earlier call succeeded; a failed check is repeated by the next write.
    func ensure(_ check: () throws -> Void) throws {
        try checked.withLock { checked in
            if checked { return }
            try check()
            checked = true
        }
    }
}

extension Catalog {
    /// Refuses to write into a damaged file: runs SQLite's `quick_check` (structure of every b-tree page, without
    /// the index cross-checks of `integrity_check`) and throws `CatalogError.damaged` unless it answers "ok".
    static func checkIntegrity(_ queue: DatabaseQueue, path: String) throws {
        let answer: [String]
        do {
            answer = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check(20)") }
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
    }

    /// True for the SQLite errors that mean the file's content is broken rather than inaccessible.
    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }
}
