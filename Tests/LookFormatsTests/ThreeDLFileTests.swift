import Foundation
import LookCore
import LookFormats
import Testing

private func parse3DL(_ text: String, file: String = "grade.3dl") throws -> ThreeDLContents {
    try ThreeDLFile.parse(Array(text.utf8), fileName: file)
}

private func parse3DLError(_ text: String, file: String = "grade.3dl") -> LookFormatsError? {
    do {
        _ = try ThreeDLFile.parse(Array(text.utf8), fileName: file)
        return nil
    } catch {
        return error
    }
}

/// A 2³ table whose codes encode their own grid position, written blue fastest: code = 100·r + 10·g + b + channel.
private func positionalRows(bits: Int = 10) -> [String] {
    var rows: [String] = []
    for r in 0..<2 {
        for g in 0..<2 {
            for b in 0..<2 {
                let base = 100 * r + 10 * g + b
                rows.append("\(base) \(base + 1) \(base + 2)")
            }
        }
    }
    return rows
}

@Suite("ThreeDLFile reading")
struct ThreeDLFileReadingTests {
    @Test("rows run blue fastest and land red fastest in the cube")
    func blueFastest() throws {
        let c = try parse3DL((["0 1023"] + positionalRows()).joined(separator: "\n") + "\n")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 2)
        #expect(c.hasMeshLine)
        #expect(c.inputBits == 10)
        #expect(c.outputBits == 10)
        for r in 0..<2 {
            for g in 0..<2 {
                for b in 0..<2 {
                    let base = Float(100 * r + 10 * g + b)
                    #expect(cube.entry(r: r, g: g, b: b) == SIMD3(base, base + 1, base + 2) / 1023)
                }
            }
        }
        #expect(c.warnings.isEmpty)
    }

    @Test("without a mesh line the size comes from Mesh m k, and k is the output depth")
    func meshHeaderOnly() throws {
        let text = "3DMESH\nMesh 1 12\n\n# comment\n" + (0..<27).map { "  \($0) 0 4095" }.joined(separator: "\n")
            + "\nLUT8\ngamma 1.0"
        let c = try parse3DL(text)
        #expect(c.lut.cube?.size == 3)
        #expect(!c.hasMeshLine)
        #expect(c.hasMeshHeader)
        #expect(c.inputBits == nil)
        #expect(c.outputBits == 12)
        // Row 1 (blue = 1) holds code 1 in red.
        #expect(c.lut.cube?.entry(r: 0, g: 0, b: 1) == SIMD3(1.0 / 4095, 0, 1))
        #expect(c.warnings.isEmpty)
    }

    @Test("without Mesh k the output depth is inferred from the largest code: 10, 12 or 16 bits")
    func inferredDepth() throws {
        for (largest, bits) in [(1023, 10), (1024, 12), (4095, 12), (4096, 16), (65535, 16)] {
            var rows = positionalRows()
            rows[7] = "\(largest) 0 0"
            let c = try parse3DL((["0 1023"] + rows).joined(separator: "\n"))
            #expect(c.outputBits == bits, "largest code \(largest)")
            #expect(c.lut.cube?.entry(r: 1, g: 1, b: 1).x == Float(largest) / Float((1 << bits) - 1))
        }
    }

    @Test("a 16-bit input mesh gives 16 input bits")
    func sixteenBitMesh() throws {
        let c = try parse3DL((["0 65535 "] + positionalRows()).joined(separator: "\n"))
        #expect(c.inputBits == 16)
    }

    @Test("an unrecognised word line is ignored with a warning on its line")
    func unknownWord() throws {
        let c = try parse3DL((["0 1023", "Scale 2"] + positionalRows()).joined(separator: "\n"))
        #expect(c.warnings.map(\.line) == [2])
        #expect(c.lut.cube?.size == 2)
    }

    @Test("an uneven input mesh is read as even, with a warning")
    func unevenMesh() throws {
        let c = try parse3DL((["0 100 1023"] + (0..<27).map { _ in "5 5 5" }).joined(separator: "\n"))
        #expect(c.lut.cube?.size == 3)
        #expect(c.warnings.first?.message.contains("not an even ramp") == true)
        #expect(c.warnings.first?.line == 1)
    }

    @Test("a missing row is refused with the file, the expected and the found counts")
    func missingRow() throws {
        let e = try #require(parse3DLError((["0 1023"] + positionalRows().dropLast()).joined(separator: "\n")))
        #expect(e.file == "grade.3dl")
        #expect(e.line == 8)
        #expect(e.message.contains("expected 8 rows") && e.message.contains("found 7"))
    }

    @Test("a row of two numbers is refused, quoting it")
    func twoNumbers() throws {
        var rows = positionalRows()
        rows[2] = "10 11"
        let e = try #require(parse3DLError((["0 1023"] + rows).joined(separator: "\n")))
        #expect(e.description == "grade.3dl line 4: expected 3 numbers, found 2 (\"10 11\")")
    }

    @Test("a fraction where a code belongs is refused, quoting it")
    func fraction() throws {
        var rows = positionalRows()
        rows[1] = "0.5 1 2"
        let e = try #require(parse3DLError((["0 1023"] + rows).joined(separator: "\n")))
        #expect(e.line == 3)
        #expect(e.message.contains("\"0.5\""))
    }

    @Test("a row count that is no cube is refused when nothing gives the size")
    func notACube() throws {
        let e = try #require(parse3DLError(positionalRows().dropLast().joined(separator: "\n")))
        #expect(e.message.contains("7 rows") && e.message.contains("N³"))
    }

    @Test("an empty file is refused clearly")
    func empty() throws {
        let e = try #require(parse3DLError(""))
        #expect(e.message.contains("empty"))
        let comments = try #require(parse3DLError("# only a comment\n3DMESH\n"))
        #expect(comments.message.contains("no rows"))
    }

    @Test("a Mesh exponent beyond 256 points is refused")
    func meshTooLarge() throws {
        let e = try #require(parse3DLError("Mesh 8 12\n0 0 0\n"))
        #expect(e.line == 1)
        #expect(e.message.contains("257"))
    }
}

@Suite("ThreeDLFile writing")
struct ThreeDLFileWritingTests {
    @Test("serialize writes the Mesh header, a 10-bit mesh line and blue-fastest rows")
    func layout() throws {
        let cube = try ColorCube(size: 17) { $0 }
        let text = ThreeDLFile.serialize(cube, outputBits: 12)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "3DMESH")
        #expect(lines[1] == "Mesh 4 12")
        // The mesh line Flame writes, as in the corpus file ocio_discreet-3d-lut.3dl.
        #expect(lines[2] == "0 64 128 192 256 320 384 448 512 576 640 704 768 832 896 960 1023")
        #expect(lines[3] == "0 0 0")
        // Second row: blue = 1/16 → 4095/16 = 255.94 → 256.
        #expect(lines[4] == "0 0 256")
        #expect(lines.count == 3 + 4913 + 1)
    }

    @Test("serialize clamps values to 0…1 and rounds to the nearest code")
    func clampAndRound() throws {
        let cube = try ColorCube(size: 2, values: [-0.5, 0.5, 1.5] + [Float](repeating: 0, count: 21))
        let text = ThreeDLFile.serialize(cube, outputBits: 10)
        let lines = text.split(separator: "\n")
        #expect(lines[0...2] == ["3DMESH", "Mesh 0 10", "0 1023"])
        #expect(lines[3] == "0 512 1023")
    }

    @Test("serialize then parse gives the same integer codes at 10, 12 and 16 bits")
    func roundTrip() throws {
        let cube = try ColorCube(size: 5) { SIMD3($0.y * $0.y, 1 - $0.x, ($0.x + $0.z) / 2) }
        for bits in [10, 12, 16] {
            let text = ThreeDLFile.serialize(cube, outputBits: bits)
            let first = try ThreeDLFile.parse(Array(text.utf8), fileName: "a.3dl")
            #expect(first.outputBits == bits)
            let again = ThreeDLFile.serialize(try #require(first.lut.cube), outputBits: bits)
            #expect(again == text)
            let scale = Float((1 << bits) - 1)
            let back = try #require(first.lut.cube)
            for (a, b) in zip(cube.values, back.values) {
                #expect(abs(a * scale - b * scale) <= 0.5 + 1e-3)
            }
        }
    }

    @Test("write puts a complete file in place that reads back")
    func writeAndRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("3dl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("look.3dl").path
        let cube = try ColorCube(size: 3) { SIMD3($0.z, $0.y, $0.x) }
        try ThreeDLFile.write(cube, to: path, outputBits: 16)
        let back = try ThreeDLFile.read(path: path)
        #expect(back.outputBits == 16)
        #expect(back.inputBits == 10)
        let restored = try #require(back.lut.cube)
        for (a, b) in zip(cube.values, restored.values) { #expect(abs(a - b) <= 0.5 / 65535) }
    }
}
