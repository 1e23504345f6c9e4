import Foundation
import LookFormats
import LookStudioTestSupport
import Testing

/// `import` of CDL collections and `export --for cdl`: which correction, what is stored, the numbers back, refusals.
@Suite("export --for cdl and CDL collections")
struct CDLExportCommandTests {
    typealias F = CDLFixtures

    /// A correction with numbers that have no short decimal in Float as well as plain ones.
    static let awkward = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ColorCorrection id="awkward" xmlns="urn:ASC:CDL:v1.2">
            <SOPNode>
                <Slope>1.0000001 0.333333343 1.9</Slope>
                <Offset>-0.0125 0.0001 0.07</Offset>
                <Power>0.95 1.1 1.23456789</Power>
            </SOPNode>
            <SatNode><Saturation>1.15</Saturation></SatNode>
        </ColorCorrection>
        """

    static let collection = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ColorCorrectionCollection xmlns="urn:ASC:CDL:v1.2">
            <ColorCorrection id="shot_010">
                <SOPNode><Slope>1.1 1 0.9</Slope><Offset>0 0 0</Offset><Power>1 1 1</Power></SOPNode>
            </ColorCorrection>
            <ColorCorrection id="shot_020">
                <SOPNode><Slope>0.95 1 1.05</Slope><Offset>0.01 0 -0.01</Offset><Power>1.1 1 0.9</Power></SOPNode>
                <SatNode><Saturation>0.9</Saturation></SatNode>
            </ColorCorrection>
        </ColorCorrectionCollection>
        """

    static func correction(_ path: String) throws -> CDLCorrection {
        let contents = try CDLFile.read(path: path)
        return try #require(contents.corrections.first)
    }

    static func sameNumbers(_ a: CDLCorrection, _ b: CDLCorrection) -> Bool {
        a.slope == b.slope && a.offset == b.offset && a.power == b.power && a.saturation == b.saturation
    }

    @Test("import → export --for cdl gives back the same Floats, and the exported .cc imports as the same cube",
          arguments: ["gentle", "strong", "awkward"])
    func roundTrip(which: String) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let text = which == "awkward" ? Self.awkward : F.cc(which == "gentle" ? F.gentle : F.strong, id: which)
        try text.write(toFile: dir + "/grade.cc", atomically: true, encoding: .utf8)
        let guid = try F.importLook(dir + "/grade.cc", catalog: catalog)
        let shown = try CLI.run(["looks", "show", guid, "--json"] + catalog)
        let look = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(look["name"] as? String == which, "named after the correction's id")
        #expect(look["source_format"] as? String == "cdl" && look["source_file"] as? String == "grade.cc")
        #expect(look["cube_size"] as? Int == 64)
        #expect((look["recipe_yaml"] as? String)?.contains("  - adjust: grade.cdl\n    params: { offset: [") == true)

        let exported = try CLI.run(["export", guid, "--for", "cdl", "-o", dir + "/back.cc"] + catalog)
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("does not record the style"), "\(exported.stdout)")
        let original = try Self.correction(dir + "/grade.cc"), back = try Self.correction(dir + "/back.cc")
        #expect(Self.sameNumbers(original, back), "\(original) → \(back)")
        #expect(back.id == which)
        let again = try CLI.run(["import", dir + "/back.cc"] + catalog)
        #expect(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == guid, "\(again.stderr)")
        #expect(again.stderr.contains("already in the catalog"))
    }

    @Test("a .ccc of two corrections: refused without --id, listing the ids; --id picks one, which exports back")
    func collectionNeedsID() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let ccc = dir + "/shots.ccc"
        try Self.collection.write(toFile: ccc, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["import", ccc] + catalog)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("shots.ccc holds 2 corrections: \"shot_010\" (line 3), \"shot_020\" (line 6); "
                                        + "choose one with --id ID"), "\(refused.stderr)")
        let unknown = try CLI.run(["import", ccc, "--id", "shot_030"] + catalog)
        #expect(unknown.status != 0 && unknown.stderr.contains("no correction with the id \"shot_030\""))
        let chosenImport = try CLI.run(["import", ccc, "--id", "shot_020", "--cdl-style", "no-clamp"] + catalog)
        try #require(chosenImport.status == 0, "\(chosenImport.stderr)")
        // Blue: 1.05 · 1 − 0.01 > 1, which no-clamp keeps, and so does the catalog (it records the cube's range).
        #expect(!chosenImport.stderr.contains("clamped"), "\(chosenImport.stderr)")
        let plain = try CLI.run(["export", "shot_020", "-o", dir + "/shot.cube"] + catalog)
        try #require(plain.status == 0, "\(plain.stderr)")
        let stored = try LUTFormat.readCube(path: dir + "/shot.cube", layout: nil, bakeSize: .atLeast(2)).cube
        #expect(stored.valueRange.upperBound > 1.03, "\(stored.valueRange)")
        let exported = try CLI.run(["export", "shot_020", "--for", "cdl", "-o", dir + "/shot.cc"] + catalog)
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("--cdl-style no-clamp"), "the style note says how to import it back")
        let chosen = try #require(try CDLFile.read(path: ccc).correction(id: "shot_020"))
        #expect(Self.sameNumbers(chosen, try Self.correction(dir + "/shot.cc")))
    }

    @Test("export --for cdl refuses a look that is no CDL, a strength and a size, saying why and what to do")
    func refusals() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        _ = try F.importLook(CLI.fixtures + "/reference/warm17.cube", catalog: catalog)
        let table = try CLI.run(["export", "warm17", "--for", "cdl", "-o", dir + "/x.cc"] + catalog)
        #expect(table.status != 0)
        #expect(table.stderr.contains("look \"warm17\" was imported from a cube file (warm17.cube), not a CDL: a .cc "
                                      + "carries only slope, offset, power and saturation; export it for resolve"),
                "\(table.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.cc"))

        try F.cc(F.gentle, id: "gentle").write(toFile: dir + "/g.cc", atomically: true, encoding: .utf8)
        _ = try F.importLook(dir + "/g.cc", catalog: catalog)
        let strength = try CLI.run(["export", "gentle", "--for", "cdl", "--strength", "50", "-o", dir + "/s.cc"]
                                   + catalog)
        #expect(strength.status != 0 && strength.stderr.contains("a CDL has no strength"), "\(strength.stderr)")
        let size = try CLI.run(["export", "gentle", "--for", "cdl", "--size", "33", "-o", dir + "/s.cc"] + catalog)
        #expect(size.status != 0 && size.stderr.contains("takes no size"), "\(size.stderr)")

        let recipe = dir + "/half.yaml"
        try "name: Half CDL\nsteps:\n  - adjust: grade.cdl\n    params: { slope: [1.1, 1, 0.9] }\n    strength: 80\n"
            .write(toFile: recipe, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compose", recipe, "--save"] + catalog).status == 0)
        let half = try CLI.run(["export", "Half CDL", "--for", "cdl", "-o", dir + "/h.cc"] + catalog)
        #expect(half.stderr.contains("is a grade.cdl step at strength 80 %"), "\(half.stderr)")

        let listed = try CLI.run(["export", "--list-targets"])
        #expect(listed.stdout.split(separator: "\n").contains { $0.hasPrefix("cdl ") && $0.contains(".cc no table") })
    }

    @Test("import refuses CDL options without a CDL file; apply --lut of a .cc points to import")
    func importOptions() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cube = CLI.fixtures + "/reference/warm17.cube"
        let size = try CLI.run(["import", cube, "--size", "33", "--catalog", dir + "/c.sqlite"])
        #expect(size.status != 0 && size.stderr.contains("apply to CDL files"), "\(size.stderr)")
        let style = try CLI.run(["import", dir + "/a.cc", "--cdl-style", "clamped", "--catalog", dir + "/c.sqlite"])
        #expect(style.status != 0 && style.stderr.contains("--cdl-style must be asc or no-clamp"))
        try F.cc(F.gentle, id: "gentle").write(toFile: dir + "/g.cc", atomically: true, encoding: .utf8)
        let lut = try CLI.run(["apply", "--lut", dir + "/g.cc", CLI.packageRoot + "/samples/chelsea.png",
                               dir + "/out.png"])
        #expect(lut.status != 0 && lut.stderr.contains("g.cc: an ASC CDL is not a LUT file: store it as a look with "
                                                      + "`lookstudio import g.cc`"), "\(lut.stderr)")
        let help = try CLI.run(["import", "--help"])
        #expect(help.stdout.contains("--cdl-style") && help.stdout.contains("lookstudio import grade.cc"))
    }
}
