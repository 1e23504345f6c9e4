import Foundation
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

/// What `import` stores for a LUT file: the look `apply --lut` would use, on a grid fine enough to hold it.
@Suite struct LookFileTests {
    static let corpus = "\(TestSupport.packageRoot)/Tests/Fixtures/corpus"

    /// Largest difference, in 8-bit codes, between two cubes sampled on a 17³ grid of inputs.
    static func largestDifference(_ a: ColorCube, _ b: ColorCube) -> Float {
        var largest: Float = 0
        for b3 in 0..<17 { for g in 0..<17 { for r in 0..<17 {
            let rgb = SIMD3(Float(r), Float(g), Float(b3)) / 16
            let d = a.sample(rgb, interpolation: .tetrahedral) - b.sample(rgb, interpolation: .tetrahedral)
            largest = max(largest, max(d.max(), -d.min()) * 255)
        } } }
        return largest
    }

    @Test(arguments: ["colour_resolve_3d_with_shaper.cube", "colour_resolve_logc_video_1d16_3d4.cube"])
    func aShapersCoarseTableIsBakedFineEnoughToMatchApply(file: String) throws {
        let loaded = try LookFile.read(path: "\(Self.corpus)/\(file)", layout: nil)
        // What `apply --lut` looks up: the standard bake (at least 65 points).
        let applied = try LUTFormat.readCube(path: "\(Self.corpus)/\(file)").cube
        #expect(loaded.cube.size >= 64)
        #expect(Self.largestDifference(loaded.cube, applied) < 2, "\(file)")
        #expect(loaded.warnings.contains { $0.contains("baked into a \(loaded.cube.size)³ cube") })
    }

    @Test func aPlainCubeKeepsItsOwnGrid() throws {
        let loaded = try LookFile.read(path: "\(Self.corpus)/cubelutloader_resolve_17_crlf.cube", layout: nil)
        #expect(loaded.cube.size == 17 && loaded.warnings.allSatisfy { !$0.contains("baked") })
    }
}
