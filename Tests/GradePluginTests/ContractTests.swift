import Foundation
import Testing

@Suite("Grade plugin: what every adjustment promises (identity, clamping, aliasing, threads)")
struct ContractTests {
    @Test("identity parameters return the input bit for bit on a 33³ grid", arguments: GradeCases.ids)
    func identityIsExact(id: String) throws {
        let adjustment = try GradeLibrary.adjustment(id)
        let input = Reference.grid()
        let output = adjustment.apply(input, adjustment.identity())
        let changed = zip(input, output).filter { $0.bitPattern != $1.bitPattern }.count
        #expect(changed == 0, "\(id): \(changed) of \(input.count) values changed at identity")
    }

    @Test("in place (out == in) gives the same result as separate buffers", arguments: GradeCases.ids)
    func aliasing(id: String) throws {
        let adjustment = try GradeLibrary.adjustment(id)
        let parameters = try #require(GradeCases.nonTrivial[id])
        let input = Reference.grid(17)
        var buffer = input
        adjustment.applyInPlace(&buffer, parameters)
        #expect(buffer == adjustment.apply(input, parameters))
    }

    @Test("NaN, infinities and values outside 0…1 are clamped on the way in: finite, bounded output",
          arguments: GradeCases.ids)
    func hostileInput(id: String) throws {
        let adjustment = try GradeLibrary.adjustment(id)
        let parameters = try #require(GradeCases.nonTrivial[id])
        let odd: [Float] = [.nan, .infinity, -.infinity, -5, 7, 0.5, -0.0, 1.0000001, .greatestFiniteMagnitude]
        var input: [Float] = []
        for i in odd.indices {
            for j in odd.indices { input += [odd[i], odd[j], odd[(i + j + 3) % odd.count]] }
        }
        let output = adjustment.apply(input, parameters)
        // grade.cdl's no-clamp style (the case used here) keeps values outside 0…1, within ±64.
        let bound: Float = id == "grade.cdl" ? 64 : 1
        #expect(output.allSatisfy { $0.isFinite && $0 >= -bound && $0 <= bound }, "\(id)")
        let clamped = input.map { $0.isNaN ? 0 : Swift.min(Swift.max($0, 0), 1) }
        #expect(output == adjustment.apply(clamped, parameters), "\(id): NaN reads as 0, others clamp to 0…1")
    }

    @Test("several threads at once with different parameters get what one thread gets", arguments: GradeCases.ids)
    func reentrant(id: String) async throws {
        let adjustment = try GradeLibrary.adjustment(id)
        let input = Reference.grid(17)
        let cases = [adjustment.identity(), adjustment.identity(try #require(GradeCases.nonTrivial[id]))]
        let serial = cases.map { adjustment.apply(input, $0) }
        let parallel = await withTaskGroup(of: (Int, [Float]).self) { group in
            for round in 0..<8 {
                group.addTask { (round % 2, adjustment.apply(input, cases[round % 2])) }
            }
            var results: [(Int, [Float])] = []
            for await result in group { results.append(result) }
            return results
        }
        for (which, output) in parallel { #expect(output == serial[which], "\(id) case \(which)") }
    }
}
