import LookCore
import Testing
@testable import Extraction

@Suite struct LatticeEvaluatorTests {
    @Test(arguments: Interpolation.allCases)
    func theFitEvaluatesCubesExactlyAsApplyDoes(_ interpolation: Interpolation) throws {
        let cube = try ExtractionFixtures.creativeLook(size: 9)
        let evaluator = LatticeEvaluator(cube, interpolation: interpolation)
        let sampler = CubeSampler(cube)
        var generator = SystemRandomNumberGenerator()
        var colours = (0..<2000).map { _ in
            SIMD3<Float>(Float.random(in: -0.1...1.1, using: &generator), Float.random(in: 0...1, using: &generator),
                         Float.random(in: 0...1, using: &generator))
        }
        colours += [SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(0.5, 0.5, 0.25), SIMD3(0.125, 0.375, 1)]
        for c in colours {
            #expect(evaluator.sample(c) == sampler.sample(c, interpolation: interpolation))
        }
    }
}
