import LookCore
import Testing
@testable import Extraction

/// The fit's model is `apply`: Extraction evaluates cubes through `CubeSampler.Table` and builds its normal equations
/// from `CubeSampler.stencil`, so both must agree with the samplers `apply` uses.
@Suite struct LatticeSamplingTests {
    static func colours() -> [SIMD3<Float>] {
        var generator = SystemRandomNumberGenerator()
        var colours = (0..<2000).map { _ in
            SIMD3<Float>(Float.random(in: -0.1...1.1, using: &generator), Float.random(in: 0...1, using: &generator),
                         Float.random(in: 0...1, using: &generator))
        }
        colours += [SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(0.5, 0.5, 0.25), SIMD3(0.125, 0.375, 1)]
        return colours
    }

    @Test(arguments: Interpolation.allCases)
    func theFitEvaluatesCubesExactlyAsApplyDoes(_ interpolation: Interpolation) throws {
        let cube = try ExtractionFixtures.creativeLook(size: 9)
        let sampler = CubeSampler(cube)
        let colours = Self.colours()
        var flat = colours.flatMap { [$0.x, $0.y, $0.z] }
        flat.withUnsafeMutableBufferPointer { BatchSampler(cube, interpolation: interpolation).apply(inPlace: $0) }
        let fitted = PairImage(sized: colours.count, 1, rgb: colours.flatMap { [$0.x, $0.y, $0.z] })
            .applying(cube, interpolation: interpolation)
        sampler.withUnsafeTable { table in
            for (k, c) in colours.enumerated() {
                let v = table.sample(c, interpolation: interpolation)
                #expect(v == sampler.sample(c, interpolation: interpolation))
                #expect(v == SIMD3(flat[3 * k], flat[3 * k + 1], flat[3 * k + 2]))
                #expect(v == SIMD3(fitted.rgb[3 * k], fitted.rgb[3 * k + 1], fitted.rgb[3 * k + 2]))
            }
        }
    }

    @Test(arguments: Interpolation.allCases)
    func theStencilIsTheInterpolationsOwnWeights(_ interpolation: Interpolation) throws {
        let cube = try ExtractionFixtures.creativeLook(size: 9)
        let sampler = CubeSampler(cube)
        for c in Self.colours() {
            let s = CubeSampler.stencil(c, size: cube.size, interpolation: interpolation)
            #expect(s.count == (interpolation == .tetrahedral ? 4 : 8))
            #expect(abs(s.weights.sum() - 1) < 1e-6)
            #expect(s.weights.min() >= 0)
            var v = SIMD3<Float>()
            for k in 0..<s.count {
                let i = s.nodes[k]
                v += s.weights[k] * SIMD3(cube.values[3 * i], cube.values[3 * i + 1], cube.values[3 * i + 2])
            }
            let expected = sampler.sample(c, interpolation: interpolation)
            let d = v - expected
            #expect(max(abs(d.x), abs(d.y), abs(d.z)) < 1e-5)
        }
    }
}
