import Foundation
import LookCore
import Testing
@testable import LookCatalog

struct LookBlobTests {
    @Test func squareSizesAreTiledOthersStrip() {
        for n in [4, 9, 16, 25, 36, 49, 64] { #expect(LookBlob.layout(forSize: n) == .tiled) }
        for n in [2, 17, 33, 65] { #expect(LookBlob.layout(forSize: n) == .strip) }
    }

    @Test func hashIsSHA256OfLittleEndianFloats() throws {
        let cube = try ColorCube.identity(size: 2)
        var bytes: [UInt8] = []
        for v in cube.values {
            let bits = v.bitPattern
            bytes += [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
        }
        #expect(LookBlob.contentHash(cube) == SHA256.hex(bytes))
        #expect(LookBlob.contentHash(cube) != LookBlob.contentHash(try TestSupport.cube(size: 2, seed: 1)))
    }

    @Test func encodedBlobIs16BitAndDecodesToItsHash() throws {
        let cube = try TestSupport.cube(size: 16, seed: 9)
        let encoded = try LookBlob.encode(cube)
        #expect(encoded.layout == "tiled")
        let decoded = try LookBlob.decode(encoded.png, guid: "X", layout: encoded.layout)
        #expect(LookBlob.contentHash(decoded) == encoded.hash)
        for (a, b) in zip(decoded.values, cube.values) { #expect(abs(a - b) <= 0.5 / 65535 + 1e-7) }
    }

    @Test func garbageBlobIsACorruptLookError() {
        #expect(throws: CatalogError.self) { _ = try LookBlob.decode([1, 2, 3], guid: "G", layout: "tiled") }
        #expect(throws: CatalogError.self) { _ = try LookBlob.decode([1, 2, 3], guid: "G", layout: "zigzag") }
    }
}
