import Foundation
import GRDB
import ImageIO
import LookCore

/// An open look catalog: one SQLite file in WAL mode, migrated and seeded on open (read-write), or only read.
///
/// Every write runs in one IMMEDIATE transaction, so concurrent processes queue on the write lock (busy timeout
/// below) instead of failing, and a killed process leaves either the whole write or nothing.
public final class Catalog: Sendable {
    /// Path of the catalog file.
    public let path: String
    /// What opening did: whether the file was created, which seed items were added, and warnings.
    public let openReport: OpenReport
    /// The connection; GRDB's queue serialises this process's access to it.
    let dbQueue: DatabaseQueue
    /// Decoded cubes by GUID (see `CubeCache` for its lock).
    let cache = CubeCache()
    /// Whether the file passed its integrity check before this catalog's first write.
    let integrity = IntegrityGate()

    /// How long a write waits for another process's transaction before giving up.
    static let busyTimeout: TimeInterval = 60

    /// How the catalog is opened.
    public enum Access: Sendable, Equatable {
        /// Created, migrated and seeded as needed; writes allowed.
        case readWrite
        /// SQLite read-only with `query_only`: never creates, migrates, seeds or takes a write lock, so many
        /// processes (a batch's workers) share one catalog file; every write throws `CatalogError.readOnly`.
        case readOnly
        /// Read-only on a file nothing may write beside (a read-only file system or folder, where SQLite cannot
        /// create the `-shm` file WAL needs): SQLite's `immutable` mode, no locks, nothing created; chosen by the
        /// open itself when a read-write or read-only open fails that way. Writes throw `CatalogError.cannotWrite`.
        /// A file with a `-wal` beside it is read with the log instead (see `openQueue`), or refused.
        case immutable
    }

    /// How this catalog was opened.
    public let access: Access

    /// What opening the catalog did.
    public struct OpenReport: Sendable, Equatable {
        /// True when the catalog was created by this open.
        public var created: Bool
        /// GUIDs of looks added from the seed by this open.
        public var seededLooks: [String]
        /// Labels of scenes added from the seed by this open.
        public var seededScenes: [Int]
        /// Seed items that could not be added, and why.
        public var warnings: [String]
    }

    /// Opens (creating, migrating and seeding as needed) the catalog at `path`.
    ///
    /// `seedDirectory` is the folder holding `Catalog/scenes.yaml` and `Looks/`; nil searches the usual places
    /// (see `CatalogLocation.findSeed`). A missing seed is an error only when the catalog is new. A file that is
    /// not SQLite, belongs to another program, or has a newer schema is refused and left untouched.
    ///
    /// With `access: .readOnly` the file must exist and be fully migrated; nothing is written, seeding is skipped.
    public init(path: String, seedDirectory: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                access: Access = .readWrite) throws {
        self.path = path
        let existingSize = try Catalog.checkFile(path, readOnly: access != .readWrite)
        let seedDir = CatalogLocation.findSeed(explicit: seedDirectory, environment: environment)
        func seedNotFound() -> CatalogError {
            .seedNotFound(searched: CatalogLocation.seedCandidates(
                explicit: seedDirectory, environment: environment,
                executablePath: CatalogLocation.currentExecutablePath()))
        }
        if existingSize == nil && seedDir == nil { throw seedNotFound() }

        let opened = try Catalog.openQueue(path: path, readOnly: access != .readWrite, exists: existingSize != nil,
                                           immutable: access == .immutable)
        let queue = opened.queue
        self.access = opened.immutable ? .immutable : access
        dbQueue = queue
        let (isNew, pending) = try Catalog.pendingMigrations(queue, path: path)
        if access != .readWrite || opened.immutable {
            if !pending.isEmpty { throw CatalogError.needsMigration(path: path, pending: pending) }
            openReport = OpenReport(created: false, seededLooks: [], seededScenes: [], warnings: [])
            return
        }
        if isNew && seedDir == nil { throw seedNotFound() }
        try Catalog.prepare(queue, path: path, pending: pending)
        var report = OpenReport(created: isNew, seededLooks: [], seededScenes: [], warnings: [])
        if let seedDir { try Catalog.seed(from: seedDir, into: queue, path: path, report: &report) }
        openReport = report
    }

    /// Refuses what cannot be a catalog before SQLite opens it, and makes a new catalog's folder; returns the size
    /// of the file, nil when there is none yet.
    static func checkFile(_ path: String, readOnly: Bool) throws -> Int? {
        // A FIFO would block SQLite's open until a writer came; a folder or device is no catalog either.
        switch InputFile.kind(of: path) {
        case .regular, .unknown: break
        default: throw CatalogError.notSQLite(path: path)
        }
        let existingSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if readOnly && (existingSize ?? 0) == 0 { throw CatalogError.missing(path: path) }
        if let size = existingSize, size > 0 {
            guard Catalog.hasSQLiteHeader(path) else { throw CatalogError.notSQLite(path: path) }
        } else if existingSize == nil {
            try CatalogLocation.createParentFolder(of: path)
        }
        return existingSize
    }

    /// Whether the catalog is new (no tables, no migrations) and the migrations it still needs, in order; a file of
    /// another program, or one a newer LookStudio migrated, is refused.
    static func pendingMigrations(_ queue: DatabaseQueue, path: String) throws -> (isNew: Bool, pending: [String]) {
        let migrator = CatalogSchema.migrator
        let state = try Catalog.mapErrors(path) {
            try queue.read { db -> (isEmpty: Bool, applied: Set<String>, version: Int, hasTables: Bool) in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'
                    """)
                let applied = try migrator.appliedIdentifiers(db)
                return (tables.isEmpty && applied.isEmpty, applied, version, !tables.isEmpty)
            }
        }
        let known = Set(migrator.migrations)
        let unknown = state.applied.subtracting(known).sorted()
        if state.version > CatalogSchema.version || !unknown.isEmpty {
            throw CatalogError.newerSchema(path: path, version: state.version, known: CatalogSchema.version,
                                           unknownMigrations: unknown)
        }
        if state.hasTables && state.applied.isEmpty {
            throw CatalogError.notACatalog(path: path)
        }
        return (state.isEmpty, migrator.migrations.filter { !state.applied.contains($0) })
    }

    /// Puts a writable catalog in WAL mode and applies the `pending` migrations, checking the file's integrity
    /// before either. An up-to-date catalog in WAL mode is opened without writing anything, so a catalog whose file
    /// is not writable still opens and serves reads (its writes then fail with CatalogError.readOnly).
    static func prepare(_ queue: DatabaseQueue, path: String, pending: [String]) throws {
        try Catalog.mapErrors(path) {
            let current = try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
            if current?.lowercased() != "wal" || !pending.isEmpty {
                try Catalog.checkIntegrity(queue, path: path, migrated: pending.isEmpty)
            }
            if current?.lowercased() != "wal" {
                try queue.writeWithoutTransaction { db in
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    if mode?.lowercased() != "wal" {
                        throw CatalogError.database(path: path, "cannot switch to WAL mode (journal mode is \(mode ?? "?"))")
                    }
                }
            }
            guard !pending.isEmpty else { return }
            let migrator = CatalogSchema.migrator
            do {
                try migrator.migrate(queue)
            } catch {
                // Another process may have run the same migration between our check and our write; that is
                // success as long as every migration is now applied.
                let done = try queue.read { try migrator.hasCompletedMigrations($0) }
                if !done { throw error }
            }
        }
    }

    /// Adds the looks and scenes of the seed in `seedDir` that the catalog lacks, unless the seed is unchanged since
    /// an earlier open: its fingerprint (names, sizes, times of the seed files) lets an open skip parsing it.
    static func seed(from seedDir: String, into queue: DatabaseQueue, path: String,
                     report: inout OpenReport) throws {
        let fingerprint = Seed.fingerprint(of: seedDir)
        let stored = try Catalog.mapErrors(path) {
            try queue.read { try String.fetchOne($0, sql: "SELECT value FROM catalog_meta WHERE key = 'seed_fingerprint'") }
        }
        guard stored != fingerprint else { return }
        let seed = try Seed.load(from: seedDir)
        try Catalog.checkIntegrity(queue, path: path)
        do {
            try Seeder.apply(seed, fingerprint: fingerprint, to: queue, path: path, report: &report)
        } catch CatalogError.readOnly(let path) {
            report.warnings.append("catalog \(path) is read-only: new shipped looks and scenes were not added")
        }
    }

    /// Opens the connection and reads the header once, so a file that cannot be opened as asked fails here. An
    /// existing catalog that SQLite cannot open because nothing may be written beside it (error 14, or a
    /// read-only error) is opened again immutable, so reads work; a new catalog in such a folder is refused
    /// naming the folder.
    ///
    /// An immutable open ignores the `-wal` file, where the last commits of a process that did not close the
    /// catalog still are: it would show an older catalog without saying so. So a catalog with a `-wal` beside it
    /// is opened with SQLite's plain read-only mode instead, which reads the log through the `-shm` index beside
    /// it (SQLite 3.22 and later, "Read-Only Databases" in SQLite's WAL documentation); without a `-shm` that
    /// SQLite can read, the log cannot be read on a read-only file system and the open is refused.
    static func openQueue(path: String, readOnly: Bool, exists: Bool, immutable: Bool) throws
        -> (queue: DatabaseQueue, immutable: Bool) {
        func readOnlyOpen() throws -> (queue: DatabaseQueue, immutable: Bool) {
            let wal = path + "-wal"
            let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            guard walSize > 0 else { return (try open(immutable: true), true) }
            do {
                return (try open(immutable: false, forceReadOnly: true), true)
            } catch {
                throw CatalogError.unreadableLog(path: path, log: wal)
            }
        }
        func open(immutable: Bool, forceReadOnly: Bool = false) throws -> DatabaseQueue {
            var config = Configuration()
            config.busyMode = .timeout(Catalog.busyTimeout)
            config.foreignKeysEnabled = true
            config.label = "LookStudio catalog"
            config.readonly = readOnly || immutable || forceReadOnly
            let ro = config.readonly
            config.prepareDatabase { db in
                // WAL with NORMAL sync is durable against process crashes (SIGKILL); only power loss can drop the
                // last commits, and then the file is still consistent. A read-only open sets nothing.
                if !ro { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
                // A second guard besides SQLITE_OPEN_READONLY: any statement that would write fails at once.
                if ro { try db.execute(sql: "PRAGMA query_only = 1") }
            }
            let queue = try DatabaseQueue(path: immutable ? immutableURI(path) : path, configuration: config)
            _ = try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
            return queue
        }
        do {
            if immutable { return try readOnlyOpen() }
            return (try open(immutable: false), false)
        } catch let error as CatalogError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw CatalogError.notSQLite(path: path)
        } catch let error as DatabaseError where isCorruption(error) {
            throw CatalogError.damaged(path: path, cutShort(path) ?? error.message ?? "\(error)")
        } catch let error as DatabaseError where cannotWriteBeside(error) && exists && !immutable {
            do {
                return try readOnlyOpen()
            } catch let error as CatalogError {
                throw error
            } catch {
                throw CatalogError.database(path: path, "\(error)")
            }
        } catch let error as DatabaseError where cannotWriteBeside(error) && !exists {
            throw CatalogError.cannotWrite(path: path, folder: folder(of: path), creating: true)
        } catch {
            throw CatalogError.database(path: path, "\(error)")
        }
    }

    /// SQLite could not open or create a file: the catalog, or the `-wal`/`-shm` files beside it.
    static func cannotWriteBeside(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY
            || error.resultCode == .SQLITE_PERM || error.resultCode == .SQLITE_AUTH
    }

    /// `file:PATH?immutable=1`, with the characters URIs reserve escaped.
    static func immutableURI(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let escaped = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute
        return "file:\(escaped)?immutable=1"
    }

    /// The folder holding `path`.
    static func folder(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
    }

    /// "the file is cut short: …" when the file is smaller than the page count its header declares (a copy that
    /// was interrupted, a full disk), else nil.
    static func cutShort(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 100), head.count == 100,
              let size = try? handle.seekToEnd() else { return nil }
        let bytes = [UInt8](head)
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        let pages = bytes[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let declared = pageSize * pages
        guard pageSize >= 512, Int(size) < declared else { return nil }
        return "the file is cut short: \(Int(size).formatted(.number.grouping(.automatic))) bytes of the "
            + "\(declared.formatted(.number.grouping(.automatic))) its header declares (\(pages) pages of \(pageSize))"
    }

    /// True when the file starts with SQLite's 16-byte magic string.
    static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        return head == Data("SQLite format 3\0".utf8)
    }

    /// Runs `body`, turning SQLite errors into `CatalogError.database` with this catalog's path.
    static func mapErrors<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CatalogError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY
                    || error.extendedResultCode == .SQLITE_READONLY_DIRECTORY
                    || (error.resultCode == .SQLITE_ERROR && error.message?.contains("query_only") == true) {
            throw CatalogError.readOnly(path: path)
        } catch let error as DatabaseError where isCorruption(error) {
            throw CatalogError.damaged(path: path, error.message ?? "\(error)")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR
                    && error.message?.hasPrefix("no such table") == true {
            // Every table is created by the migrations, which this open found applied: one missing was dropped.
            throw CatalogError.damaged(path: path, error.message ?? "\(error)")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR {
            // A write that hits a full disk or a file-size limit; the transaction was rolled back.
            throw CatalogError.database(path: path, (error.message ?? "\(error)")
                + " (the disk may be full, or a quota or file-size limit reached); nothing was changed")
        } catch let error as DatabaseError {
            throw CatalogError.database(path: path, error.message ?? "\(error)")
        }
    }

    /// Runs `body` in one IMMEDIATE transaction: it commits if `body` returns, rolls back if it throws.
    /// The first write of this catalog checks the file's integrity first (`checkIntegrity`).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        if access == .immutable { throw CatalogError.cannotWrite(path: path, folder: Catalog.folder(of: path),
                                                                 creating: false) }
        if let damage = integrity.damage { throw CatalogError.damaged(path: path, damage) }
        if access == .readWrite { try integrity.ensure { try Catalog.checkIntegrity(dbQueue, path: path) } }
        return try Catalog.mapErrors(path) {
            try dbQueue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw CatalogError.database(path: path, "transaction returned nothing") }
                return result
            }
        }
    }

    /// Runs `body` on a consistent snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try Catalog.mapErrors(path) { try dbQueue.read(body) }
    }
}
