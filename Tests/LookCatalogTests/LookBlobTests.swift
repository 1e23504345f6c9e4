import Foundation
import Hashing
import LookCore
import LookFormats
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

    /// The hash as it was defined before `storedHash`: encode the blob, decode it, hash the decoded Floats.
    static func roundTripHash(_ cube: ColorCube) throws -> String {
        let layout = LookBlob.layout(forSize: cube.size)
        let png = try CubeImage.encodePNG(cube.clampedToUnitRange().cube, layout: layout, depth: .sixteen)
        return LookBlob.contentHash(try CubeImage.decodePNG(png, name: "round trip", layout: layout))
    }

    @Test func storedHashEqualsRoundTripHashForShippedLooks() throws {
        let looks = try FileManager.default.contentsOfDirectory(atPath: "\(TestSupport.packageRoot)/Looks")
            .filter { $0.hasSuffix(".png") }
        try #require(looks.count >= 6)
        for file in looks {
            let cube = try LookFile.read(path: "\(TestSupport.packageRoot)/Looks/\(file)", layout: nil).cube
            let expected = try Self.roundTripHash(cube)
            #expect(LookBlob.storedHash(cube) == expected, "\(file)")
            #expect(try LookBlob.encode(cube).hash == expected, "\(file)")
        }
    }

    @Test func storedHashEqualsRoundTripHashForCorpusLooks() throws {
        let corpus = "\(TestSupport.packageRoot)/Tests/Fixtures/corpus"
        let files = ["google_hlg_bt2020_to_bt709_33.cube", "cubelutloader_resolve_17_crlf.cube",
                     "gpuimage_lookup_amatorka.png", "lutgen_nord_hald10.png"]
        for file in files {
            let cube = try LookFile.read(path: "\(corpus)/\(file)", layout: nil).cube
            #expect(LookBlob.storedHash(cube) == (try Self.roundTripHash(cube)), "\(file)")
        }
    }

    // Values on rounding boundaries (k + ½ codes, either side by one ulp), outside 0…1, and the ends, in a tiled
    // (16) and a strip (17) cube: wherever the Double rounding or the Float division could differ, the hash must not.
    @Test(arguments: [16, 17])
    func storedHashEqualsRoundTripHashOnEdgeValues(size: Int) throws {
        let count = 3 * size * size * size
        var values = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let half = (Float(i % 65535) + 0.5) / 65535
            switch i % 7 {
            case 0: values[i] = half
            case 1: values[i] = half.nextUp
            case 2: values[i] = half.nextDown
            case 3: values[i] = i % 2 == 0 ? -0.25 : 1.5
            case 4: values[i] = i % 2 == 0 ? 0 : 1
            case 5: values[i] = Float(i % 65536) / 65535
            default: values[i] = Float(i) / Float(count)
            }
        }
        let cube = try ColorCube(size: size, values: values)
        #expect(LookBlob.storedHash(cube) == (try Self.roundTripHash(cube)))
    }

    @Test func encodeRecordsStageTimes() throws {
        var timings = Catalog.AddLookTimings()
        _ = try LookBlob.encode(try TestSupport.cube(size: 16, seed: 3), timings: &timings)
        #expect(timings.encode > 0)
        #expect(timings.hash > 0)
        #expect(timings.insert == 0)
    }
}
