@testable import Correction
import Testing

@Suite struct LinearMeasureTests {
    @Test("a quantile found by selection is the element a sort puts at its index, duplicates and extremes included")
    func selectionIsSortsElement() {
        var generator = SystemRandomNumberGenerator()
        for n in [1, 2, 3, 7, 100, 4097] {
            // Few distinct values (many ties), many distinct, and already sorted or reversed runs.
            let shapes: [[Float]] = [
                (0..<n).map { _ in Float(Int.random(in: 0..<5, using: &generator)) },
                (0..<n).map { _ in Float.random(in: -1...1, using: &generator) },
                (0..<n).map { Float($0) },
                (0..<n).map { Float(n - $0) },
            ]
            for values in shapes {
                let sorted = values.sorted()
                for q in [0, 0.005, 0.05, 0.5, 0.8, 0.95, 0.995, 1] {
                    var copy = values
                    let k = min(n - 1, max(0, Int((Double(n - 1) * q).rounded())))
                    #expect(LinearMeasure.quantile(&copy, q) == Double(sorted[k]), "n \(n), q \(q)")
                }
            }
        }
    }
}
