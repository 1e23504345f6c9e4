import CCrypto
import ColorManagement
import CZlib
import Foundation
import LookCore
import Testing
@testable import Export

/// A decoder written from the DNG SDK's documented layout (dng_big_table.cpp), independent of the writer.
enum RGBTableDecoder {
    static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?`'|()[]{}@%$#")

    static func base85Decode(_ text: String) -> [UInt8] {
        var digit: [Character: UInt32] = [:]
        for (i, c) in alphabet.enumerated() { digit[c] = UInt32(i) }
        var out: [UInt8] = [], value: UInt32 = 0, phase: UInt32 = 0, scale: UInt32 = 1
        for c in text {
            guard let d = digit[c] else { continue }
            value = value &+ d &* scale
            phase += 1
            scale = scale &* 85
            if phase == 5 {
                out += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
                (value, phase, scale) = (0, 0, 1)
            }
        }
        if phase > 1 { out += (0..<(Int(phase) - 1)).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
        return out
    }

    static func inflate(_ block: [UInt8]) throws -> [UInt8] {
        let size = Int(block[0]) | Int(block[1]) << 8 | Int(block[2]) << 16 | Int(block[3]) << 24
        var out = [UInt8](repeating: 0, count: size)
        var length = uLongf(size)
        let status = block.withUnsafeBufferPointer { src in
            uncompress(&out, &length, src.baseAddress! + 4, uLong(block.count - 4))
        }
        #expect(status == Z_OK && Int(length) == size)
        return out
    }

    static func md5Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        var n: UInt32 = 0
        _ = EVP_Digest(bytes, bytes.count, &digest, &n, EVP_md5(), nil)
        return digest.map { String(format: "%02X", $0) }.joined()
    }

    struct Table { var cube: ColorCube; var primaries: UInt32; var gamma: UInt32; var minAmount, maxAmount: Double }

    /// Type 1, version 1, 3 dimensions, N divisions, N³ × RGB deltas (red slowest), primaries, gamma, gamut, amounts.
    static func parse(_ s: [UInt8]) throws -> Table {
        var at = 0
        func u32() -> UInt32 { defer { at += 4 }; return (0..<4).reduce(0) { $0 | UInt32(s[at + $1]) << (8 * $1) } }
        func u16() -> UInt16 { defer { at += 2 }; return UInt16(s[at]) | UInt16(s[at + 1]) << 8 }
        func f64() -> Double {
            defer { at += 8 }
            return Double(bitPattern: (0..<8).reduce(0) { $0 | UInt64(s[at + $1]) << (8 * $1) })
        }
        #expect(u32() == 1 && u32() == 1 && u32() == 3)
        let n = Int(u32())
        let nop = (0..<n).map { UInt16((UInt32($0) * 65535 + UInt32(n / 2)) / UInt32(n - 1)) }
        var values = [Float](repeating: 0, count: 3 * n * n * n)
        for r in 0..<n { for g in 0..<n { for b in 0..<n {
            let i = 3 * (r + n * (g + n * b))
            values[i] = Float(u16() &+ nop[r]) / 65535
            values[i + 1] = Float(u16() &+ nop[g]) / 65535
            values[i + 2] = Float(u16() &+ nop[b]) / 65535
        } } }
        let primaries = u32(), gamma = u32()
        #expect(u32() == 0)
        return Table(cube: try ColorCube(size: n, values: values), primaries: primaries, gamma: gamma,
                     minAmount: f64(), maxAmount: f64())
    }

    /// The fingerprint named by crs:RGBTable and the encoded text of crs:Table_<fingerprint>.
    static func tableAttributes(_ xmp: String) throws -> (name: String, text: String) {
        let name = try #require(xmp.firstMatch(of: /crs:RGBTable="([0-9A-F]{32})"/)).1
        let start = try #require(xmp.range(of: "crs:Table_\(name)=\""))
        let rest = xmp[start.upperBound...]
        let end = try #require(rest.firstIndex(of: "\""))
        return (String(name), String(rest[..<end]))
    }
}

struct LightroomTargetTests {
    @Test func tableRoundTripsWithinOneCodeAt32DivisionsAndIsNamedByItsMD5() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try Exporter.export(try Support.exportLook(), for: "lightroom", to: "\(dir)/a.xmp")
        #expect(result.warnings.contains { $0.contains("resampled to 32") })
        let xmp = try String(contentsOfFile: "\(dir)/a.xmp", encoding: .utf8)
        let (name, text) = try RGBTableDecoder.tableAttributes(xmp)
        let stream = try RGBTableDecoder.inflate(RGBTableDecoder.base85Decode(text))
        #expect(RGBTableDecoder.md5Hex(stream) == name)
        let table = try RGBTableDecoder.parse(stream)
        #expect(table.cube.size == 32 && table.primaries == 0 && table.gamma == 1)
        #expect(table.minAmount == 0 && table.maxAmount == 2)
        let expected = try Support.expected(size: 32)
        let worst = zip(table.cube.values, expected.values).map { abs($0 - $1) * 255 }.max() ?? 99
        #expect(worst <= 1)
        #expect(xmp.contains("crs:PresetType=\"Look\"") && xmp.contains(">Test Look<") && xmp.contains(">LookStudio<"))
    }

    @Test func strengthTravelsAsTheAmountSliderNotBaked() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try Exporter.export(try Support.exportLook(strength: 0.6), for: "lightroom", to: "\(dir)/a.xmp")
        #expect(result.warnings.contains { $0.contains("Amount slider to 60") })
        let xmp = try String(contentsOfFile: "\(dir)/a.xmp", encoding: .utf8)
        let table = try RGBTableDecoder.parse(RGBTableDecoder.inflate(RGBTableDecoder.base85Decode(
            try RGBTableDecoder.tableAttributes(xmp).text)))
        let full = try Support.expected(size: 32)
        #expect(zip(table.cube.values, full.values).allSatisfy { abs($0 - $1) <= 1 / 65535 })
    }

    @Test func displayP3WorkingSpaceIsDeclaredAsPrimaries() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let look = try Support.exportLook(space: ColorProfile(.displayP3))
        try Exporter.export(look, for: "lightroom", to: "\(dir)/a.xmp")
        let xmp = try String(contentsOfFile: "\(dir)/a.xmp", encoding: .utf8)
        let table = try RGBTableDecoder.parse(RGBTableDecoder.inflate(RGBTableDecoder.base85Decode(
            try RGBTableDecoder.tableAttributes(xmp).text)))
        #expect(table.primaries == 3 && table.gamma == 1)
    }

    @Test func exiftoolReadsTheCrsProperties() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Exporter.export(try Support.exportLook(), for: "lightroom", to: "\(dir)/a.xmp")
        let run = try Support.run("exiftool", ["-s", "-XMP-crs:all", "\(dir)/a.xmp"])
        #expect(run.status == 0, "\(run.stderr)")
        let name = try RGBTableDecoder.tableAttributes(try String(contentsOfFile: "\(dir)/a.xmp", encoding: .utf8)).name
        #expect(run.stdout.contains("PresetType") && run.stdout.contains("Look"))
        #expect(run.stdout.contains("RGBTable") && run.stdout.contains(name))
        #expect(run.stdout.contains("Test Look") && run.stdout.contains("LookStudio"))
    }
}
