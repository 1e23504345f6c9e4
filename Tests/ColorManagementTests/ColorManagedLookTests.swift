import Foundation
import Testing
import LookCore
@testable import ColorManagement

/// A look with contrast, a warm shift and more saturation: enough curvature to make grid errors show.
func testLook(size: Int = 33) throws -> ColorCube {
    try ColorCube(size: size) { c in
        let s = c * c * (3 - 2 * c)
        var out = 0.6 * s + 0.4 * c + SIMD3(0.03, 0.0, -0.03)
        let y = (out * SIMD3(0.2126, 0.7152, 0.0722)).sum()
        out = y + 1.25 * (out - y)
        return out.clamped(lowerBound: .zero, upperBound: .one)
    }
}

/// Photo-like colours: a deterministic spread over the whole cube plus dense shadows and skin/sky hues.
func testColors(count: Int = 6000) -> [Float] {
    var state: UInt64 = 0x9E3779B97F4A7C15
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    var out: [Float] = []
    for i in 0..<count {
        let scale: Float = i % 4 == 0 ? 0.15 : 1
        out += [next() * scale, next() * scale, next() * scale]
    }
    return out
}

func deltaE(cube: ColorCube, managed: ColorManagedLook, input: ColorProfile, output: ColorProfile) throws
    -> ColorAccuracy.Summary {
    let colors = testColors()
    var reference = colors
    try managed.applyPerPixel(&reference, input: input, output: output)
    var viaCube = colors
    viaCube.withUnsafeMutableBufferPointer { BatchSampler(cube).apply(inPlace: $0) }
    return ColorAccuracy.Summary(try ColorAccuracy.differences(reference, viaCube, in: output))
}

@Suite("ColorManagedLook")
struct ColorManagedLookTests {
    @Test("a look in sRGB applied to sRGB pixels is the look itself, bit for bit")
    func sameSpaceIsUntouched() throws {
        let look = try testLook()
        let managed = ColorManagedLook(look: look, workingSpace: ColorProfile(.sRGB))
        #expect(try managed.cube(input: ColorProfile(.sRGB), output: ColorProfile(.sRGB)) == look)
    }

    @Test("Display P3 and Adobe RGB through an sRGB look match per-pixel conversion within ΔE00 mean 0.1, max 1.0",
          arguments: [ColorProfile.Named.displayP3, .adobeRGB])
    func composedMatchesPerPixel(space: ColorProfile.Named) throws {
        let managed = ColorManagedLook(look: try testLook(size: 17), workingSpace: ColorProfile(.sRGB))
        let profile = ColorProfile(space)
        let cube = try managed.cube(input: profile, output: profile)
        let summary = try deltaE(cube: cube, managed: managed, input: profile, output: profile)
        if ProcessInfo.processInfo.environment["LOOKSTUDIO_PRINT_GRID_ERRORS"] != nil {
            for n in [17, 33, 49, 65, 97] {
                let s = try deltaE(cube: try ColorManagedLook(look: try testLook(size: 17), workingSpace: ColorProfile(.sRGB)).cube(input: profile, output: profile, gridSize: n),
                                   managed: managed, input: profile, output: profile)
                print("grid \(n) \(space.rawValue): mean \(s.mean) p95 \(s.p95) max \(s.max)")
            }
        }
        #expect(summary.mean <= 0.1)
        #expect(summary.max <= 1.0)
    }

    @Test("the identity look leaves a Display P3 image alone, even outside sRGB; converting to sRGB clips")
    func identityLook() throws {
        let identity = try ColorCube.identity(size: 17)
        let managed = ColorManagedLook(look: identity, workingSpace: ColorProfile(.sRGB))
        #expect(try managed.cube(input: ColorProfile(.displayP3), output: ColorProfile(.displayP3)) == identity)
        let toSRGB = try managed.cube(input: ColorProfile(.displayP3), output: ColorProfile(.sRGB))
        let red = toSRGB.sample(SIMD3(1, 0, 0))
        #expect(red.x == 1 && red.y < 0.01 && red.z < 0.01)
    }

    @Test("a look in sRGB clips Display P3 colours outside sRGB, and keeps those inside")
    func outputConversion() throws {
        let almostIdentity = try ColorCube(size: 17) { $0 * 0.999 + 0.0005 }
        let managed = ColorManagedLook(look: almostIdentity, workingSpace: ColorProfile(.sRGB))
        let p3 = ColorProfile(.displayP3)
        let cube = try managed.cube(input: p3, output: p3)
        // P3 → sRGB → P3 through a look that barely moves colours: P3 colours outside sRGB are clipped.
        let inside = cube.sample(SIMD3(0.5, 0.45, 0.4))
        #expect(abs(inside.x - 0.5) < 0.003 && abs(inside.y - 0.45) < 0.003 && abs(inside.z - 0.4) < 0.003)
        let saturatedRed = cube.sample(SIMD3(1, 0, 0))
        #expect(saturatedRed.y > 0.1)
    }
}
