import Foundation
import LookCore

/// Decoded cubes by GUID, kept for the life of the `Catalog` (in the CLI, the process).
///
/// Removing a look or replacing its cube (`looks rebuild`) drops its entry; each entry also carries the content hash
/// it was decoded from, so a cube another process stored meanwhile is not answered from a stale entry.
/// Guarded by `lock`, because one `Catalog` may be shared by several threads.
final class CubeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cubes: [String: (hash: String, cube: ColorCube)] = [:]

    /// The cube stored for `key`, if it was stored with content hash `hash`: another process may have given the
    /// look a new cube since (a studio left running while `looks update` runs), and then the entry is stale.
    func cube(_ key: String, hash: String) -> ColorCube? {
        lock.withLock { cubes[key].flatMap { $0.hash == hash ? $0.cube : nil } }
    }

    func store(_ cube: ColorCube, for key: String, hash: String) {
        lock.withLock { cubes[key] = (hash, cube) }
    }

    func remove(_ key: String) {
        _ = lock.withLock { cubes.removeValue(forKey: key) }
    }
}
