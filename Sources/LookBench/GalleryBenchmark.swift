import Foundation
import LookCore
import LookGallery
import Rendering

/// The generated looks of `bench gallery`.
public enum GalleryBenchmark {
    /// `count` generated looks as gallery cards, each named by its cube's `hasher` hash.
    public static func looks(count: Int, size: Int, hasher: @escaping GalleryBuilder.Hasher) throws
        -> [GalleryBuilder.Look] {
        try (0..<count).map { index in
            let cube = try Self.cube(index, size: size)
            return GalleryBuilder.Look(
                info: GalleryLookInfo(id: "bench-\(index)", guid: nil, name: "Bench \(index)", cubeSize: cube.size,
                                      source: "generated"),
                contentHash: cube.values.withUnsafeBytes { hasher(Data($0)) }, loadCube: { cube })
        }
    }

    /// Look `k`: a smooth colour function (gains, gamma and a saturation change that vary with `k`) as a cube.
    public static func cube(_ k: Int, size: Int) throws -> ColorCube {
        let t = Float(k % 17) / 16, u = Float(k % 7) / 6
        let gain = SIMD3<Float>(0.85 + 0.3 * t, 0.9 + 0.2 * u, 1.15 - 0.3 * t)
        let gamma = 0.75 + 0.5 * u
        let saturation = 0.5 + t
        return try ColorCube(size: size) { c in
            let luma = ColorScience.luma(c)
            var v = SIMD3<Float>(repeating: luma) + saturation * (c - SIMD3<Float>(repeating: luma))
            v = (v * gain).clamped(lowerBound: .zero, upperBound: .one)
            return SIMD3(powf(v.x, gamma), powf(v.y, gamma), powf(v.z, gamma))
        }
    }
}
