import Foundation
import ImageIO
import LookCore
import Testing
@testable import LookFormats

/// `LUTFormat.write` of an identity lattice (issue 56 item 7: an empty recipe of size 256 must not hold its cube).
@Suite struct LUTFormatTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "lutformat-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// CLF text with its `id` attributes (a fresh UUID each write) blanked.
    static func withoutIDs(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).replacingOccurrences(of: #"id="[^"]*""#, with: "id=\"\"",
                                                                   options: .regularExpression)
    }

    @Test("an identity lattice writes, value by value, the bytes its cube writes",
          arguments: [("cube", 4, nil), ("cube", 33, nil), ("png", 16, 16), ("png", 16, 8), ("png", 5, 16),
                      ("3dl", 17, nil), ("clf", 5, nil)] as [(String, Int, Int?)])
    func identityWritesItsCubesBytes(ext: String, size: Int, bits: Int?) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for quantized in [false, true] {
            let values = IdentityValues(size: size, quantizedTo16Bit: quantized)
            let cube = try CubeLattice.identity(values).materialized()
            let options = LUTFormat.WriteOptions(bits: bits)
            let viaCube = dir + "/cube.\(ext)", viaLattice = dir + "/lattice.\(ext)"
            try LUTFormat.write(LUT(cube: cube, title: "Empty"), to: viaCube, options: options)
            try LUTFormat.write(.identity(values), title: "Empty", to: viaLattice, options: options)
            let expected = try Self.bytes(viaCube), written = try Self.bytes(viaLattice)
            if ext == "clf" {
                #expect(Self.withoutIDs(written) == Self.withoutIDs(expected), "quantised \(quantized)")
            } else {
                #expect(written == expected, "\(ext) \(size) bits \(bits ?? 0) quantised \(quantized)")
            }
        }
    }

    @Test("a cube PNG written in bands holds the pixels of the image rendered whole")
    func pngBandsAreTheWholeImage() throws {
        // 121 = 11²: tiled 1331×1331, written in bands of 787 rows, the last one short. The files' bytes may differ:
        // the encoder's parallel deflate blocks end where the rows handed to it end.
        let cube = try ColorCube(size: 121) { SIMD3($0.z, $0.x * $0.y, 1 - $0.y) }
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CubeImage.write(cube, to: dir + "/bands.png", layout: .tiled, depth: .sixteen)
        let image = try CubeImage.render(cube, layout: .tiled, depth: .sixteen)
        try PNGImage.write(image, to: dir + "/whole.png", options: .data)
        let bands = try PNGImage.read(path: dir + "/bands.png"), whole = try PNGImage.read(path: dir + "/whole.png")
        #expect(bands.samples == whole.samples)
        #expect(try CubeImage.read(path: dir + "/bands.png", layout: .tiled).cube
                == CubeImage.decode(image, layout: .tiled, fileName: "whole"))
    }
}
