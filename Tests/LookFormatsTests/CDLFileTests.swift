import Foundation
import ImageIO
import Testing
@testable import LookFormats

@Suite("ASC CDL files: .cc, .ccc, .cdl (CDLFile, CDLReader, CDLMarkup)")
struct CDLFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cdl").path

    static func parse(_ xml: String, _ name: String = "grade.cc") throws -> CDLContents {
        try CDLFile.parse(Array(xml.utf8), fileName: name)
    }

    /// The error `parse` throws, as the user reads it.
    static func refusal(_ xml: String, _ name: String = "grade.cc") -> String {
        refusal(Array(xml.utf8), name)
    }

    static func refusal(_ bytes: [UInt8], _ name: String = "grade.cc") -> String {
        do {
            _ = try CDLFile.parse(bytes, fileName: name)
            return "accepted"
        } catch {
            return error.description
        }
    }

    // MARK: Real-world shapes

    @Test("Resolve's .cc: empty id kept as empty, CRLF lines, six decimals, no namespace")
    func resolveExport() throws {
        let contents = try CDLFile.read(path: Self.fixtures + "/resolve.cc")
        #expect(contents.kind == .cc && contents.warnings.isEmpty)
        let cc = try #require(contents.corrections.first)
        #expect(cc.id == "" && cc.line == 2)
        #expect(cc.slope == SIMD3(1.03345, 0.98341, 0.9712))
        #expect(cc.offset == SIMD3(-0.0123, 0.0045, 0.021))
        #expect(cc.power == SIMD3(1, 1.02, 0.985) && cc.saturation == 1.1)
    }

    @Test("a dailies .ccc: corrections by id and position, descriptions at every level, SATNode, odd numbers")
    func dailiesCollection() throws {
        let contents = try CDLFile.read(path: Self.fixtures + "/dailies.ccc")
        #expect(contents.kind == .ccc && contents.corrections.count == 3)
        #expect(contents.descriptions == ["Day 12 dailies"] && contents.inputDescription == "LogC3 EI800")
        #expect(contents.viewingDescription == "Rec.709 100 nits, Sony BVM-X300")
        #expect(contents.index(of: "A001C004_220101_R1AB") == 1 && contents.index(of: "missing") == nil)
        let first = try #require(contents.correction(id: "A001C003_220101_R1AB"))
        #expect(first.offset == SIMD3(-0.03, -0.02, 0) && first.power == SIMD3(1.25, 1, 1) && first.saturation == 1.7)
        #expect(first.descriptions == ["warm interior"] && first.sopDescriptions == ["balance to key light"])
        #expect(first.satDescriptions == ["a touch more colour"] && first.inputDescription == "LogC3")
        #expect(first.viewingDescription == "Rec.709")
        let second = contents.corrections[1]
        #expect(second.slope == SIMD3(1, 0.95, 1.05) && second.power == SIMD3(0.9, 1, 1.1) && second.saturation == 0.8)
        let third = contents.corrections[2]
        #expect(third.id == nil && third.slope == .one && third.saturation == 0)
        #expect(contents.warnings == [FormatWarning(line: 7, "<LabNotes> inside <ColorCorrectionCollection> is not "
                                                    + "part of ASC CDL 1.2; ignored")])
    }

    @Test("a .cdl: decisions hold a correction, refer to one in the file, or to one in another file")
    func decisionList() throws {
        let contents = try CDLFile.read(path: Self.fixtures + "/edit.cdl")
        #expect(contents.kind == .cdl && contents.corrections.map(\.id) == ["sc4"])
        #expect(contents.decisions.map(\.correction) == [0, 0, nil])
        #expect(contents.decisions.map(\.reference) == [nil, "sc4", "day12_master"])
        #expect(contents.decisions.map(\.mediaRef) == ["reel1/A001C003.mov", "reel1/A001C007.mov",
                                                       "reel1/B002C001.mov"])
        #expect(contents.decisions[0].descriptions == ["scene 4"] && contents.descriptions == ["Reel 1 conform"])
        #expect(contents.decisions[0].inputDescription == "ARRI LogC3")
        #expect(contents.decisions[0].viewingDescription == "Rec.709 monitor")
        #expect(contents.warnings.map(\.line) == [24] && contents.warnings[0].message.contains("day12_master"))
    }

    @Test("namespace prefixes, CDATA, entities, commas and tabs between numbers")
    func prefixedElements() throws {
        let cc = try #require(try CDLFile.read(path: Self.fixtures + "/prefixed.cc").corrections.first)
        #expect(cc.id == "shot_010")
        #expect(cc.descriptions == ["Look <A> & friends", "grain & halation — later"])
        #expect(cc.slope == SIMD3(1.2, 0.9, 1.1) && cc.offset == SIMD3(-0.05, 0.02, 0.1))
        #expect(cc.power == SIMD3(1.3, 0.8, 1.1) && cc.saturation == 1.4)
    }

    @Test("a .cdl file holding a ColorCorrection is read as the .cc it is, with a warning")
    func extensionFollowsContent() throws {
        let contents = try Self.parse("<ColorCorrection id=\"x\"><SatNode><Saturation>2</Saturation></SatNode>"
                                      + "</ColorCorrection>", "grade.cdl")
        #expect(contents.kind == .cc && contents.corrections[0].saturation == 2)
        #expect(contents.warnings.first?.message.contains("named .cdl but holds a <ColorCorrection>") == true)
    }

    @Test("old ASC_SOP / ASC_SAT element names are read, with a warning; a correction of neither changes nothing")
    func oldNames() throws {
        let contents = try Self.parse("""
            <ColorCorrection><ASC_SOP><Slope>2 2 2</Slope><Offset>0 0 0</Offset><Power>1 1 1</Power></ASC_SOP>
            <ASC_SAT><Saturation>0.5</Saturation></ASC_SAT></ColorCorrection>
            """)
        #expect(contents.corrections[0].slope == SIMD3(repeating: 2) && contents.corrections[0].saturation == 0.5)
        #expect(contents.warnings.count == 2)
        let empty = try Self.parse("<ColorCorrection id=\"a\"/>")
        #expect(empty.corrections[0].isIdentity && empty.warnings.count == 1)
    }

    // MARK: Numbers

    @Test("decimal numbers in every spelling ASC files use", arguments: [
        ("-.03", Float(-0.03)), ("1e0", 1), ("+1.0", 1), ("1.", 1), (".5", 0.5), ("1E-2", 0.01), ("007", 7),
        ("-0", 0), ("2.5e+1", 25),
    ])
    func numberSpellings(text: String, value: Float) throws {
        let cc = try Self.parse("<ColorCorrection><SOPNode><Slope>1 1 1</Slope><Offset>\(text) 0 0</Offset>"
                                + "<Power>1 1 1</Power></SOPNode></ColorCorrection>").corrections[0]
        #expect(cc.offset.x == value)
    }

    @Test("what Float(_:) would take but a CDL may not hold is refused", arguments: [
        "inf", "nan", "0x1p3", "1e", "--1", "1.2.3", "e5", "1,5.0", "½",
    ])
    func notNumbers(text: String) {
        let message = Self.refusal("<ColorCorrection><SatNode><Saturation>\(text)</Saturation></SatNode>"
                                   + "</ColorCorrection>")
        #expect(message.hasPrefix("grade.cc line 1: <Saturation> "), "\(message)")
    }

    @Test("a number too large for a Float is refused by name")
    func overflow() {
        #expect(Self.refusal("<ColorCorrection><SatNode><Saturation>1e39</Saturation></SatNode></ColorCorrection>")
                == "grade.cc line 1: <Saturation> holds 1e39, too large for a 32-bit float")
    }

    // MARK: Errors a person can act on

    /// A collection with its bad line on line 14, as in the brief's example.
    static let collectionWithShortSlope = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ColorCorrectionCollection xmlns="urn:ASC:CDL:v1.2">
            <ColorCorrection id="a">
                <SOPNode>
                    <Slope>1 1 1</Slope>
                    <Offset>0 0 0</Offset>
                    <Power>1 1 1</Power>
                </SOPNode>
            </ColorCorrection>
            <ColorCorrection id="b">
                <Description>two numbers where three belong</Description>
                <SOPNode>
                    <Description>typed in a hurry</Description>
                    <Slope>1.1 0.9</Slope>
                    <Offset>0 0 0</Offset>
                    <Power>1 1 1</Power>
                </SOPNode>
            </ColorCorrection>
        </ColorCorrectionCollection>
        """

    @Test("a Slope of two numbers names the file, the line and the element")
    func shortSlope() {
        #expect(Self.refusal(Self.collectionWithShortSlope, "grade.ccc")
                == "grade.ccc line 14: <Slope> has 2 numbers, expected 3 (\"1.1 0.9\")")
    }

    @Test("structural and range errors, each with its line", arguments: [
        ("<ColorCorrection>\n<SOPNode><Slope>1 1 1</Slope><Offset>0 0 0</Offset></SOPNode></ColorCorrection>",
         "grade.cc line 2: <SOPNode> has no <Power> (ASC CDL 1.2 requires Slope, Offset and Power)"),
        ("<ColorCorrection><SOPNode><Slope>1 -1 1</Slope><Offset>0 0 0</Offset><Power>1 1 1</Power></SOPNode>"
         + "</ColorCorrection>", "grade.cc line 1: slope -1.0 is negative: ASC CDL 1.2 requires slope ≥ 0"),
        ("<ColorCorrection><SOPNode><Slope>1 1 1</Slope><Offset>0 0 0</Offset><Power>1 0 1</Power></SOPNode>"
         + "</ColorCorrection>", "grade.cc line 1: power 0.0 is not above 0: ASC CDL 1.2 requires power > 0"),
        ("<ColorCorrection><SatNode><Saturation>-0.5</Saturation></SatNode></ColorCorrection>",
         "grade.cc line 1: saturation -0.5 is negative: ASC CDL 1.2 requires saturation ≥ 0"),
        ("<ColorCorrection>\n<SatNode><Saturation>1</Saturation></SatNode>\n<SATNode><Saturation>1</Saturation>"
         + "</SATNode></ColorCorrection>", "grade.cc line 3: <ColorCorrection> has a second <SatNode> (the first is "
         + "at line 2)"),
        ("<ColorCorrection><SatNode></SatNode></ColorCorrection>", "grade.cc line 1: <SatNode> has no <Saturation>"),
        ("<ProcessList id=\"x\"/>", "grade.cc line 1: the root element is <ProcessList>; a CDL file holds "
         + "<ColorCorrection> (.cc), <ColorCorrectionCollection> (.ccc) or <ColorDecisionList> (.cdl)"),
        ("<ColorCorrectionCollection>\n</ColorCorrectionCollection>",
         "grade.cc line 1: <ColorCorrectionCollection> holds no <ColorCorrection>"),
        ("<ColorDecisionList><ColorDecision>\n<MediaRef ref=\"a.mov\"/></ColorDecision></ColorDecisionList>",
         "grade.cc line 1: <ColorDecision> holds no <ColorCorrection> or <ColorCorrectionRef>"),
        ("<ColorDecisionList><ColorDecision><ColorCorrectionRef/></ColorDecision></ColorDecisionList>",
         "grade.cc line 1: <ColorCorrectionRef> has no ref attribute naming the correction"),
    ])
    func refusals(xml: String, message: String) {
        #expect(Self.refusal(xml) == message)
    }

    @Test("more corrections than a CDL file may hold are refused with the limit")
    func tooManyCorrections() {
        let one = "<ColorCorrection><SatNode><Saturation>1</Saturation></SatNode></ColorCorrection>\n"
        let xml = "<ColorCorrectionCollection>\n" + String(repeating: one, count: CDLFile.maxCorrections + 1)
            + "</ColorCorrectionCollection>"
        #expect(Self.refusal(xml, "big.ccc") == "big.ccc line \(CDLFile.maxCorrections + 2): more than "
                + "\(CDLFile.maxCorrections) corrections: larger than any CDL file LookStudio reads")
    }

    @Test("a file over the size limit is refused before it is parsed, with both numbers")
    func tooLarge() throws {
        let bytes = [UInt8](repeating: 0x20, count: CDLFile.maxBytes + 1)
        #expect(Self.refusal(bytes, "huge.cc") == "huge.cc: is \(CDLFile.maxBytes + 1) bytes, more than the "
                + "\(CDLFile.maxBytes) LookStudio reads for a CDL file")
        let path = NSTemporaryDirectory() + "lookstudio-cdl-\(UUID().uuidString).cc"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: LookFormatsError.self) { try CDLFile.read(path: path) }
    }

    // MARK: Writing

    @Test("written .cc: the ASC CDL 1.2 namespace, the id, SOPNode and SatNode")
    func writtenShape() throws {
        let text = try CDLFile.serialize(CDLCorrection(id: "look \"A\" & B", slope: SIMD3(1.2, 0.9, 1.1)))
        #expect(text.contains("<ColorCorrection id=\"look &quot;A&quot; &amp; B\" xmlns=\"urn:ASC:CDL:v1.2\">"))
        #expect(text.contains("<Slope>1.2 0.9 1.1</Slope>") && text.contains("<Saturation>1.0</Saturation>"))
        #expect(try Self.parse(text).corrections[0].id == "look \"A\" & B")
    }

    @Test("write → parse gives back every Float bit for bit, with descriptions (500 random corrections)")
    func roundTrip() throws {
        var seed = UInt64(12345)
        func next() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let exponent = Float(Int(seed >> 40) % 40 - 30)
            return Float(seed >> 41 & 0xFFFFFF) / Float(0xFFFFFF) * pow(2, exponent / 3)
        }
        for i in 0..<500 {
            let correction = CDLCorrection(
                id: "shot_\(i)", slope: SIMD3(next(), next(), next()), offset: SIMD3(next() - 1, -next(), next()),
                power: SIMD3(next() + .leastNonzeroMagnitude, next() + 1e-7, next() + 1), saturation: next(),
                descriptions: ["<grade> & \"notes\" \(i)", "ünïcode ✓"], inputDescription: "LogC3",
                viewingDescription: "Rec.709", sopDescriptions: ["sop"], satDescriptions: ["sat"])
            let text = try CDLFile.serialize(correction)
            #expect(!text.contains("e-") && !text.contains("e+"), "no exponents: \(text)")
            var read = try Self.parse(text).corrections[0]
            read.line = nil
            #expect(read == correction)
        }
    }

    @Test("plain decimals for Floats Swift would print with an exponent", arguments: [
        (Float(1e-5), "0.00001"), (1.2345678e-7, "0.00000012345679"), (33_554_432, "33554432"),
        (-3e10, "-30000000000"), (0.5, "0.5"),
        (Float.leastNonzeroMagnitude, "0." + String(repeating: "0", count: 44) + "1"),
    ])
    func plainDecimals(value: Float, text: String) {
        #expect(CDLFile.number(value) == text && Float(CDLFile.number(value)) == value)
    }

    @Test("OpenColorIO reads the written .cc and applies it as ASC CDL (ocioconvert --lut, 16-bit PNG)")
    func ocioReadsWhatIsWritten() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-cdl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let correction = CDLCorrection(id: "written", slope: SIMD3(1.2, 0.8, 1), offset: SIMD3(0.02, -0.01, 0.05),
                                       power: SIMD3(0.9, 1.1, 1.3), saturation: 0.7)
        try CDLFile.write(correction, to: dir + "/written.cc")
        let levels: [UInt16] = [0, 13107, 32768, 52428, 65535]
        let samples = levels.flatMap { [$0, 65535 - $0, $0 / 2] }
        try PNGImage.write(try PixelBuffer(width: 5, height: 1, channels: 3, samples: .sixteen(samples)),
                           to: dir + "/in.png", options: .data)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ocioconvert", "--lut", dir + "/written.cc", dir + "/in.png", dir + "/out.png"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        guard case .sixteen(let out) = try PNGImage.read(path: dir + "/out.png").samples else {
            Issue.record("ocioconvert wrote 8 bits")
            return
        }
        for pixel in 0..<5 {
            // OpenColorIO's default style for a .cc (no clamp), from the formula.
            let v = (0..<3).map { Double(samples[3 * pixel + $0]) / 65535 }
            let sop = (0..<3).map { c -> Double in
                let x = v[c] * Double(correction.slope[c]) + Double(correction.offset[c])
                return x < 0 ? x : pow(x, Double(correction.power[c]))
            }
            let luma = 0.2126 * sop[0] + 0.7152 * sop[1] + 0.0722 * sop[2]
            for c in 0..<3 {
                let expected = min(max(luma + 0.7 * (sop[c] - luma), 0), 1)
                #expect(abs(Double(out[3 * pixel + c]) / 65535 - expected) < 2e-4, "pixel \(pixel) channel \(c)")
            }
        }
    }
}
