import Foundation
import GRDB
import LookCore
import LookModel

extension Catalog {
    /// Every look, by name (ignoring case); with `tag`, only looks carrying it (ignoring case).
    public func looks(tag: String? = nil) throws -> [LookRecord] {
        try read { db in
            if let tag {
                return try LookRecord.fetchAll(db, sql: LookRecord.selectSQL + """
                     WHERE guid IN (SELECT look_guid FROM look_tags WHERE tag = ? COLLATE NOCASE)
                     ORDER BY name COLLATE NOCASE
                    """, arguments: [tag])
            }
            return try LookRecord.fetchAll(db, sql: LookRecord.selectSQL + " ORDER BY name COLLATE NOCASE")
        }
    }

    /// The look with exactly this GUID (any case), or nil.
    public func look(guid: String) throws -> LookRecord? {
        try read { db in try Catalog.fetchLook(db, guid: guid.uppercased()) }
    }

    /// Finds a look by the rule in README "Names": an exact GUID, then a unique GUID prefix of 8+ hex digits, then
    /// an exact name (ignoring case); a `@N` suffix selects version N (`isCurrentVersion` false if older). Names
    /// that read as GUIDs are refused when saved, so the order only matters for catalogs older than that rule,
    /// whose such names are still found when no GUID matches.
    public func resolveLook(_ reference: String) throws -> LookRecord {
        try read { db in try Catalog.resolveLook(db, reference) }
    }

    static func fetchLook(_ db: Database, guid: String) throws -> LookRecord? {
        try LookRecord.fetchOne(db, sql: LookRecord.selectSQL + " WHERE guid = ?", arguments: [guid])
    }

    static func resolveLook(_ db: Database, _ reference: String) throws -> LookRecord {
        let (base, version) = LookName.splitVersion(reference.trimmingCharacters(in: .whitespaces))
        guard let version else { return try resolveCurrent(db, reference) }
        let current: LookRecord
        do {
            current = try resolveCurrent(db, base)
        } catch CatalogError.lookNotFound, CatalogError.lookNotFoundNear {
            // A name saved before the rule refused names ending in @N.
            return try resolveCurrent(db, reference)
        }
        return try fetchVersion(db, of: current, version: version)
    }

    static func resolveCurrent(_ db: Database, _ reference: String) throws -> LookRecord {
        let ref = reference.trimmingCharacters(in: .whitespaces)
        if let exact = try fetchLook(db, guid: ref.uppercased()) { return exact }
        if LookName.isGUIDLike(ref) {
            let prefix = ref.uppercased()
            let matches = try LookRecord.fetchAll(db, sql: LookRecord.selectSQL
                + " WHERE substr(guid, 1, ?) = ? ORDER BY guid", arguments: [prefix.count, prefix])
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw CatalogError.ambiguousLook(reference, candidates: matches.map {
                    "\($0.guid) (\(MessageText.quote($0.name)))"
                })
            }
        }
        if let named = try LookRecord.fetchOne(db, sql: LookRecord.selectSQL + " WHERE name = ? COLLATE NOCASE",
                                               arguments: [ref]) {
            return named
        }
        // Beyond ASCII, names match as they are kept unique: by Unicode case and canonical form.
        if let guid = try named(db, ref), let record = try fetchLook(db, guid: guid) { return record }
        let near = MessageText.nearest(to: ref, among: try String.fetchAll(db, sql: "SELECT name FROM looks"))
        throw near.isEmpty ? CatalogError.lookNotFound(reference) : CatalogError.lookNotFoundNear(reference, names: near)
    }

    /// The look's current cube, decoded from its stored PNG; cached by GUID and content hash for the life of this
    /// `Catalog`, so a cube another process stored since is read afresh.
    public func cube(guid: String) throws -> ColorCube {
        let key = guid.uppercased()
        let hash = try read { db in
            try String.fetchOne(db, sql: "SELECT content_hash FROM looks WHERE guid = ?", arguments: [key])
        }
        guard let hash else { throw CatalogError.lookNotFound(guid) }
        if let cached = cache.cube(key, hash: hash) { return cached }
        // Hash and blob in one read, so the cube is stored under the hash it has.
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT content_hash, \(LookBlob.columns) FROM looks WHERE guid = ?",
                             arguments: [key])
        }
        guard let row else { throw CatalogError.lookNotFound(guid) }
        let cube = try decodeBlob(row, guid: key)
        cache.store(cube, for: key, hash: row["content_hash"])
        return cube
    }

    /// The look's stored blob, as `cube(guid:)` reads it: PNG bytes and layout name (for `lookstudio bench catalog`).
    public func storedBlob(guid: String) throws -> (png: [UInt8], layout: String) {
        let key = guid.uppercased()
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT png, layout FROM looks WHERE guid = ?", arguments: [key])
        }
        guard let row else { throw CatalogError.lookNotFound(guid) }
        let png: Data = row["png"]
        return ([UInt8](png), row["layout"])
    }

    /// Nanoseconds spent in each stage of ``addLook(_:renameOnConflict:timings:)``, summed over calls.
    public struct AddLookTimings: Sendable, Equatable {
        /// Rendering the cube into 16-bit pixels and compressing the PNG blob.
        public var encode: UInt64 = 0
        /// Computing the content hash.
        public var hash: UInt64 = 0
        /// The write transaction: duplicate check, free name, insert, commit.
        public var insert: UInt64 = 0
        /// Zero in every stage.
        public init() {}
    }

    /// Stores a look in one transaction: its row and its tags, or nothing.
    ///
    /// A cube whose content hash is already in the catalog is not stored again: the existing look is returned.
    /// With `renameOnConflict`, a taken name gets a numeric suffix ("Warm 2") instead of failing.
    /// With `asNew`, a cube already stored is stored again as a separate look (`import --as-new`).
    public func addLook(_ new: NewLook, renameOnConflict: Bool = false, asNew: Bool = false) throws -> AddLookOutcome {
        var timings = AddLookTimings()
        return try addLook(new, renameOnConflict: renameOnConflict, asNew: asNew, timings: &timings)
    }

    /// ``addLook(_:renameOnConflict:)``, adding the time each stage took to `timings`.
    public func addLook(_ new: NewLook, renameOnConflict: Bool, asNew: Bool = false,
                        timings: inout AddLookTimings) throws -> AddLookOutcome {
        let name = try Catalog.cleanName(new.name)
        let tags = try Catalog.cleanTags(new.tags)
        // Encode and hash outside the transaction so the write lock is held for the insert only.
        let blob = try LookBlob.encode(new.cube, timings: &timings)
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings.insert += DispatchTime.now().uptimeNanoseconds - start }
        return try write { db in
            if !asNew, let existing = try LookRecord.fetchOne(db, sql: LookRecord.selectSQL
                + " WHERE content_hash = ? ORDER BY created_at LIMIT 1", arguments: [blob.hash]) {
                return .existing(existing)
            }
            let finalName = renameOnConflict ? try Catalog.freeName(db, startingWith: name) : name
            if !renameOnConflict, try Catalog.nameTaken(db, name) { throw CatalogError.duplicateName(name) }
            let record = LookRecord(
                guid: (new.guid ?? UUID().uuidString).uppercased(), name: finalName, cubeSize: new.cube.size,
                layout: blob.layout, contentHash: blob.hash, sourceFormat: new.sourceFormat,
                sourceFile: new.sourceFile, description: new.description, recipeYAML: new.recipeYAML,
                createdAt: Date(), tags: tags, workingSpace: new.workingSpace, workingSpaceICC: new.workingSpaceICC)
            try Catalog.insert(db, record, blob: blob)
            return .added(try Catalog.fetchLook(db, guid: record.guid) ?? record)
        }
    }

    /// What ``replaceCube(guid:with:)`` did: the look before and after, and whether its stored cube changed.
    public struct CubeReplacement: Sendable, Equatable {
        /// The look as it was.
        public var before: LookRecord
        /// The look as it is now: same GUID, name, tags and recipe; new cube size, layout and content hash.
        public var after: LookRecord
        /// False when the new cube stores exactly as the old one (same content hash); nothing was written then.
        public var changed: Bool { before.contentHash != after.contentHash }
    }

    /// Replaces a look's cube in one transaction, keeping its GUID, name, tags, description and recipe: the blob,
    /// layout, size and content hash change together, and the cached cube is dropped.
    ///
    /// Refused when another look already stores the same cube (content hashes are unique).
    @discardableResult
    public func replaceCube(guid: String, with cube: ColorCube) throws -> CubeReplacement {
        let key = guid.uppercased()
        // Encode and hash outside the transaction so the write lock is held for the update only.
        let blob = try LookBlob.encode(cube)
        let replacement: CubeReplacement = try write { db in
            let before = try Catalog.lookTakingCube(db, guid: guid, hash: blob.hash)
            if before.contentHash == blob.hash { return CubeReplacement(before: before, after: before) }
            try db.execute(sql: """
                UPDATE looks SET png = ?, layout = ?, value_min = ?, value_max = ?, cube_size = ?, content_hash = ?
                WHERE guid = ?
                """, arguments: [Data(blob.png), blob.layout, blob.range.lower, blob.range.upper, cube.size, blob.hash,
                                 key])
            return CubeReplacement(before: before, after: try Catalog.fetchLook(db, guid: key) ?? before)
        }
        cache.remove(key)
        return replacement
    }

    /// The look `guid` as it is before its cube becomes one hashing to `hash`; refused when there is no such look,
    /// or when another look stores that cube already (content hashes are unique).
    static func lookTakingCube(_ db: Database, guid: String, hash: String) throws -> LookRecord {
        let key = guid.uppercased()
        guard let before = try fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
        if let other = try LookRecord.fetchOne(db, sql: LookRecord.selectSQL + " WHERE content_hash = ? AND guid != ?",
                                               arguments: [hash, key]) {
            throw CatalogError.contentTaken(guid: key, by: "\(other.guid) (\(MessageText.quote(other.name)))")
        }
        return before
    }

    static func insert(_ db: Database, _ record: LookRecord, blob: LookBlob.Encoded) throws {
        try db.execute(sql: """
            INSERT INTO looks (guid, name, cube_size, png, layout, value_min, value_max, content_hash, source_format,
                               source_file, description, recipe_yaml, created_at, working_space, working_space_icc)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [record.guid, record.name, record.cubeSize, Data(blob.png), record.layout,
                             blob.range.lower, blob.range.upper,
                             record.contentHash, record.sourceFormat, record.sourceFile, record.description,
                             record.recipeYAML, record.createdAt, record.workingSpace,
                             record.workingSpaceICC.map { Data($0) }])
        for tag in record.tags {
            try db.execute(sql: "INSERT INTO look_tags (look_guid, tag) VALUES (?, ?)", arguments: [record.guid, tag])
        }
    }

    /// Throws what ``addLook(_:renameOnConflict:asNew:)`` would for `name` and `tags` (a bad or taken name, a bad
    /// tag), so a long job such as an extraction fails before it starts rather than after.
    public func checkNewLook(name: String, tags: [String]) throws {
        let clean = try Catalog.cleanName(name)
        _ = try Catalog.cleanTags(tags)
        if try read({ db in try Catalog.nameTaken(db, clean) }) { throw CatalogError.duplicateName(clean) }
    }

    /// Whether another look than `except` (a GUID) has `name`, compared by ``LookName/key(_:)``.
    static func nameTaken(_ db: Database, _ name: String, except guid: String? = nil) throws -> Bool {
        try named(db, name, except: guid) != nil
    }

    /// The GUID of the look whose name is `name` by ``LookName/key(_:)`` (other than `except`), if any.
    static func named(_ db: Database, _ name: String, except guid: String? = nil) throws -> String? {
        let key = LookName.key(name)
        let rows = try Row.fetchCursor(db, sql: "SELECT guid, name FROM looks")
        while let row = try rows.next() {
            let other: String = row["guid"]
            if other != guid, LookName.key(row["name"]) == key { return other }
        }
        return nil
    }

    /// `name`, or `name 2`, `name 3`, … whichever is free first.
    static func freeName(_ db: Database, startingWith name: String) throws -> String {
        if try !nameTaken(db, name) { return name }
        var n = 2
        while try nameTaken(db, "\(name) \(n)") { n += 1 }
        return "\(name) \(n)"
    }

    /// The trimmed name, or `CatalogError.badName` saying which rule of `LookName` it breaks.
    static func cleanName(_ name: String) throws(CatalogError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty && !MessageText.hasControl(name) { throw .invalidName(name) }
        if let problem = LookName.problem(name: trimmed) { throw .badName(trimmed, problem) }
        return trimmed
    }

    /// The trimmed tag, or `CatalogError.badName` (tags may look like hex: they are never resolved as GUIDs).
    static func cleanTag(_ tag: String) throws(CatalogError) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty && !MessageText.hasControl(tag) { throw .invalidName(tag) }
        if let problem = LookName.problem(text: trimmed) { throw .badName(trimmed, problem) }
        return trimmed
    }

    /// Trimmed, non-empty tags without duplicates (ignoring case), sorted.
    static func cleanTags(_ tags: [String]) throws(CatalogError) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for tag in tags {
            let t = try cleanTag(tag)
            if seen.insert(t.lowercased()).inserted { out.append(t) }
        }
        return out.sorted { $0.lowercased() < $1.lowercased() }
    }

    /// Removes a look. A look that a scene uses as its default is refused unless `force`, which clears those
    /// scenes' default look in the same transaction. Returns the labels of the scenes cleared.
    @discardableResult
    public func removeLook(guid: String, force: Bool = false) throws -> [Int] {
        try removeLookReporting(guid: guid, force: force).clearedScenes
    }

    /// Removes a look with its versions and tags. A look that scenes use as their default or whose GUID or name
    /// another look's recipe names is refused listing them, unless `force`: then the scenes' default look is
    /// cleared in the same transaction and the removal says which recipes it broke.
    public func removeLookReporting(guid: String, force: Bool) throws -> LookRemoval {
        let key = guid.uppercased()
        let removal: LookRemoval = try write { db in
            guard let record = try Catalog.fetchLook(db, guid: key) else { throw CatalogError.lookNotFound(guid) }
            let labels = try Int.fetchAll(db, sql: "SELECT label FROM scenes WHERE default_look_guid = ? ORDER BY label",
                                          arguments: [key])
            let users = try Catalog.recipeUsers(db, of: record).map { "\($0.guid) (\($0.name))" }
            if !force && users.isEmpty && !labels.isEmpty {
                throw CatalogError.lookInUse(guid: key, name: record.name, sceneLabels: labels)
            }
            if !force && !users.isEmpty {
                throw CatalogError.lookUsed(guid: key, name: record.name, sceneLabels: labels, recipeUsers: users)
            }
            try db.execute(sql: "UPDATE scenes SET default_look_guid = NULL WHERE default_look_guid = ?",
                           arguments: [key])
            try db.execute(sql: "DELETE FROM looks WHERE guid = ?", arguments: [key])
            return LookRemoval(clearedScenes: labels, brokenRecipes: users)
        }
        cache.remove(key)
        return removal
    }

    /// A look that failed `verify`, and why.
    public struct VerifyProblem: Sendable, Equatable, CustomStringConvertible {
        /// The look's GUID, or "catalog" for whole-file problems.
        public var guid: String
        /// What is wrong.
        public var message: String
        public var description: String { "\(guid): \(message)" }
    }

    /// Checks SQLite's integrity and foreign keys, and that every look blob (older versions too, as `GUID@N`)
    /// decodes to a cube of its recorded size whose hash matches. Returns the problems found (empty when the
    /// catalog is sound) and the look count.
    public func verify() throws -> (lookCount: Int, problems: [VerifyProblem]) {
        let result = try read { db in
            var problems: [VerifyProblem] = []
            let schema = try Catalog.schemaProblems(db)
            problems += schema.map { VerifyProblem(guid: "catalog", message: $0) }
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] {
                problems.append(VerifyProblem(guid: "catalog", message: "integrity check: "
                    + integrity.joined(separator: "; ")))
            }
            let fkRows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            for row in fkRows {
                let table: String = row[0]
                problems.append(VerifyProblem(guid: "catalog", message: "a row of \(table) refers to a missing row"))
            }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT guid, cube_size, content_hash, \(LookBlob.columns) FROM looks
                UNION ALL SELECT look_guid || '@' || version, cube_size, content_hash, \(LookBlob.columns)
                FROM look_versions
                """)
            var count = 0
            while let row = try rows.next() {
                let guid: String = row["guid"]
                if !guid.contains("@") { count += 1 }
                let size: Int = row["cube_size"]
                let hash: String = row["content_hash"]
                do {
                    let cube = try LookBlob.decode(row: row, guid: guid)
                    if cube.size != size {
                        problems.append(VerifyProblem(guid: guid, message: "blob holds a \(cube.size)³ cube, "
                            + "the row says \(size)³"))
                    }
                    let actual = LookBlob.contentHash(cube)
                    if actual != hash {
                        problems.append(VerifyProblem(guid: guid, message: "content hash \(actual) does not match "
                            + "the recorded \(hash)"))
                    }
                } catch CatalogError.corruptLook(_, let reason) {
                    // The decoder names the look too; the problem line already starts with it.
                    let detail = reason.hasPrefix("look \(guid): ") ? String(reason.dropFirst("look \(guid): ".count))
                        : reason
                    problems.append(VerifyProblem(guid: guid, message: "blob does not decode: \(detail)"))
                } catch {
                    problems.append(VerifyProblem(guid: guid, message: "blob does not decode: \(error)"))
                }
            }
            let metaTable = !schema.contains { $0.hasSuffix(" catalog_meta is missing") }
            return (lookCount: count, problems: problems, canMark: metaTable && integrity == ["ok"])
        }
        recordVerdict(result.problems, canMark: result.canMark)
        return (result.lookCount, result.problems)
    }

    /// Leaves verify's verdict in the file for the integrity check of later writes: the first problem as the
    /// damage mark, or no mark when the catalog is sound (which also lifts a mark a failed read left by mistake).
    /// A file whose pages are broken is not written at all (`canMark` false): its writes are refused anyway.
    private func recordVerdict(_ problems: [VerifyProblem], canMark: Bool) {
        if let first = problems.first { integrity.recordDamage(first.description) }
        guard access == .readWrite, canMark else { return }
        try? dbQueue.write { db in
            if let first = problems.first {
                try db.execute(sql: "INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)",
                               arguments: [Catalog.damageKey, "catalog verify found: \(first)"])
            } else {
                try db.execute(sql: "DELETE FROM catalog_meta WHERE key = ?", arguments: [Catalog.damageKey])
            }
        }
    }
}
