import Foundation
import LookCore
import LookFormats
import Testing
@testable import Export

struct CoreImageTargetTests {
    @Test func pngIsATiledReferenceImage() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(), for: "core-image", to: "\(dir)/a.png", size: 16)
        let read = try CubeImage.read(path: "\(dir)/a.png", layout: .tiled)
        #expect(read.cube.size == 16 && read.depth == .sixteen)
        let expected = try Support.expected(size: 16)
        #expect(zip(read.cube.values, expected.values).allSatisfy { abs($0 - $1) <= 0.5 / 65535 + 1e-6 })
        #expect(throws: ExportError.self) {
            try Exporter.export(try Support.exportLook(), for: "core-image", to: "\(dir)/b.png", size: 17)
        }
        #expect(throws: ExportError.self) {
            try Exporter.export(try Support.exportLook(), for: "core-image", to: "\(dir)/c.png", size: 65)
        }
    }

    @Test func rawDataIsRGBAFloatRedFastest() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(), for: "core-image", to: "\(dir)/a.bin", size: 8)
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(dir)/a.bin")))
        #expect(data.count == 8 * 8 * 8 * 4 * 4)
        func float(_ i: Int) -> Float {
            Float(bitPattern: UInt32(data[4 * i]) | UInt32(data[4 * i + 1]) << 8 | UInt32(data[4 * i + 2]) << 16
                  | UInt32(data[4 * i + 3]) << 24)
        }
        let expected = try Support.expected(size: 8)
        // Entry (r 1, g 2, b 3) sits at r + 8·g + 64·b.
        let index = 1 + 8 * 2 + 64 * 3
        let e = expected.entry(r: 1, g: 2, b: 3)
        #expect(float(4 * index) == e.x && float(4 * index + 1) == e.y && float(4 * index + 2) == e.z)
        #expect(float(4 * index + 3) == 1)
    }
}
