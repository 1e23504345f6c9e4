import Foundation
import LookCore
import Testing
@testable import Export

struct PanasonicVLTTargetTests {
    /// A reader written from the published layout: two `#` header lines, `LUT_3D_SIZE N`, a blank line, then N³
    /// rows of three 12-bit codes, red fastest.
    static func parse(_ text: String) throws -> ColorCube {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "# panasonic vlt file version 1.0")
        #expect(lines[1] == "# source vlt file \"\"")
        let size = try #require(Int(lines[2].split(separator: " ")[1]))
        #expect(lines[2].hasPrefix("LUT_3D_SIZE ") && lines[3].isEmpty)
        let rows = lines[4...].filter { !$0.isEmpty }
        #expect(rows.count == size * size * size)
        var values: [Float] = []
        for row in rows {
            let codes = row.split(separator: " ").compactMap { Int($0) }
            #expect(codes.count == 3 && codes.allSatisfy { (0...4095).contains($0) })
            values += codes.map { Float($0) / 4095 }
        }
        return try ColorCube(size: size, values: values)
    }

    @Test func vltHolds17CubedTwelveBitCodesWithinOneCode() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(), for: "panasonic", to: "\(dir)/a.vlt")
        let text = try String(contentsOfFile: "\(dir)/a.vlt", encoding: .utf8)
        #expect(!text.contains("\r"))
        let cube = try Self.parse(text)
        #expect(cube.size == 17)
        let expected = try Support.expected(size: 17)
        let worst = zip(cube.values, expected.values).map { abs($0 - $1) * 4095 }.max() ?? 99
        #expect(worst <= 1)
    }

    @Test func otherSizesAreRefused() throws {
        #expect(throws: ExportError.self) {
            try Exporter.export(try Support.exportLook(), for: "panasonic", to: "/nonexistent/a.vlt", size: 33)
        }
    }
}
