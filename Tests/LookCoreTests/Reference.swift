@testable import LookCore

/// Independent Double-precision interpolators (the textbook six-case tetrahedral and trilinear), used as the
/// reference the Float code is checked against.
enum Reference {
    static func entry(_ cube: ColorCube, _ r: Int, _ g: Int, _ b: Int) -> SIMD3<Double> {
        let i = 3 * (r + cube.size * (g + cube.size * b))
        return SIMD3(Double(cube.values[i]), Double(cube.values[i + 1]), Double(cube.values[i + 2]))
    }

    static func sample(_ cube: ColorCube, _ rgb: SIMD3<Double>, tetrahedral: Bool) -> SIMD3<Double> {
        let n = cube.size
        let x = rgb.clamped(lowerBound: .zero, upperBound: .one) * Double(n - 1)
        let r0 = min(Int(x.x), n - 2), g0 = min(Int(x.y), n - 2), b0 = min(Int(x.z), n - 2)
        let fr = x.x - Double(r0), fg = x.y - Double(g0), fb = x.z - Double(b0)
        func c(_ dr: Int, _ dg: Int, _ db: Int) -> SIMD3<Double> { entry(cube, r0 + dr, g0 + dg, b0 + db) }
        if !tetrahedral {
            let c00 = c(0, 0, 0) * (1 - fr) + c(1, 0, 0) * fr, c10 = c(0, 1, 0) * (1 - fr) + c(1, 1, 0) * fr
            let c01 = c(0, 0, 1) * (1 - fr) + c(1, 0, 1) * fr, c11 = c(0, 1, 1) * (1 - fr) + c(1, 1, 1) * fr
            return (c00 * (1 - fg) + c10 * fg) * (1 - fb) + (c01 * (1 - fg) + c11 * fg) * fb
        }
        let c000 = c(0, 0, 0), c111 = c(1, 1, 1)
        if fr > fg {
            if fg > fb { return (1 - fr) * c000 + (fr - fg) * c(1, 0, 0) + (fg - fb) * c(1, 1, 0) + fb * c111 }
            if fr > fb { return (1 - fr) * c000 + (fr - fb) * c(1, 0, 0) + (fb - fg) * c(1, 0, 1) + fg * c111 }
            return (1 - fb) * c000 + (fb - fr) * c(0, 0, 1) + (fr - fg) * c(1, 0, 1) + fg * c111
        }
        if fb > fg { return (1 - fb) * c000 + (fb - fg) * c(0, 0, 1) + (fg - fr) * c(0, 1, 1) + fr * c111 }
        if fb > fr { return (1 - fg) * c000 + (fg - fb) * c(0, 1, 0) + (fb - fr) * c(0, 1, 1) + fr * c111 }
        return (1 - fg) * c000 + (fg - fr) * c(0, 1, 0) + (fr - fb) * c(1, 1, 0) + fb * c111
    }

    /// A smooth, non-separable test look with values inside 0…1.
    static func look(size: Int) throws -> ColorCube {
        try ColorCube(size: size) { c in
            let s = c * c * (3 - 2 * c)
            return SIMD3(0.8 * s.x + 0.15 * c.y + 0.05, 0.9 * s.y + 0.05 * c.z, 0.75 * s.z + 0.1 * c.x)
        }
    }

    /// Deterministic pseudo-random generator for test inputs.
    struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }
}
