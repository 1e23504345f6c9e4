import Foundation
import LookCore
import LookFormats
import Testing

/// Rows of the 2³ identity, red fastest.
private let identityRows2 = [
    "0 0 0", "1 0 0", "0 1 0", "1 1 0", "0 0 1", "1 0 1", "0 1 1", "1 1 1",
]

private func cubeText(_ lines: [String]) -> [UInt8] { Array(lines.joined(separator: "\n").utf8 + [0x0A]) }

private func parse(_ lines: [String], file: String = "warm.cube") throws -> CubeFileContents {
    try CubeFile.parse(cubeText(lines), fileName: file)
}

private func parseError(_ lines: [String], file: String = "warm.cube") -> LookFormatsError? {
    parseError(cubeText(lines), file: file)
}

private func parseError(_ bytes: [UInt8], file: String = "warm.cube") -> LookFormatsError? {
    do {
        _ = try CubeFile.parse(bytes, fileName: file)
        return nil
    } catch {
        return error
    }
}

private func warning(_ contents: CubeFileContents, containing text: String) -> FormatWarning? {
    contents.warnings.first { $0.message.contains(text) }
}

@Suite("CubeFile reading")
struct CubeFileReadingTests {
    @Test("a plain 2³ identity reads red fastest, with no warnings")
    func plainIdentity() throws {
        let c = try parse(["TITLE \"Identity\"", "LUT_3D_SIZE 2"] + identityRows2)
        let cube = try #require(c.lut.cube)
        #expect(cube == (try ColorCube.identity(size: 2)))
        #expect(c.lut.title == "Identity")
        #expect(c.dialect == .adobe)
        #expect(c.warnings.isEmpty)
        #expect(c.lut.isPlainCube)
    }

    @Test("CRLF, tabs, e-notation, .75 numbers, no final newline and a whitespace-only last line are normal")
    func normalVariations() throws {
        let text = "LUT_3D_SIZE 2\r\n\t0\t0  0\r\n1e0 0 0\r\n0 .75 0\r\n1 7.5E-1 0\r\n0 0 +1\r\n1. 0 1\r\n"
            + "0 1 1\r\n1 1 1\r\n  \t "
        let c = try CubeFile.parse(Array(text.utf8), fileName: "a.cube")
        let cube = try #require(c.lut.cube)
        #expect(cube.entry(r: 0, g: 1, b: 0) == SIMD3(0, 0.75, 0))
        #expect(cube.entry(r: 1, g: 1, b: 0) == SIMD3(1, 0.75, 0))
        #expect(cube.entry(r: 0, g: 0, b: 1) == SIMD3(0, 0, 1))
        #expect(c.warnings.isEmpty)
    }

    @Test("a file without a final newline keeps its last row")
    func noFinalNewline() throws {
        let text = (["LUT_1D_SIZE 2", "0 0 0", "0.5 0.25 0.125"]).joined(separator: "\n")
        let c = try CubeFile.parse(Array(text.utf8), fileName: "a.cube")
        let shaper = try #require(c.lut.shaper)
        #expect(Array(shaper.values[3...]) == [0.5, 0.25, 0.125])
    }

    @Test("lowercase keywords are read, with a warning on their line")
    func lowercaseKeywords() throws {
        let c = try parse(["title \"x\"", "lut_3d_size 2", "Domain_Max 2 2 2"] + identityRows2)
        #expect(c.lut.cube?.size == 2)
        #expect(c.lut.cubeInputMax == SIMD3(repeating: 2))
        let lines = c.warnings.filter { $0.message.contains("not upper case") }.compactMap(\.line)
        #expect(lines == [1, 2, 3])
        #expect(warning(c, containing: "\"lut_3d_size\"")?.message.contains("LUT_3D_SIZE") == true)
    }

    @Test("an unquoted TITLE is read to the end of the line, with a warning")
    func unquotedTitle() throws {
        let c = try parse(["# made by hand", "TITLE Warm look  ", "LUT_3D_SIZE 2"] + identityRows2)
        #expect(c.lut.title == "Warm look")
        let w = try #require(warning(c, containing: "TITLE is not in quotes"))
        #expect(w.line == 2)
    }

    @Test("DOMAIN_MIN/MAX after the size line apply to the cube, with a warning on their lines")
    func domainAfterSize() throws {
        let c = try parse(["LUT_3D_SIZE 2", "DOMAIN_MIN -1 0 0", "DOMAIN_MAX 1 2 4"] + identityRows2)
        #expect(c.lut.cubeInputMin == SIMD3(-1, 0, 0))
        #expect(c.lut.cubeInputMax == SIMD3(1, 2, 4))
        let lines = c.warnings.filter { $0.message.contains("after the size line") }.compactMap(\.line)
        #expect(lines == [2, 3])
        #expect(c.dialect == .adobe)
    }

    @Test("DOMAIN_MIN/MAX before the size line give no warning")
    func domainBeforeSize() throws {
        let c = try parse(["DOMAIN_MIN 0 0 0", "DOMAIN_MAX 2 2 2", "LUT_3D_SIZE 2"] + identityRows2)
        #expect(c.lut.cubeInputMax == SIMD3(repeating: 2))
        #expect(c.warnings.isEmpty)
    }

    @Test("LUT_IN_VIDEO_RANGE and LUT_OUT_VIDEO_RANGE are recorded with warnings and change no value")
    func videoRange() throws {
        let c = try parse(["TITLE \"v\"", "LUT_3D_SIZE 2", "LUT_IN_VIDEO_RANGE", "LUT_OUT_VIDEO_RANGE"] + identityRows2)
        #expect(c.inputVideoRange)
        #expect(c.outputVideoRange)
        #expect(warning(c, containing: "LUT_IN_VIDEO_RANGE")?.line == 3)
        #expect(warning(c, containing: "LUT_OUT_VIDEO_RANGE")?.line == 4)
        #expect(c.lut.cube == (try ColorCube.identity(size: 2)))
        #expect(c.dialect == .resolve)
    }

    @Test("a comment between rows is tolerated with a warning on its line; trailing comments are not")
    func commentBetweenRows() throws {
        var lines = ["LUT_3D_SIZE 2"] + identityRows2
        lines.insert("# a note in the middle", at: 4)
        lines.append("# written by hand")
        let c = try parse(lines)
        #expect(c.lut.cube == (try ColorCube.identity(size: 2)))
        let comments = c.warnings.filter { $0.message.contains("comment") }
        #expect(comments.map(\.line) == [5])
    }

    @Test("a blank line between the shaper and cube rows is normal")
    func blankBetweenTables() throws {
        let c = try parse(["LUT_1D_SIZE 2", "LUT_3D_SIZE 2", "0 0 0", "1 1 1", ""] + identityRows2)
        #expect(c.lut.shaper?.size == 2)
        #expect(c.lut.cube?.size == 2)
        #expect(c.dialect == .resolve)
        #expect(c.warnings.isEmpty)
    }

    @Test("values outside 0…1 give one warning with the count and the range")
    func valuesOutsideUnit() throws {
        var rows = identityRows2
        rows[1] = "1.5 0 -0.25"
        rows[6] = "0 3 1"
        let c = try parse(["LUT_3D_SIZE 2"] + rows)
        let outside = c.warnings.filter { $0.message.contains("outside 0…1") }
        #expect(outside.count == 1)
        let w = try #require(outside.first)
        #expect(w.line == 3)
        #expect(w.message.contains("3 values"))
        #expect(w.message.contains("-0.25") && w.message.contains("3.0"))
        #expect(c.lut.cube?.entry(r: 1, g: 0, b: 0) == SIMD3(1.5, 0, -0.25))
    }

    @Test("LUT_1D_INPUT_RANGE in a 3D-only file is applied to the cube, with a warning")
    func oneDRangeInThreeDFile() throws {
        let c = try parse(["LUT_3D_SIZE 2", "LUT_1D_INPUT_RANGE -1 3"] + identityRows2)
        #expect(c.lut.shaper == nil)
        #expect(c.lut.cubeInputMin == SIMD3(repeating: -1))
        #expect(c.lut.cubeInputMax == SIMD3(repeating: 3))
        let w = try #require(warning(c, containing: "LUT_1D_INPUT_RANGE"))
        #expect(w.line == 2)
        #expect(w.message.contains("3D table"))
    }

    @Test("LUT_3D_INPUT_RANGE in a 1D-only file is applied to the shaper, with a warning")
    func threeDRangeInOneDFile() throws {
        let c = try parse(["LUT_1D_SIZE 2", "LUT_3D_INPUT_RANGE 0 2", "0 0 0", "1 1 1"])
        #expect(c.lut.shaper?.inputMax == SIMD3(repeating: 2))
        #expect(warning(c, containing: "LUT_3D_INPUT_RANGE")?.line == 2)
    }

    @Test("Resolve ranges: LUT_1D_INPUT_RANGE to the shaper, LUT_3D_INPUT_RANGE to the cube, shaper rows first")
    func resolveRanges() throws {
        let c = try parse(["LUT_1D_SIZE 2", "LUT_1D_INPUT_RANGE 0 4", "LUT_3D_SIZE 2", "LUT_3D_INPUT_RANGE 0 2",
                           "0 0 0", "2 2 2"] + identityRows2)
        let shaper = try #require(c.lut.shaper)
        #expect(shaper.inputMax == SIMD3(repeating: 4))
        #expect(shaper.values == [0, 0, 0, 2, 2, 2])
        #expect(c.lut.cubeInputMax == SIMD3(repeating: 2))
        // x = 2 → shaper 1 → cube at 1/2 of its 0…2 range → 0.5.
        let v = c.lut.evaluate(SIMD3(repeating: 2))
        #expect(abs(v.x - 0.5) < 1e-6 && abs(v.z - 0.5) < 1e-6)
        #expect(c.dialect == .resolve)
    }

    @Test("old Mac line endings (a lone CR) separate lines too")
    func loneCR() throws {
        let text = (["LUT_3D_SIZE 2"] + identityRows2).joined(separator: "\r")
        let c = try CubeFile.parse(Array(text.utf8), fileName: "mac.cube")
        #expect(c.lut.cube == (try ColorCube.identity(size: 2)))
    }

    @Test("a range keyword between the shaper and cube rows applies, with a warning on its line")
    func keywordAfterRows() throws {
        let c = try parse(["LUT_1D_SIZE 2", "LUT_3D_SIZE 2", "0 0 0", "1 1 1", "LUT_3D_INPUT_RANGE 0 2"] + identityRows2)
        #expect(c.lut.cubeInputMax == SIMD3(repeating: 2))
        #expect(warning(c, containing: "after the table rows began")?.line == 5)
    }

    @Test("a UTF-8 byte-order mark is skipped with a warning")
    func byteOrderMark() throws {
        let c = try CubeFile.parse([0xEF, 0xBB, 0xBF] + cubeText(["LUT_3D_SIZE 2"] + identityRows2), fileName: "b.cube")
        #expect(c.lut.cube?.size == 2)
        #expect(warning(c, containing: "byte-order mark")?.line == 1)
    }
}

@Suite("CubeFile errors")
struct CubeFileErrorTests {
    @Test("LUT_3D_SIZE 1 is refused with the allowed range")
    func sizeOne() throws {
        let e = try #require(parseError(["TITLE \"t\"", "LUT_3D_SIZE 1", "0 0 0"]))
        #expect(e.file == "warm.cube")
        #expect(e.line == 2)
        #expect(e.message == "LUT_3D_SIZE 1 is out of range: 2…256")
    }

    @Test("LUT_3D_SIZE 300 is refused with the allowed range")
    func sizeThreeHundred() throws {
        let e = try #require(parseError(["LUT_3D_SIZE 300"]))
        #expect(e.description == "warm.cube line 1: LUT_3D_SIZE 300 is out of range: 2…256")
    }

    @Test("LUT_1D_SIZE above 65536 is refused")
    func oneDSizeTooLarge() throws {
        let e = try #require(parseError(["LUT_1D_SIZE 65537"]))
        #expect(e.message.contains("65537") && e.message.contains("2…65536"))
    }

    @Test("a missing row is reported at the last line with the expected and found counts")
    func missingRow() throws {
        let lines = ["LUT_3D_SIZE 2"] + identityRows2.dropLast()
        let e = try #require(parseError(lines))
        #expect(e.line == 8)
        #expect(e.message == "expected 8 rows for LUT_3D_SIZE 2, found 7")
    }

    @Test("a missing row of a 17³ cube names 4913 rows and 4912 found")
    func missingRow17() throws {
        var text = "LUT_3D_SIZE 17\n"
        for _ in 0..<4912 { text += "0.5 0.5 0.5\n" }
        let e = try #require(parseError(Array(text.utf8)))
        #expect(e.line == 4913)
        #expect(e.message.contains("expected 4913 rows for LUT_3D_SIZE 17, found 4912"))
    }

    @Test("a shaper plus cube with a missing row names both sizes")
    func missingRowBoth() throws {
        let e = try #require(parseError(["LUT_1D_SIZE 2", "LUT_3D_SIZE 2", "0 0 0", "1 1 1"] + identityRows2.dropLast()))
        #expect(e.message == "expected 2 + 8 = 10 rows for LUT_1D_SIZE 2 and LUT_3D_SIZE 2, found 9")
    }

    @Test("an extra row is refused at its line")
    func extraRow() throws {
        let e = try #require(parseError(["LUT_3D_SIZE 2"] + identityRows2 + ["1 1 1"]))
        #expect(e.line == 10)
        #expect(e.message.contains("expected 8 rows") && e.message.contains("found more"))
    }

    @Test("a letter in a number is quoted with its line")
    func letterInNumber() throws {
        var rows = identityRows2
        rows[3] = "1 0.2x5 0"
        let e = try #require(parseError(["LUT_3D_SIZE 2"] + rows))
        #expect(e.line == 5)
        #expect(e.message.contains("\"0.2x5\""))
        #expect(e.description.hasPrefix("warm.cube line 5: expected a number"))
    }

    @Test("two numbers on a row are refused, quoting the row")
    func twoNumbers() throws {
        var rows = identityRows2
        rows[6] = "0.25 0.5"
        let e = try #require(parseError(["LUT_3D_SIZE 2"] + rows))
        #expect(e.description == "warm.cube line 8: expected 3 numbers, found 2 (\"0.25 0.5\")")
    }

    @Test("four numbers on a row are refused")
    func fourNumbers() throws {
        var rows = identityRows2
        rows[0] = "0 0 0 1"
        let e = try #require(parseError(["LUT_3D_SIZE 2"] + rows))
        #expect(e.line == 2)
        #expect(e.message.contains("expected 3 numbers, found 4"))
    }

    @Test("an unknown keyword is refused by name")
    func unknownKeyword() throws {
        let e = try #require(parseError(["LUT_3D_SIZE 2", "LUT_4D_SIZE 2"] + identityRows2))
        #expect(e.line == 2)
        #expect(e.message.contains("unknown keyword \"LUT_4D_SIZE\""))
    }

    @Test("rows without a size line are refused")
    func noSize() throws {
        let e = try #require(parseError(["TITLE \"t\""] + identityRows2))
        #expect(e.line == 2)
        #expect(e.message.contains("LUT_3D_SIZE"))
        let headerOnly = try #require(parseError(["TITLE \"t\"", "# nothing else"]))
        #expect(headerOnly.message.contains("no LUT_3D_SIZE or LUT_1D_SIZE"))
    }

    @Test("NaN and infinity are refused with their line")
    func nonFinite() throws {
        for token in ["nan", "inf", "-Infinity", "1e60"] {
            var rows = identityRows2
            rows[2] = "0 \(token) 0"
            let e = try #require(parseError(["LUT_3D_SIZE 2"] + rows))
            #expect(e.line == 4)
            #expect(e.message.contains("\"\(token)\""))
        }
    }

    @Test("an empty file is refused clearly")
    func emptyFile() throws {
        let e = try #require(parseError([UInt8]()))
        #expect(e.file == "warm.cube")
        #expect(e.message.contains("empty"))
        let blank = try #require(parseError(Array(" \n\r\n\t\n".utf8)))
        #expect(blank.message.contains("empty"))
    }

    @Test("a reversed domain is refused at its line")
    func reversedDomain() throws {
        let e = try #require(parseError(["LUT_3D_SIZE 2", "DOMAIN_MIN 0 1 0", "DOMAIN_MAX 1 0.5 1"] + identityRows2))
        #expect(e.line == 3)
        #expect(e.message.contains("green"))
    }

    @Test("DOMAIN_MIN with two numbers is refused")
    func shortDomain() throws {
        let e = try #require(parseError(["LUT_3D_SIZE 2", "DOMAIN_MIN 0 0"] + identityRows2))
        #expect(e.message.contains("DOMAIN_MIN needs 3 numbers") && e.message.contains("found 2"))
    }

    @Test("a size line after the rows began is refused")
    func sizeAfterRows() throws {
        let e = try #require(parseError(["LUT_1D_SIZE 2", "0 0 0", "LUT_3D_SIZE 2", "1 1 1"] + identityRows2))
        #expect(e.line == 3)
        #expect(e.message.contains("before the rows"))
    }

    @Test("a tiny file claiming 256³ rows is refused by its count")
    func hugeClaim() throws {
        let e = try #require(parseError(["LUT_3D_SIZE 256"] + identityRows2))
        #expect(e.message == "expected 16777216 rows for LUT_3D_SIZE 256, found 8")
    }

    @Test("reading a directory is refused by name")
    func directory() throws {
        do {
            _ = try CubeFile.read(path: FileManager.default.temporaryDirectory.path)
            Issue.record("reading a directory succeeded")
        } catch {
            #expect(error.description == "\(FileManager.default.temporaryDirectory.path): is a folder, not a LUT file")
        }
    }

    @Test("reading a missing file names it")
    func missingFile() throws {
        do {
            _ = try CubeFile.read(path: "/nonexistent-dir/cold.cube")
            Issue.record("reading a missing file succeeded")
        } catch {
            #expect(error.file == "cold.cube")
            #expect(error.message.contains("cannot open"))
        }
    }
}

@Suite("CubeFile writing")
struct CubeFileWritingTests {
    @Test("serialize then parse gives the same LUT exactly (shaper, cube, ranges, title)")
    func roundTripResolve() throws {
        let shaper = try Shaper(size: 3, values: [0, 0, 0, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 1],
                                inputMin: SIMD3(repeating: -0.5), inputMax: SIMD3(repeating: 7))
        let cube = try ColorCube(size: 3) { SIMD3($0.z, $0.x * 0.123456789, $0.y * $0.y + 1e-7) }
        let lut = try LUT(title: "Round \"trip\"", shaper: shaper, cube: cube,
                          cubeInputMin: SIMD3(repeating: -1), cubeInputMax: SIMD3(repeating: 3))
        let text = CubeFile.serialize(lut)
        let back = try CubeFile.parse(Array(text.utf8), fileName: "rt.cube")
        #expect(back.lut.shaper == lut.shaper)
        #expect(back.lut.cube == lut.cube)
        #expect(back.lut.cubeInputMin == lut.cubeInputMin && back.lut.cubeInputMax == lut.cubeInputMax)
        #expect(back.lut.title == "Round 'trip'")
        #expect(back.dialect == .resolve)
        #expect(text.contains("LUT_1D_INPUT_RANGE -0.5 7.0"))
        #expect(text.contains("LUT_3D_INPUT_RANGE -1.0 3.0"))
    }

    @Test("a per-channel cube domain is written as DOMAIN_MIN/MAX")
    func perChannelDomain() throws {
        let cube = try ColorCube.identity(size: 2)
        let lut = try LUT(cube: cube, cubeInputMin: SIMD3(0, 1, 0), cubeInputMax: SIMD3(2, 2, 1))
        let text = CubeFile.serialize(lut)
        #expect(text.contains("DOMAIN_MIN 0.0 1.0 0.0\nDOMAIN_MAX 2.0 2.0 1.0"))
        let back = try CubeFile.parse(Array(text.utf8), fileName: "d.cube")
        #expect(back.lut == lut)
        #expect(back.dialect == .adobe)
    }

    @Test("the Resolve dialect writes a uniform cube range as LUT_3D_INPUT_RANGE")
    func resolveDialectCube() throws {
        let lut = try LUT(cube: try ColorCube.identity(size: 2), cubeInputMin: SIMD3(repeating: -1),
                          cubeInputMax: SIMD3(repeating: 3))
        let text = CubeFile.serialize(lut, dialect: .resolve)
        #expect(text.contains("LUT_3D_INPUT_RANGE -1.0 3.0"))
        #expect(!text.contains("DOMAIN"))
        #expect(try CubeFile.parse(Array(text.utf8), fileName: "r.cube").lut == lut)
    }

    @Test("a shaper whose range differs per channel is moved onto one range when written with a cube")
    func perChannelShaperWithCube() throws {
        let shaper = try Shaper(size: 5, values: (0..<15).map { Float($0) / 14 },
                                inputMin: SIMD3(0, 0, -1), inputMax: SIMD3(1, 2, 1))
        let lut = try LUT(shaper: shaper, cube: try ColorCube.identity(size: 2))
        let back = try CubeFile.parse(Array(CubeFile.serialize(lut).utf8), fileName: "s.cube")
        let s = try #require(back.lut.shaper)
        #expect(s.inputMin == SIMD3(repeating: -1) && s.inputMax == SIMD3(repeating: 2))
        // Where both tables have entries the function is unchanged.
        for x: Float in [-1, 0.5, 2] {
            let a = lut.evaluate(SIMD3(repeating: x)), b = back.lut.evaluate(SIMD3(repeating: x))
            #expect(abs(a.x - b.x) < 1e-6 && abs(a.z - b.z) < 1e-6)
        }
    }

    @Test("write puts a complete file in place that reads back")
    func writeAndRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cubefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("look.cube").path
        let lut = LUT(cube: try ColorCube(size: 4) { SIMD3($0.y, $0.z, $0.x) }, title: "Swap")
        try CubeFile.write(lut, to: path)
        #expect(try CubeFile.read(path: path).lut == lut)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(leftovers == ["look.cube"])
    }

    /// `write` streams the text in pieces (issue 56 item 7); the file is byte for byte what `serialize` gives.
    @Test func writtenFileIsTheSerializedTextAcrossPieces() throws {
        let cube = try ColorCube(size: 40) { SIMD3($0.z, $0.x * 0.5, 1 - $0.y) }
        let lut = LUT(cube: cube, title: "Streamed")
        let path = NSTemporaryDirectory() + "streamed-\(UUID().uuidString).cube"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try CubeFile.write(lut, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == CubeFile.serialize(lut))
    }
}
