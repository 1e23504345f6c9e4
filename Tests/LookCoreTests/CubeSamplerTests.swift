import Testing
@testable import LookCore

@Suite struct CubeSamplerTests {
    @Test("grid points are returned exactly", arguments: Interpolation.allCases)
    func exactAtGrid(interpolation: Interpolation) throws {
        for size in [2, 4, 17, 33, 64] {
            let look = try Reference.look(size: size)
            let sampler = CubeSampler(look)
            for i in stride(from: 0, to: look.entryCount, by: max(1, look.entryCount / 500)) {
                let out = sampler.sample(look.gridColor(at: i), interpolation: interpolation)
                #expect(out == SIMD3(look.values[3 * i], look.values[3 * i + 1], look.values[3 * i + 2]))
            }
        }
    }

    @Test("matches the textbook Double interpolators on random colours", arguments: Interpolation.allCases)
    func matchesReference(interpolation: Interpolation) throws {
        let look = try Reference.look(size: 17)
        let sampler = CubeSampler(look)
        var rng = Reference.LCG(state: 42)
        for _ in 0..<5000 {
            let x = SIMD3(rng.next(), rng.next(), rng.next())
            let expected = Reference.sample(look, x, tetrahedral: interpolation == .tetrahedral)
            let got = sampler.sample(SIMD3<Float>(x), interpolation: interpolation)
            #expect(abs(Double(got.x) - expected.x) < 2e-6)
            #expect(abs(Double(got.y) - expected.y) < 2e-6)
            #expect(abs(Double(got.z) - expected.z) < 2e-6)
        }
    }

    @Test("inputs outside 0…1 are clamped to the cube's edges")
    func clampsInputs() throws {
        let look = try Reference.look(size: 5)
        let sampler = CubeSampler(look)
        #expect(sampler.sample(SIMD3(-0.5, 2, 0.5), interpolation: .tetrahedral)
                == sampler.sample(SIMD3(0, 1, 0.5), interpolation: .tetrahedral))
    }

    @Test("an identity cube samples to its input under both interpolations", arguments: Interpolation.allCases)
    func identityIsLinear(interpolation: Interpolation) throws {
        let sampler = CubeSampler(try ColorCube.identity(size: 8))
        var rng = Reference.LCG(state: 3)
        for _ in 0..<1000 {
            let x = SIMD3(Float(rng.next()), Float(rng.next()), Float(rng.next()))
            let y = sampler.sample(x, interpolation: interpolation)
            #expect(abs(y.x - x.x) < 1e-6 && abs(y.y - x.y) < 1e-6 && abs(y.z - x.z) < 1e-6)
        }
    }
}
