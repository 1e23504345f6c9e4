import Foundation
import LookStudioTestSupport
import Testing
@testable import Workflows

/// The studio's caches stay within their byte budgets however many sizes and photos are asked for.
@Suite struct StudioCacheTests {
    @Test func theCacheDropsTheLeastRecentlyUsedEntriesToStayWithinItsBudget() {
        var cache = StudioCache<String, Int>(budget: 100)
        cache.store(1, bytes: 40, for: "a")
        cache.store(2, bytes: 40, for: "b")
        #expect(cache.value(for: "a") == 1)
        cache.store(3, bytes: 40, for: "c")
        #expect(cache.value(for: "b") == nil, "b was used least recently")
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        #expect(cache.bytes == 80)
        cache.store(4, bytes: 101, for: "d")
        #expect(cache.value(for: "d") == nil, "larger than the whole budget")
        cache.store(5, bytes: 100, for: "a")
        #expect(cache.bytes == 100 && cache.value(for: "a") == 5 && cache.value(for: "c") == nil)
    }

    @Test func previewsOfEverySizeStayWithinTheSessionsBudget() throws {
        let folder = NSTemporaryDirectory() + "studio-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The CLI creates the catalog from the shipped seed, which the session then opens.
        let catalog = folder + "/catalog.sqlite"
        #expect(try StudioServerTests.cli(["--catalog", catalog, "looks", "list"]).status == 0)
        let budget = 1 << 20
        let session = try StudioSession(paths: [StudioServerTests.photo], catalogPath: catalog,
                                        pluginSearchPaths: [], previewCacheBudget: budget)
        // 600×400: the 50 sizes below hold about 12 MB together, twelve times the budget.
        for long in stride(from: 100, to: 600, by: 10) {
            let preview = try session.preview(photo: 0, longSide: long)
            #expect(max(preview.width, preview.height) == long)
            #expect(session.previewCacheBytes <= budget, "after long=\(long)")
        }
        #expect(session.previewCacheBytes > budget / 2, "the latest previews are kept")
    }
}
