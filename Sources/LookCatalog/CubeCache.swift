import Foundation
import LookCore

/// Decoded cubes by GUID, kept for the life of the `Catalog` (in the CLI, the process).
///
/// Removing a look or replacing its cube (`looks rebuild`) drops its entry; each entry also carries the content hash
/// it was decoded from, so a cube another process stored meanwhile is not answered from a stale entry.
/// One `Catalog` may be shared by several threads, so the entries are `Locked`.
final class CubeCache: Sendable {
    private let cubes = Locked<[String: (hash: String, cube: ColorCube)]>([:])

    /// The cube stored for `key`, if it was stored with content hash `hash`: another process may have given the
    /// look a new cube since (a studio left running while `looks update` runs), and then the entry is stale.
    func cube(_ key: String, hash: String) -> ColorCube? {
        cubes.withLock { $0[key].flatMap { $0.hash == hash ? $0.cube : nil } }
    }

    func store(_ cube: ColorCube, for key: String, hash: String) {
        cubes.withLock { $0[key] = (hash, cube) }
    }

    func remove(_ key: String) {
        _ = cubes.withLock { $0.removeValue(forKey: key) }
    }
}
