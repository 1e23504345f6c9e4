import Foundation
import LookStudioTestSupport
import LookCore
import LookFormats
import Testing

/// `compose --save --replace` and `--as-version`: a revised recipe becomes a new version under the same GUID.
@Suite struct ComposeVersionTests {
    static func maxDifference(_ a: ColorCube, _ b: ColorCube) -> Float {
        guard a.size == b.size else { return .infinity }
        return zip(a.values, b.values).map { abs($0 - $1) }.max() ?? 0
    }

    @Test("compose --save --replace adds version 2 under the same GUID; GUID@1 still exports the first cube")
    func replaceAddsVersion() throws {
        let dir = try ComposeCommandTests.recipeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        var r = try CLI.run(["compose", dir + "/chain.yaml", "--save"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        let guid = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(guid.count == 32 || guid.count == 36, "a GUID: \(guid)")
        r = try CLI.run(["compose", dir + "/chain.yaml", "-o", dir + "/v1.cube"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: dir + "/chain.yaml", encoding: .utf8)
        try text.replacingOccurrences(of: "stops: 0.3", with: "stops: -0.4")
            .write(toFile: dir + "/chain.yaml", atomically: true, encoding: .utf8)
        r = try CLI.run(["compose", dir + "/chain.yaml", "--save"] + catalog)
        #expect(r.status != 0 && r.stderr.contains("CLI Chain"), "a plain --save still refuses the name: \(r.stderr)")
        r = try CLI.run(["compose", dir + "/chain.yaml", "--save", "--replace", "-o", dir + "/v2.cube"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == guid, "the GUID is kept")
        #expect(r.stderr.contains("saved as version 2 of \(guid)"), "\(r.stderr)")
        let versions = try CLI.run(["looks", "versions", guid] + catalog)
        #expect(versions.status == 0)
        #expect(versions.stdout.split(separator: "\n").count == 2, "\(versions.stdout)")
        r = try CLI.run(["export", "\(guid)@1", "-o", dir + "/e1.cube"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["export", guid, "-o", dir + "/e2.cube"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        let v1 = try LUTFormat.read(path: dir + "/v1.cube").lut.bakedCube()
        let v2 = try LUTFormat.read(path: dir + "/v2.cube").lut.bakedCube()
        let e1 = try LUTFormat.read(path: dir + "/e1.cube").lut.bakedCube()
        let e2 = try LUTFormat.read(path: dir + "/e2.cube").lut.bakedCube()
        #expect(Self.maxDifference(e1, v1) < 1e-4 && Self.maxDifference(e2, v2) < 1e-4)
        #expect(Self.maxDifference(e1, e2) > 0.01, "the versions differ")
        r = try CLI.run(["compose", dir + "/chain.yaml", "--save", "--as-version", guid] + catalog)
        #expect(r.status == 0 && r.stderr.contains("already"), "the same cube adds nothing: \(r.stderr)")
        r = try CLI.run(["compose", dir + "/chain.yaml", "--replace", "-o", dir + "/x.cube"] + catalog)
        #expect(r.status != 0 && r.stderr.contains("add --save"), "\(r.stderr)")
    }
}

/// `compose --save` of a taken name points to --replace.
@Suite struct ComposeNameTakenTests {
    @Test func aTakenNameMentionsReplace() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "name: Mine\nsteps:\n  - adjust: tone.contrast\n    params: { amount: 0.2 }\n"
            .write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        try "name: Mine\nsteps:\n  - adjust: tone.contrast\n    params: { amount: 0.4 }\n"
            .write(toFile: dir + "/b.yaml", atomically: true, encoding: .utf8)
        let catalog = ["--catalog", dir + "/c.sqlite"]
        #expect(try CLI.run(["compose", dir + "/a.yaml", "--save"] + catalog).status == 0)
        let taken = try CLI.run(["compose", dir + "/b.yaml", "--save"] + catalog)
        #expect(taken.status == 1 && taken.stderr.contains("already exists") && taken.stderr.contains("--replace"),
                "\(taken.stderr)")
        #expect(try CLI.run(["compose", dir + "/b.yaml", "--save", "--replace"] + catalog).status == 0)
    }
}
