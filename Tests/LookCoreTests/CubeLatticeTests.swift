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

    @Test("quantising in place rounds every value to a 16-bit code over the cube's range, 0…1 unless it reaches beyond")
    func quantizedInPlace() throws {
        let inside = try ColorCube(size: 5) { SIMD3($0.x * 0.9, $0.y * $0.y, 0.123_456 + 0.5 * $0.z) }
        let expected = inside.values.map { Float(($0 * 65535).rounded()) / 65535 }
        #expect(try inside.quantizedTo16Bit().values == expected)
        let beyond = try ColorCube(size: 5) { SIMD3($0.x * 1.3 - 0.1, $0.y * $0.y, 0.123_456 + 0.5 * $0.z) }
        let range = CodeRange(covering: beyond)
        #expect(abs(range.lower + 0.1) < 1e-6 && abs(range.upper - 1.2) < 1e-6)
        let quantised = try beyond.quantizedTo16Bit()
        #expect(zip(quantised.values, beyond.values).allSatisfy { abs(Double($0 - $1)) <= range.step / 2 + 1e-7 })
        #expect(quantised.values == beyond.values.map { range.restored(Float(range.code($0)) / 65535) })
        #expect(beyond.values[0] == -0.1, "the cube quantised is a copy; this one is unchanged")
    }
}
