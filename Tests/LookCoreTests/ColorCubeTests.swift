import Testing
@testable import LookCore

@Suite struct ColorCubeTests {
    @Test("red varies fastest, then green, then blue", arguments: [2, 4, 17])
    func identityLayout(size: Int) throws {
        let cube = try ColorCube.identity(size: size)
        #expect(cube.values.count == 3 * size * size * size)
        let last = Float(size - 1)
        for (r, g, b) in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (size - 1, size - 2, 1)] {
            let i = r + size * g + size * size * b
            #expect(cube.values[3 * i] == Float(r) / last)
            #expect(cube.values[3 * i + 1] == Float(g) / last)
            #expect(cube.values[3 * i + 2] == Float(b) / last)
            #expect(cube.entry(r: r, g: g, b: b) == cube.gridColor(at: i))
        }
    }

    @Test("sizes outside 2…256, wrong counts and NaN are refused")
    func validation() {
        #expect(throws: LookCoreError.invalidSize(1)) { try ColorCube.identity(size: 1) }
        #expect(throws: LookCoreError.invalidSize(300)) { try ColorCube(size: 300, values: []) }
        #expect(throws: LookCoreError.wrongValueCount(size: 2, expected: 24, found: 23)) {
            try ColorCube(size: 2, values: .init(repeating: 0, count: 23))
        }
        var values = [Float](repeating: 0, count: 24)
        values[5] = .nan
        #expect(throws: LookCoreError.nonFiniteValue) { try ColorCube(size: 2, values: values) }
        #expect(LookCoreError.invalidSize(300).description.contains("2 to 256"))
    }

    @Test("a NaN or infinity anywhere is refused, in the eight-lane body and the tail alike; huge finite values pass")
    func nonFiniteAnywhere() throws {
        let finite = (0..<81).map { Float($0 % 7) * (.greatestFiniteMagnitude / 8) - .greatestFiniteMagnitude / 2 }
        #expect(throws: Never.self) { try ColorCube(size: 3, values: finite) }
        for bad in [Float.nan, .infinity, -.infinity] {
            for index in [0, 7, 8, 40, 79, 80] {
                var values = finite
                values[index] = bad
                #expect(throws: LookCoreError.nonFiniteValue) { try ColorCube(size: 3, values: values) }
            }
        }
    }

    @Test("strength 0 is exactly identity, 1 exactly the look, 0.5 the midpoint of every entry")
    func strengthAgainstIdentity() throws {
        let look = try Reference.look(size: 9)
        let identity = try ColorCube.identity(size: 9)
        #expect(try look.scaled(strength: 0) == identity)
        #expect(try look.scaled(strength: 1) == look)
        let half = try look.scaled(strength: 0.5)
        for i in 0..<look.values.count {
            let expected = (identity.values[i] + look.values[i]) / 2
            #expect(abs(half.values[i] - expected) <= 1e-6)
        }
    }

    @Test("strength above 1 extrapolates and clamps to 0…1; beyond 2 is refused")
    func strengthExtrapolation() throws {
        let look = try ColorCube(size: 2) { c in SIMD3(1 - c.x, c.y, c.z * 0.5) }
        let doubled = try look.scaled(strength: 2)
        #expect(doubled.valueRange.lowerBound >= 0 && doubled.valueRange.upperBound <= 1)
        // Entry (0,0,0): identity 0, look r = 1 → 0 + 2·(1 − 0) = 2, clamped to 1.
        #expect(doubled.values[0] == 1)
        // Entry (1,0,0): look r = 0 → 1 + 2·(0 − 1) = −1, clamped to 0.
        #expect(doubled.values[3] == 0)
        #expect(throws: LookCoreError.self) { try look.scaled(strength: 2.5) }
        #expect(throws: LookCoreError.self) { try look.scaled(strength: -0.1) }
    }

    @Test("composing with identity is exact, on the same grid")
    func composeIdentity() throws {
        let look = try Reference.look(size: 17)
        let identity = try ColorCube.identity(size: 17)
        #expect(try identity.composed(with: look) == look)
        let after = try look.composed(with: identity)
        for i in 0..<look.values.count { #expect(abs(after.values[i] - look.values[i]) <= 1e-6) }
    }

    @Test("compose(A, B)(x) = B(A(x)), and three cubes compose associatively within Float rounding")
    func composeOrderAndAssociativity() throws {
        let a = try ColorCube(size: 9) { c in SIMD3(c.x * c.x, c.y, 1 - c.z) }
        let b = try ColorCube(size: 9) { c in SIMD3(c.z, c.x, c.y) }
        let c3 = try Reference.look(size: 9)
        let ab = try a.composed(with: b)
        var rng = Reference.LCG(state: 7)
        for _ in 0..<200 {
            let x = SIMD3(Float(rng.next()), Float(rng.next()), Float(rng.next()))
            let direct = b.sample(a.sample(x))
            let viaCube = ab.sample(x)
            // Composition is exact at grid points and interpolated between them; b is linear, so only a's
            // curvature separates the two, bounded by a's grid spacing.
            #expect(abs(direct.x - viaCube.x) < 0.01 && abs(direct.y - viaCube.y) < 0.01)
        }
        let left = try ab.composed(with: c3)
        let right = try a.composed(with: try b.composed(with: c3))
        for i in 0..<left.values.count { #expect(abs(left.values[i] - right.values[i]) <= 1e-5) }
    }

    @Test("resampling to a larger grid and back returns the original entries")
    func resample() throws {
        let look = try Reference.look(size: 5)
        let up = try look.resampled(to: 9)
        #expect(up.size == 9)
        let down = try up.resampled(to: 5)
        for i in 0..<look.values.count { #expect(abs(down.values[i] - look.values[i]) <= 1e-6) }
    }

    @Test("distance from identity and value range describe the cube")
    func statistics() throws {
        let identity = try ColorCube.identity(size: 4)
        #expect(identity.distanceFromIdentity.max == 0)
        #expect(identity.valueRange == 0...1)
        let shifted = try ColorCube(size: 4) { $0 * 0.5 + 0.25 }
        #expect(abs(shifted.distanceFromIdentity.max - 0.25) < 1e-6)
        let (clamped, count) = try ColorCube(size: 2) { $0 * 3 - 1 }.clampedToUnitRange()
        #expect(count == 24)
        #expect(clamped.valueRange == 0...1)
    }
}
