import Foundation
import Testing

@Suite("curve.rgb (Plugins/Grade/curves.c, spline.c)")
struct CurvesTests {
    /// channel(master(v)), each curve as docs/ADJUSTMENTS.md defines it.
    static func reference(_ parameters: [String: [Float]]) -> ([Double]) -> [Double] {
        let master = MonotoneCurve(parameters["master"]!)
        let channels = ["red", "green", "blue"].map { MonotoneCurve(parameters[$0]!) }
        return { v in (0..<3).map { channels[$0](master(v[$0])) } }
    }

    @Test("matches the float64 reference channel(master(v)) within 1/255 on a 33³ grid")
    func reference() throws {
        let adjustment = try GradeLibrary.adjustment("curve.rgb")
        let input = Reference.grid()
        let parameters = GradeCases.curveRGB
        let output = adjustment.apply(input, parameters)
        let error = Reference.maxError(output, Reference.map(input, Self.reference(parameters)))
        GradeCases.record("curve.rgb", error)
        #expect(error <= 1.0 / 255)
    }

    /// `count` random points: x strictly increasing in 0…1, y in 0…1, sorted when `monotone`.
    static func randomPoints(_ count: Int, monotone: Bool, _ rng: inout SeededGenerator) -> [Float] {
        var xs = Set<Float>()
        while xs.count < count { xs.insert(Float(Int.random(in: 0...1000, using: &rng)) / 1000) }
        var ys = (0..<count).map { _ in Float.random(in: 0...1, using: &rng) }
        if monotone { ys.sort() }
        return zip(xs.sorted(), ys).flatMap { [$0, $1] }
    }

    @Test("never leaves the range of the two points around x, flat beyond the ends (200 random point sets)")
    func staysInHull() throws {
        let adjustment = try GradeLibrary.adjustment("curve.rgb")
        var rng = SeededGenerator(seed: 52)
        let ramp = (0...4000).map { Float($0) / 4000 }
        let input = ramp.flatMap { [$0, $0, $0] }
        for trial in 0..<200 {
            let points = Self.randomPoints(Int.random(in: 2...12, using: &rng), monotone: trial % 2 == 0, &rng)
            let output = adjustment.apply(input, ["master": points])
            let xs = stride(from: 0, to: points.count, by: 2).map { points[$0] }
            let ys = stride(from: 1, to: points.count, by: 2).map { points[$0] }
            var escapes = 0
            for (i, x) in ramp.enumerated() {
                let y = output[3 * i]
                if x <= xs[0] {
                    if y != ys[0] { escapes += 1 }
                } else if x >= xs[xs.count - 1] {
                    if y != ys[ys.count - 1] { escapes += 1 }
                } else {
                    let k = xs.lastIndex { $0 <= x }!
                    if y < Swift.min(ys[k], ys[k + 1]) || y > Swift.max(ys[k], ys[k + 1]) { escapes += 1 }
                }
            }
            #expect(escapes == 0, "points \(points): \(escapes) samples outside their neighbours' range")
            if trial % 2 == 0 {
                let rising = zip(output, output.dropFirst(3)).allSatisfy { $0 <= $1 }
                #expect(rising, "monotone points \(points) give a monotone curve")
            }
        }
    }

    @Test("master is applied before the channel curves")
    func order() throws {
        let adjustment = try GradeLibrary.adjustment("curve.rgb")
        // master halves everything; red maps 0.5 to 1 and 1 to 0.5: red(master(1)) = 1, master(red(1)) = 0.25.
        let output = adjustment.apply([1, 1, 1], ["master": [0, 0, 1, 0.5], "red": [0, 0, 0.5, 1, 1, 0.5]])
        #expect(output == [1, 0.5, 0.5])
    }

    @Test("points on the diagonal, however many, are the identity")
    func diagonalPoints() throws {
        let adjustment = try GradeLibrary.adjustment("curve.rgb")
        let input = Reference.grid(17)
        let output = adjustment.apply(input, ["master": [0, 0, 0.25, 0.25, 0.5, 0.5, 1, 1]])
        #expect(output == input)
    }
}
