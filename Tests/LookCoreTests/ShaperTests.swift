import Foundation
import Testing
@testable import LookCore

@Suite struct ShaperTests {
    @Test("a 1D table maps its input range linearly onto its entries")
    func inputRange() throws {
        // Identity over 0…3 (Resolve's LUT_1D_INPUT_RANGE 0 3 with outputs 0, 1.5, 3).
        let shaper = try Shaper(size: 3, values: [0, 0, 0, 1.5, 1.5, 1.5, 3, 3, 3], inputMin: .zero, inputMax: SIMD3(repeating: 3))
        #expect(shaper.apply(SIMD3(1.5, 0.75, 3)) == SIMD3(1.5, 0.75, 3))
        #expect(shaper.apply(SIMD3(-1, 5, 0)) == SIMD3(0, 3, 0))
    }

    @Test("a shaper runs before the cube, and the cube's own input domain is honoured")
    func lutEvaluation() throws {
        let square = try Shaper(size: 5, values: (0..<5).flatMap { i in Array(repeating: Float(i * i) / 16, count: 3) })
        let swap = try ColorCube(size: 2) { SIMD3($0.z, $0.y, $0.x) }
        let lut = try LUT(shaper: square, cube: swap)
        let out = lut.evaluate(SIMD3(0.5, 0.25, 1))
        #expect(abs(out.x - 1) < 1e-6 && abs(out.z - 0.25) < 1e-6)
        let domain = try LUT(cube: try ColorCube.identity(size: 2), cubeInputMin: SIMD3(0, 1, 0), cubeInputMax: SIMD3(2, 2, 1))
        let d = domain.evaluate(SIMD3(1, 1.5, 0.5))
        #expect(abs(d.x - 0.5) < 1e-6 && abs(d.y - 0.5) < 1e-6 && abs(d.z - 0.5) < 1e-6)
    }

    @Test("baking a shaper + cube gives a plain cube that agrees at its grid points")
    func baking() throws {
        let gamma = try Shaper(size: 256, values: (0..<256).flatMap { i in Array(repeating: Float(pow(Double(i) / 255, 2.2)), count: 3) })
        let lut = try LUT(shaper: gamma, cube: try Reference.look(size: 9))
        #expect(!lut.isPlainCube)
        let baked = try lut.bakedCube(size: 17)
        for i in stride(from: 0, to: baked.entryCount, by: 37) {
            let expected = lut.evaluate(baked.gridColor(at: i))
            #expect(abs(baked.values[3 * i] - expected.x) < 1e-6)
        }
        #expect(throws: LookCoreError.emptyLUT) { try LUT() }
        #expect(throws: LookCoreError.self) { try Shaper(size: 2, values: [0, 0, 0, 1, 1, 1], inputMin: .one, inputMax: .zero) }
    }
}
