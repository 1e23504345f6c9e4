import LookCore
import Testing

@Suite struct CubeLatticeTests {
    @Test("identity values computed per lattice point are the identity cube's, and its 16-bit quantisation's",
          arguments: [2, 5, 17, 33, 64])
    func identityValuesMatchTheCube(size: Int) throws {
        let cube = try ColorCube.identity(size: size)
        let quantized = try cube.quantizedTo16Bit()
        let plain = IdentityValues(size: size, quantizedTo16Bit: false)
        let rounded = IdentityValues(size: size, quantizedTo16Bit: true)
        #expect(cube.values.indices.allSatisfy { plain[$0] == cube.values[$0] })
        #expect(quantized.values.indices.allSatisfy { rounded[$0] == quantized.values[$0] })
        #expect(try CubeLattice.identity(plain).materialized() == cube)
        #expect(try CubeLattice.identity(plain).quantizedTo16Bit() == .identity(rounded))
    }

    @Test("quantising in place rounds every value, clamped to 0…1, to v/65535")
    func quantizedInPlace() throws {
        let cube = try ColorCube(size: 5) { SIMD3($0.x * 1.3 - 0.1, $0.y * $0.y, 0.123_456 + 0.5 * $0.z) }
        let expected = cube.values.map { Float((min(max($0, 0), 1) * 65535).rounded()) / 65535 }
        #expect(try cube.quantizedTo16Bit().values == expected)
        #expect(cube.values[0] == -0.1, "the cube quantised is a copy; this one is unchanged")
    }
}
