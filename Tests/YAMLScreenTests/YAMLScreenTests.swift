import Foundation
import Testing
@testable import YAMLScreen

@Suite struct YAMLScreenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL

    /// Two keys of a mapping, each a list whose first entry is `depth` lists deep: Yams compares such keys in 2^depth.
    static func nestedKeys(depth: Int) -> String {
        let deep = String(repeating: "[", count: depth) + "a" + String(repeating: "]", count: depth)
        return "{" + ["b", "c"].map { "[\(deep), \($0)]: 1, [\(deep), \($0)]: 2" }.joined(separator: ", ") + "}\n"
    }

    @Test("every shipped look, the scene list and the recipe documentation's examples pass")
    func shippedFilesPass() throws {
        let looks = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Looks").path)
            .filter { $0.hasSuffix(".yaml") }
        #expect(looks.count > 3)
        for file in looks.map({ "Looks/\($0)" }) + ["Catalog/scenes.yaml"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            #expect(YAMLScreen.problem(in: text) == nil, "\(file)")
        }
        let ordinary = """
            name: warm
            size: 33
            base: &base {plugin: tone, strength: 0.5}
            steps:
              - *base
              - {plugin: color, params: {saturation: 1.2}}
              - ? explicit
                : key with a plain word is fine
            """
        #expect(YAMLScreen.problem(in: ordinary) == nil)
    }

    @Test("a list as a key is refused on its line, in flow and block style, before Yams spends 2^depth on it")
    func listKeys() {
        let problem = YAMLScreen.problem(in: Self.nestedKeys(depth: 24))
        #expect(problem?.line == 1)
        #expect(problem?.message.hasPrefix("a key is a list; keys must be words") == true)
        #expect(YAMLScreen.problem(in: "name: x\nsteps:\n  ? - a\n    - b\n  : 1\n")?.line == 3)
        #expect(YAMLScreen.problem(in: "a: 1\n{b: 2}: 3\n")?.message.hasPrefix("a key is a mapping") == true)
    }

    @Test("an alias as a key is refused; an alias as a value is counted at its full size")
    func aliases() {
        let key = YAMLScreen.problem(in: "a: &x [1, 2]\n*x : 3\n")
        #expect(key?.line == 2)
        #expect(key?.message == "a key is an alias (*x); keys must be words")
        // Nine lists of nine references, eight levels deep: 9^9 values from 300 bytes ("billion laughs").
        var lines = ["l0: &l0 [a, a, a, a, a, a, a, a, a]"]
        for level in 1...8 {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ")
                         + "]")
        }
        let problem = YAMLScreen.problem(in: lines.joined(separator: "\n"))
        #expect(problem?.line == 6)  // inside l5, whose list passes 100,000
        #expect(problem?.message.hasPrefix("the document expands to more than 100000 values") == true)
        // Four levels, about 8,300 values, is large but allowed.
        #expect(YAMLScreen.problem(in: lines.prefix(4).joined(separator: "\n")) == nil)
    }

    @Test("a plain base-60 number that would overflow Yams' whole-number reading is refused; quoted text passes")
    func base60() throws {
        let eleven = Array(repeating: "1", count: 11).joined(separator: ":")
        let ten = Array(repeating: "1", count: 10).joined(separator: ":")
        let problem = YAMLScreen.problem(in: "name: x\nsize: \(eleven)\n")
        #expect(problem?.line == 2)
        #expect(problem?.message == "\"\(eleven)\" reads as a base-60 number (YAML 1.1) too large for a whole number; "
                + "quote it if it is text")
        #expect(YAMLScreen.problem(in: "size: \(ten)\nstart: 12:30\nneg: -1:59\n") == nil)
        #expect(YAMLScreen.problem(in: "name: \"\(eleven)\"\nother: '\(eleven)'\n") == nil)
        #expect(YAMLScreen.overflowsBase60("-\(eleven)"))
        #expect(YAMLScreen.overflowsBase60("1:9223372036854775807"))
        #expect(!YAMLScreen.overflowsBase60("0\(eleven)"))  // a leading 0 is octal to Yams: no base-60 reading
        #expect(!YAMLScreen.overflowsBase60("1:x:\(eleven)"))  // not all digit groups: Yams gives up, no arithmetic
        let bytes = try Data(contentsOf: Self.root.appendingPathComponent("Tests/Fixtures/fuzz/recipe-base60-overflow.yaml"))
        #expect(YAMLScreen.problem(in: String(decoding: bytes, as: UTF8.self))?.line == 2)
    }

    @Test("a syntax error is left to the composer, which reports it with its own words")
    func syntaxErrors() {
        #expect(YAMLScreen.problem(in: "a: [1, 2\nb: 3\n") == nil)
        #expect(YAMLScreen.problem(in: "") == nil)
    }

    @Test("the recipe target's 3 kB fuzz finding, 15 s under the fuzzer, is refused at once")
    func fuzzFinding() throws {
        let bytes = try Data(contentsOf: Self.root.appendingPathComponent("Tests/Fixtures/fuzz/recipe-nested-keys.yaml"))
        let problem = YAMLScreen.problem(in: String(decoding: bytes, as: UTF8.self))
        #expect(problem?.message.hasPrefix("a key is a") == true)
    }
}
