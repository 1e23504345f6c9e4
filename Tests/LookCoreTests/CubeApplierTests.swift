import Testing
@testable import LookCore

@Suite struct CubeApplierTests {
    static func randomPixels(count: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var rng = Reference.LCG(state: seed)
        return (0..<(count * channels)).map { _ in UInt8(rng.next() * 255.999) }
    }

    @Test("8-bit output is the Double reference rounded to nearest, within one code and on average within 0.05",
          arguments: Interpolation.allCases)
    func eightBitAccuracy(interpolation: Interpolation) throws {
        let look = try Reference.look(size: 33)
        var pixels = Self.randomPixels(count: 100_000, channels: 3, seed: 11)
        let source = pixels
        try pixels.withUnsafeMutableBufferPointer {
            try CubeApplier(cube: look, interpolation: interpolation).apply(to: $0, channels: 3)
        }
        var sum = 0.0, worst = 0.0
        for p in 0..<(source.count / 3) {
            let x = SIMD3(Double(source[3 * p]), Double(source[3 * p + 1]), Double(source[3 * p + 2])) / 255
            let expected = Reference.sample(look, x, tetrahedral: interpolation == .tetrahedral) * 255
            for c in 0..<3 {
                let err = abs(Double(pixels[3 * p + c]) - expected[c])
                sum += err
                worst = max(worst, err)
            }
        }
        // Rounding to nearest leaves at most half a code plus Float error; truncating tools sit near 0.5 mean.
        #expect(worst <= 0.5 + 1e-3)
        #expect(sum / Double(source.count) <= 0.26)
    }

    @Test("alpha passes through and RGBA equals RGB on the colour channels")
    func alphaPassThrough() throws {
        let look = try Reference.look(size: 9)
        let applier = CubeApplier(cube: look)
        let rgba = Self.randomPixels(count: 5000, channels: 4, seed: 5)
        var rgb = [UInt8]()
        for p in 0..<5000 { rgb += rgba[(4 * p)..<(4 * p + 3)] }
        var outRGBA = rgba
        try outRGBA.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 4) }
        try rgb.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 3) }
        for p in 0..<5000 {
            #expect(outRGBA[4 * p + 3] == rgba[4 * p + 3])
            #expect(Array(outRGBA[(4 * p)..<(4 * p + 3)]) == Array(rgb[(3 * p)..<(3 * p + 3)]))
        }
    }

    @Test("the identity cube leaves 8-bit and 16-bit pixels unchanged, bit for bit", arguments: [2, 17, 64])
    func identityIsExact(size: Int) throws {
        let applier = CubeApplier(cube: try ColorCube.identity(size: size))
        var all8 = [UInt8]()
        for v in 0..<256 { all8 += [UInt8(v), UInt8(255 - v), UInt8((v * 7) % 256)] }
        let before8 = all8
        try all8.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 3) }
        #expect(all8 == before8)
        var all16 = (0..<30000).map { UInt16(($0 * 2_654_435_761) % 65536) }
        let before16 = all16
        try all16.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 3) }
        #expect(all16 == before16)
    }

    @Test("one thread and all cores give identical results")
    func threadingIsDeterministic() throws {
        let applier = CubeApplier(cube: try Reference.look(size: 64))
        let source = Self.randomPixels(count: 300_000, channels: 3, seed: 9)
        var one = source, many = source
        try one.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 3, threads: 1) }
        try many.withUnsafeMutableBufferPointer { try applier.apply(to: $0, channels: 3) }
        #expect(one == many)
        #expect(one != source)
    }

    @Test("16-bit output tracks the Double reference within half a code")
    func sixteenBit() throws {
        let look = try Reference.look(size: 17)
        var rng = Reference.LCG(state: 21)
        var pixels = (0..<30000).map { _ in UInt16(rng.next() * 65535.999) }
        let source = pixels
        try pixels.withUnsafeMutableBufferPointer { try CubeApplier(cube: look).apply(to: $0, channels: 3) }
        for p in 0..<10000 {
            let x = SIMD3(Double(source[3 * p]), Double(source[3 * p + 1]), Double(source[3 * p + 2])) / 65535
            let expected = Reference.sample(look, x, tetrahedral: true) * 65535
            for c in 0..<3 { #expect(abs(Double(pixels[3 * p + c]) - expected[c]) <= 0.51) }
        }
    }

    @Test("a cube with entries outside 0…1 clamps each interpolated result, not the entries", arguments: [3, 4])
    func outOfRangeEntries(channels: Int) throws {
        let hdr = try ColorCube(size: 5) { c in c * 1.6 - 0.3 }
        var pixels = Self.randomPixels(count: 20_000, channels: channels, seed: 17)
        let source = pixels
        try pixels.withUnsafeMutableBufferPointer { try CubeApplier(cube: hdr).apply(to: $0, channels: channels) }
        for p in 0..<(source.count / channels) {
            let x = SIMD3(Double(source[channels * p]), Double(source[channels * p + 1]),
                          Double(source[channels * p + 2])) / 255
            let expected = Reference.sample(hdr, x, tetrahedral: true) * 255
            for c in 0..<3 {
                let clamped = min(max(expected[c], 0), 255)
                #expect(abs(Double(pixels[channels * p + c]) - clamped) <= 0.5 + 1e-3)
            }
        }
    }

    @Test("two-channel buffers are refused")
    func refusesChannels() throws {
        var pixels = [UInt8](repeating: 0, count: 8)
        #expect(throws: LookCoreError.unsupportedChannelCount(2)) {
            try pixels.withUnsafeMutableBufferPointer { try CubeApplier(cube: try ColorCube.identity(size: 2)).apply(to: $0, channels: 2) }
        }
    }
}
