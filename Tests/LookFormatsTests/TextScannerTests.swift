import Foundation
import LookCore
import LookFormats
import Testing

/// Reads `tokens` (a multiple of 3) as the rows of a 1D `.cube` table through the byte-level number parser.
private func readNumbers(_ tokens: [String]) throws -> [Float] {
    var text = "LUT_1D_SIZE \(tokens.count / 3)\n"
    var i = 0
    while i + 2 < tokens.count {
        text += "\(tokens[i]) \(tokens[i + 1]) \(tokens[i + 2])\n"
        i += 3
    }
    return try #require(try CubeFile.parse(Array(text.utf8), fileName: "n.cube").lut.shaper).values
}

/// A small deterministic generator so failures reproduce.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Text number parsing")
struct TextScannerTests {
    @Test("number spellings real files use read as the standard library reads them")
    func spellings() throws {
        let tokens = ["0", "-0", "+1", ".75", "-.25", "1.", "8.68552e-05", "9.15541E-05", "1e+20", "704.3",
                      "0.000404391846", "1.4679964", "0.0004046018089", "00012.500", "3.0000000", "-0.0773994",
                      "0.1000000000000000055511151231257827", "123456789012345678901234567890", "1e-40",
                      "4.9e-324", "2.2250738585072014e-308", "16777217", "0.30000001192092896"]
        let parsed = try readNumbers(tokens)
        for (token, value) in zip(tokens, parsed) {
            let expected = try #require(Float(token))
            #expect(value == expected && value.sign == expected.sign, "\(token)")
        }
    }

    @Test("shortest, %.9g, %.7g, %e and %.17g spellings of random Floats read back correctly rounded")
    func randomFloats() throws {
        var rng = SplitMix64(state: 42)
        var tokens: [String] = []
        for _ in 0..<6000 {
            let magnitude = Float.random(in: -12...4, using: &rng)
            let v = Float(pow(10, Double(magnitude))) * (Bool.random(using: &rng) ? 1 : -1)
            tokens += [v.description, String(format: "%.9g", Double(v)), String(format: "%.7g", Double(v)),
                       String(format: "%e", Double(v)), String(format: "%.17g", Double(v)),
                       String(format: "%.12f", Double(v))]
        }
        let parsed = try readNumbers(tokens)
        var mismatches: [String] = []
        for (token, value) in zip(tokens, parsed) where Float(token) != value {
            mismatches.append(token)
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test("Float.description round-trips exactly through the parser")
    func descriptionRoundTrip() throws {
        var rng = SplitMix64(state: 7)
        let values = (0..<3000).map { _ in Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &rng)) }
        let parsed = try readNumbers(values.map(\.description))
        #expect(parsed == values)
    }

    @Test("malformed numbers are refused, quoting the token", arguments: ["1..2", "1e", "-", ".", "0x10", "1,5", "e5", "++1"])
    func malformed(token: String) throws {
        do {
            _ = try readNumbers(["0", "0", "0", "0", token, "0"])
            Issue.record("\(token) was accepted")
        } catch let error as LookFormatsError {
            #expect(error.message.contains("\"\(token)\""))
            #expect(error.line == 3)
        }
    }
}
