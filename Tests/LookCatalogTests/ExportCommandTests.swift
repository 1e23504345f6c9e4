import Foundation
import LookStudioTestSupport
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

@Suite(.enabled(if: CLI.available, "build lookstudio first (swift build)"))
struct ExportCommandTests {
    @Test func cubeExportReimportsWithin16BitPrecision() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        let original = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:])
        let look = try original.resolveLook("Teal & Orange")
        let cube = try original.cube(guid: look.guid)
        let exported = "\(dir)/teal.cube"
        let export = try CLI.run(["export", String(look.guid.prefix(8)), "-o", exported, "--catalog", catalogPath])
        #expect(export.status == 0, "\(export.stderr)")
        // Remove the look so the import stores the file's cube instead of finding the same hash.
        #expect(try CLI.run(["looks", "rm", look.guid, "--force", "--catalog", catalogPath]).status == 0)
        let imported = try CLI.run(["import", exported, "--catalog", catalogPath])
        #expect(imported.status == 0, "\(imported.stderr)")
        let guid = imported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(guid != look.guid)
        let back = try Catalog(path: catalogPath, seedDirectory: TestSupport.packageRoot, environment: [:]).cube(guid: guid)
        #expect(back.size == cube.size)
        var worst: Float = 0
        for (a, b) in zip(back.values, cube.values) { worst = max(worst, abs(a - b)) }
        #expect(worst <= 1 / 65535)
    }

    @Test func pngExportHonoursLayoutBitsAndSize() throws {
        let dir = try TestSupport.tempDir()
        let catalogPath = "\(dir)/c.sqlite"
        let out = "\(dir)/cyan.png"
        let r = try CLI.run(["export", "cyanotype", "-o", out, "--layout", "strip", "--bits", "8", "--size", "9",
                                   "--catalog", catalogPath])
        #expect(r.status == 0, "\(r.stderr)")
        let read = try CubeImage.read(path: out, layout: .strip)
        #expect(read.cube.size == 9 && read.depth == .eight)
    }
}
