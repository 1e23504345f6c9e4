import CCPUFeatures
import Dispatch
import Foundation
import Testing
@testable import LookCore

/// The vector kernels against the scalar reference loop: same arithmetic, so the same codes.
@Suite struct CubeApplierKernelTests {
    /// Every kernel this CPU runs besides scalar (empty on CPUs without SSE4.1, where there is nothing to compare).
    static let vectorKernels = CubeApplier.Kernel.allCases.filter { $0 != .scalar && $0 <= CubeApplier.Kernel.best }

    /// Smooth gradients plus ±3 codes of noise, the shape of a photograph's pixels (tetrahedra change slowly).
    static func photoLike(count: Int, channels: Int, maxCode: Double, seed: UInt64) -> [Double] {
        var rng = Reference.LCG(state: seed)
        let width = 613
        return (0..<(count * channels)).map { i in
            let p = i / channels, c = i % channels, x = Double(p % width), y = Double(p / width)
            let wave = 0.5 + 0.4 * sin(x / 97 + Double(c)) * cos(y / 53 - Double(c) / 2)
            return min(max((wave + (rng.next() - 0.5) * 6 / 255) * maxCode, 0), maxCode)
        }
    }

    static func randomCodes(count: Int, channels: Int, maxCode: Double, seed: UInt64) -> [Double] {
        var rng = Reference.LCG(state: seed)
        return (0..<(count * channels)).map { _ in (rng.next() * (maxCode + 0.999)).rounded(.down) }
    }

    /// Inputs that hit the grid edges, the top code and odd tails (count not a multiple of the lane width).
    static func inputs(channels: Int, maxCode: Double) -> [[Double]] {
        [photoLike(count: 20_011, channels: channels, maxCode: maxCode, seed: 3),
         randomCodes(count: 20_013, channels: channels, maxCode: maxCode, seed: 4),
         (0..<(7 * channels)).map { Double($0 % 2) * maxCode }]
    }

    static let cubes: [ColorCube] = {
        var cubes = [2, 17, 33, 64].map { try! Reference.look(size: $0) }
        cubes.append(try! ColorCube(size: 5) { c in c * 1.6 - 0.3 })
        return cubes
    }()

    @Test("8-bit: each vector kernel gives the scalar loop's codes, RGB and RGBA, every cube size, alpha kept",
          arguments: [3, 4])
    func eightBitMatchesScalar(channels: Int) throws {
        #expect(CubeApplier.Kernel.best != .scalar || Self.vectorKernels.isEmpty)
        for cube in Self.cubes {
            let scalar = CubeApplier(cube: cube, kernel: .scalar)
            #expect(scalar.kernel == .scalar)
            for input in Self.inputs(channels: channels, maxCode: 255) {
                let source = input.map { UInt8($0) }
                var expected = source
                try expected.withUnsafeMutableBufferPointer { try scalar.apply(to: $0, channels: channels, threads: 1) }
                for kernel in Self.vectorKernels {
                    let vector = CubeApplier(cube: cube, kernel: kernel)
                    #expect(vector.kernel == kernel)
                    var out = source
                    try out.withUnsafeMutableBufferPointer { try vector.apply(to: $0, channels: channels) }
                    #expect(out == expected, "size \(cube.size), \(kernel)")
                }
            }
        }
    }

    @Test("16-bit: each vector kernel gives the scalar loop's codes, RGB and RGBA, every cube size, alpha kept",
          arguments: [3, 4])
    func sixteenBitMatchesScalar(channels: Int) throws {
        for cube in Self.cubes {
            let scalar = CubeApplier(cube: cube, kernel: .scalar)
            for input in Self.inputs(channels: channels, maxCode: 65535) {
                let source = input.map { UInt16($0) }
                var expected = source
                try expected.withUnsafeMutableBufferPointer { try scalar.apply(to: $0, channels: channels, threads: 1) }
                for kernel in Self.vectorKernels {
                    var out = source
                    try out.withUnsafeMutableBufferPointer {
                        try CubeApplier(cube: cube, kernel: kernel).apply(to: $0, channels: channels)
                    }
                    #expect(out == expected, "size \(cube.size), \(kernel)")
                }
            }
        }
    }

    @Test("the best kernel is within one code of the float64 reference, and ≤ 0.05 codes off its rounding on average",
          arguments: [false, true])
    func bestKernelAgainstFloat64(photoLike: Bool) throws {
        let look = try Reference.look(size: 33)
        let input = photoLike ? Self.photoLike(count: 50_000, channels: 3, maxCode: 255, seed: 8)
                              : Self.randomCodes(count: 50_000, channels: 3, maxCode: 255, seed: 9)
        let source = input.map { UInt8($0) }
        var out = source
        try out.withUnsafeMutableBufferPointer { try CubeApplier(cube: look).apply(to: $0, channels: 3) }
        var worst = 0.0, sum = 0.0
        for p in 0..<(source.count / 3) {
            let x = SIMD3(Double(source[3 * p]), Double(source[3 * p + 1]), Double(source[3 * p + 2])) / 255
            let expected = Reference.sample(look, x, tetrahedral: true) * 255
            for c in 0..<3 {
                let d = abs(Double(out[3 * p + c]) - expected[c].rounded())
                worst = max(worst, d)
                sum += d
            }
        }
        #expect(worst <= 1)
        #expect(sum / Double(source.count) <= 0.05)
    }

    @Test("trilinear always runs the scalar loop")
    func trilinearIsScalar() throws {
        #expect(CubeApplier(cube: try Reference.look(size: 9), interpolation: .trilinear, kernel: .avx2).kernel == .scalar)
    }

    /// Float colours a photograph, a fit and the edges give: scattered values, grid points (i/(N−1) and a few ulps
    /// off them), out-of-range, NaN and infinities, and a count that leaves a tail.
    static func floatColours(size n: Int) -> [Float] {
        var rng = Reference.LCG(state: 11)
        var values = (0..<(3 * 20_011)).map { _ in Float(rng.next() * 1.2 - 0.1) }
        for i in 0..<n {
            let g = Float(i) / Float(n - 1)
            values += [g, g.nextUp, g.nextDown, g.nextUp.nextUp.nextUp.nextUp.nextUp, g, g.nextDown.nextDown]
        }
        values += [.nan, 1, 0, -.infinity, .infinity, 0.5, -0.0, 1.0000001, 0.99999994, 0, 0]
        return values
    }

    @Test("float: each vector kernel gives the scalar loop's values and codes bit for bit, in place or not")
    func floatMatchesScalar() throws {
        for cube in Self.cubes {
            let input = Self.floatColours(size: cube.size)
            var expected = input
            let scalar = BatchSampler(cube, kernel: .scalar)
            #expect(scalar.kernel == .scalar)
            expected.withUnsafeMutableBufferPointer { scalar.apply(inPlace: $0) }
            // The reference itself is CubeSampler's arithmetic.
            let reference = CubeSampler(cube)
            for k in stride(from: 0, to: input.count - 2, by: 3) {
                let v = reference.sample(SIMD3(input[k], input[k + 1], input[k + 2]), interpolation: .tetrahedral)
                #expect(v == SIMD3(expected[k], expected[k + 1], expected[k + 2]), "size \(cube.size), sample \(k)")
            }
            let whole = input.count - input.count % 3
            let expectedCodes = expected.prefix(whole).map { UInt8(Swift.min(Swift.max($0, 0), 1) * 255 + 0.5) }
            for kernel in Self.vectorKernels {
                let vector = BatchSampler(cube, kernel: kernel)
                #expect(vector.kernel == kernel)
                var inPlace = input
                inPlace.withUnsafeMutableBufferPointer { vector.apply(inPlace: $0) }
                #expect(inPlace.elementsEqual(expected) { $0.bitPattern == $1.bitPattern },
                        "size \(cube.size), \(kernel)")
                var source = input, out = [Float](repeating: -1, count: input.count)
                var codes = [UInt8](repeating: 0, count: whole)
                source.withUnsafeMutableBufferPointer { s in out.withUnsafeMutableBufferPointer { o in
                    codes.withUnsafeMutableBufferPointer { c in vector.apply(s, into: o, codes: c) }
                } }
                #expect(out.prefix(whole).elementsEqual(expected.prefix(whole)) { $0.bitPattern == $1.bitPattern })
                #expect(codes == expectedCodes, "size \(cube.size), \(kernel)")
            }
        }
    }

    @Test("the best kernel is the one the processor query names, and every thread gets the query's one answer")
    func bestKernelFollowsTheProcessorQuery() {
        let features = lscpu_features()
        let expected: CubeApplier.Kernel = features & UInt32(LSCPU_AVX2) != 0 ? .avx2
            : features & UInt32(LSCPU_SSE41) != 0 ? .sse41 : .scalar
        #expect(CubeApplier.Kernel.best == expected)
        // Every processor with AVX2 has SSE4.1: bits crossed in the query would break this.
        #expect(features & UInt32(LSCPU_AVX2) == 0 || features & UInt32(LSCPU_SSE41) != 0)
        let answers = Locked([UInt32]())
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let answer = lscpu_features()
            answers.withLock { $0.append(answer) }
        }
        #expect(answers.current == [UInt32](repeating: features, count: 64))
    }
}
