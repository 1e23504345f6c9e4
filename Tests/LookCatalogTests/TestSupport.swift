import Foundation
import LookCatalog
import LookCore

/// Paths and helpers shared by the catalog tests; every test works in its own temporary folder.
enum TestSupport {
    /// The package root (Tests/LookCatalogTests/File.swift → three levels up).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// A fresh temporary folder.
    static func tempDir() throws -> String {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookcatalog-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// One freshly created and seeded catalog, closed; tests copy it instead of seeding ~30 catalogs.
    static let template: Result<String, any Error> = Result {
        let path = "\(try tempDir())/template.sqlite"
        _ = try Catalog(path: path, seedDirectory: packageRoot, environment: [:])
        return path
    }

    /// A new catalog in a temporary folder: a copy of a catalog seeded from the repository's Catalog/ and Looks/.
    static func newCatalog() throws -> Catalog {
        let path = "\(try tempDir())/catalog.sqlite"
        try FileManager.default.copyItem(atPath: try template.get(), toPath: path)
        return try Catalog(path: path, seedDirectory: packageRoot, environment: [:])
    }

    /// A smooth non-identity cube, different for each `seed`.
    static func cube(size: Int = 17, seed: Int) throws -> ColorCube {
        let k = Float(seed % 97 + 1) / 100
        return try ColorCube(size: size) { c in
            SIMD3(c.x * (1 - k) + k * c.y * c.y, c.y, min(1, c.z + k * 0.1 * c.x))
        }
    }

    /// The file's bytes.
    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }
}
