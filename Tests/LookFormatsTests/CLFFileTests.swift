import Foundation
import LookCore
import Testing
@testable import LookFormats

struct CLFFileTests {
    static func parse(_ xml: String) throws -> CLFContents {
        try CLFFile.parse(Array(xml.utf8), fileName: "t.clf")
    }

    @Test func writtenCubeReadsBackBitForBit() throws {
        let cube = try ColorCube(size: 5) { SIMD3($0.z * 0.9, $0.x * $0.x, 1 - $0.y) }
        let contents = try Self.parse(CLFFile.serialize(cube, id: "a", name: "A & <B>"))
        #expect(contents.lut.cube == cube && contents.lut.isPlainCube && contents.nodes == ["LUT3D"])
    }

    @Test func lut3DIsBlueFastestAndScaledByItsOutputDepth() throws {
        var rows: [String] = []
        for r in 0..<2 { for g in 0..<2 { for b in 0..<2 { rows.append("\(r * 4095) \(g * 4095) \(b * 2000)") } } }
        let xml = """
        <ProcessList id="x" compCLFversion="3"><LUT3D inBitDepth="32f" outBitDepth="12i">
        <Array dim="2 2 2 3">\(rows.joined(separator: "\n"))</Array></LUT3D></ProcessList>
        """
        let cube = try #require(try Self.parse(xml).lut.cube)
        #expect(cube.entry(r: 1, g: 0, b: 0) == SIMD3(1, 0, 0))
        #expect(cube.entry(r: 0, g: 0, b: 1) == SIMD3(0, 0, Float(2000) / 4095))
    }

    @Test func lut1DBeforeLut3DBecomesShaperAndCube() throws {
        let xml = """
        <ProcessList id="x" compCLFversion="3">
          <LUT1D inBitDepth="32f" outBitDepth="32f"><Array dim="3 1">0 0.25 1</Array></LUT1D>
          <LUT3D inBitDepth="32f" outBitDepth="32f"><Array dim="2 2 2 3">
            0 0 0  0 0 1  0 1 0  0 1 1  1 0 0  1 0 1  1 1 0  1 1 1</Array></LUT3D>
        </ProcessList>
        """
        let lut = try Self.parse(xml).lut
        #expect(lut.shaper?.size == 3 && lut.cube?.size == 2)
        #expect(abs(lut.evaluate(SIMD3(repeating: 0.5)).x - 0.25) < 1e-6)
    }

    @Test func rangeAndMatrixChainsAreBakedWithAWarning() throws {
        let xml = """
        <ProcessList id="x" compCLFversion="3">
          <Range inBitDepth="10i" outBitDepth="32f"><minInValue>64</minInValue><maxInValue>940</maxInValue>
            <minOutValue>0</minOutValue><maxOutValue>1</maxOutValue></Range>
          <Matrix inBitDepth="32f" outBitDepth="32f"><Array dim="3 3">0 0 1 0 1 0 1 0 0</Array></Matrix>
        </ProcessList>
        """
        let contents = try Self.parse(xml)
        #expect(contents.nodes == ["Range", "Matrix"])
        #expect(contents.warnings.count == 1 && contents.warnings[0].message.contains("Range → Matrix"))
        // Input 1.0 is code 1023 > 940, clamped to 1; the matrix swaps red and blue.
        let v = contents.lut.evaluate(SIMD3(1, 0.5, 0))
        let mid = (0.5 * 1023 - 64) / (940 - 64)
        #expect(abs(v.x - 0) < 1e-3 && abs(v.y - Float(mid)) < 2e-3 && abs(v.z - 1) < 1e-3)
    }

    @Test func otherNodesAreRefusedByName() throws {
        let xml = #"<ProcessList id="x" compCLFversion="3"><ASC_CDL inBitDepth="32f" outBitDepth="32f"/></ProcessList>"#
        let error = try #require(throws: LookFormatsError.self) { try Self.parse(xml) }
        #expect(error.description.contains("ASC_CDL") && error.description.contains("t.clf"))
    }

    @Test func aFileCutShortAndAnEntityBombSayWhatIsWrongInWords() throws {
        let cube = try ColorCube(size: 3) { $0 }
        let whole = CLFFile.serialize(cube, id: "a", name: "A")
        let cut = try #require(throws: LookFormatsError.self) { try Self.parse(String(whole.prefix(300))) }
        #expect(cut.description.contains("cut short"), "\(cut)")
        var entities = #"<!ENTITY a "aaaaaaaaaa">"#
        for (name, inner) in zip("bcdefg", "abcdef") {
            entities += "<!ENTITY \(name) \"" + String(repeating: "&\(inner);", count: 10) + "\">"
        }
        let bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE x [\(entities)]>\n"
            + #"<ProcessList id="x" compCLFversion="3"><Description>&g;&g;</Description></ProcessList>"#
        let refused = try #require(throws: LookFormatsError.self) { try Self.parse(bomb) }
        #expect(refused.description.contains("entities") && !refused.description.contains("NSXMLParserErrorDomain"),
                "\(refused)")
    }

    @Test func hugeArrayDimensionsAreRefusedBeforeReading() throws {
        let xml = """
        <ProcessList id="x" compCLFversion="3"><LUT3D inBitDepth="32f" outBitDepth="32f">
        <Array dim="4000000000 4000000000 4000000000 3">0 0 0</Array></LUT3D></ProcessList>
        """
        let error = try #require(throws: LookFormatsError.self) { try Self.parse(xml) }
        #expect(error.description.contains("larger than LookStudio reads") && error.line == 2)
    }

    @Test func detectionFindsClfByExtensionAndContent() throws {
        let dir = NSTemporaryDirectory() + "clf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cube = try ColorCube.identity(size: 3)
        let text = CLFFile.serialize(cube, id: "i", name: "Identity")
        try text.write(toFile: "\(dir)/a.xml", atomically: true, encoding: .utf8)
        #expect(try LUTFormat.format(of: "\(dir)/a.xml") == .clf)
        #expect(try LUTFormat.format(of: "\(dir)/b.clf") == .clf)
        #expect(try LUTFormat.read(path: "\(dir)/a.xml").lut.cube == cube)
    }

    /// The probe's 93-byte file (Fuzz/seeds/clf): a byte that is not UTF-8 (0xEE) in an attribute or element name
    /// ended every command with SIGILL inside Foundation's XMLParser.
    @Test(arguments: [
        (#"<LUT3D i"#, #"="32f"/>"#),
        (#"<LUT"#, #"3D/>"#),
    ])
    func aNameThatIsNotUTF8IsRefusedBeforeTheXMLParser(_ before: String, _ after: String) throws {
        let head = "<?xml version=\"1.0\"?>\n<ProcessList id=\"a\" compCLFversion=\"3\">" + before
        let file = Array(head.utf8) + [0xEE] + Array((after + "</ProcessList>\n").utf8)
        let error = try #require(throws: LookFormatsError.self) { try CLFFile.parse(file, fileName: "t.clf") }
        #expect(error.description.contains("not UTF-8") && error.description.contains("CLF") && error.line == 2)
    }

    /// A processing instruction without data (`<?x?>`) made Foundation's XMLParser read a NULL string (a SEGV the
    /// fuzz smoke found); every one but the XML declaration at the start is refused before the parser sees it.
    @Test(arguments: ["<?x?>", "<?pi some data?>", "<?xml-stylesheet href=\"a\"?>"])
    func aProcessingInstructionIsRefusedBeforeTheXMLParser(_ instruction: String) throws {
        let file = "<?xml version=\"1.0\"?>\n<ProcessList id=\"a\" compCLFversion=\"3\">\n" + instruction
            + "</ProcessList>\n"
        let error = try #require(throws: LookFormatsError.self) { try CLFFile.parse(Array(file.utf8), fileName: "t.clf") }
        #expect(error.description.contains("processing instruction") && error.line == 3, "\(error)")
        let declared = try CLFFile.parse(Array(CLFFile.serialize(try ColorCube.identity(size: 2), id: "i",
                                                                 name: "I").utf8), fileName: "ok.clf")
        #expect(declared.nodes.count == 1)
    }

    /// The probe's 470 kB chain of 5,000 identity matrices: 70 s in `inspect` before the budget, now refused before
    /// any baking with the figures.
    @Test func aChainOverTheWorkBudgetIsRefusedUpFrontWithTheNumbers() throws {
        let matrix = #"<Matrix inBitDepth="32f" outBitDepth="32f"><Array dim="3 3">1 0 0 0 1 0 0 0 1</Array></Matrix>"#
        let xml = #"<ProcessList id="x" compCLFversion="3">"#
            + String(repeating: matrix + "\n", count: 5000) + "</ProcessList>"
        let start = Date()
        let error = try #require(throws: LookFormatsError.self) { try Self.parse(xml) }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(error.description.contains("5,000 nodes baked into a 65³ cube would evaluate 5,000 × 274,625 = "
            + "1,373,125,000 lattice points, over the budget of 268,435,456"), "\(error)")
        #expect(error.description.contains("at most 977 nodes fit"))
        // Within the budget, a chain still bakes.
        let fits = #"<ProcessList id="x" compCLFversion="3">"# + String(repeating: matrix, count: 3) + "</ProcessList>"
        #expect(try Self.parse(fits).lut.cube?.size == 65)
    }
}
