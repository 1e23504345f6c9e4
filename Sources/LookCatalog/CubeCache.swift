import Foundation
import LookCore

/// Decoded cubes by GUID, kept for the life of the `Catalog` (in the CLI, the process).
///
/// Removing a look or replacing its cube (`looks rebuild`) drops its entry, so entries never go stale.
/// Guarded by `lock`, because one `Catalog` may be shared by several threads.
final class CubeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cubes: [String: ColorCube] = [:]

    func cube(_ guid: String) -> ColorCube? {
        lock.withLock { cubes[guid] }
    }

    func store(_ cube: ColorCube, for guid: String) {
        lock.withLock { cubes[guid] = cube }
    }

    func remove(_ guid: String) {
        _ = lock.withLock { cubes.removeValue(forKey: guid) }
    }
}
