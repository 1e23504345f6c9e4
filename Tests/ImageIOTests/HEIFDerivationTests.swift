import Foundation
import Testing
@testable import ImageIO

@Suite struct HEIFDerivationTests {
    /// An ISO-BMFF box: 32-bit size, type, body.
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8) + body
    }

    /// An 'iinf' box (version 0) with one 'infe' per item: version 2 (16-bit ID) or 3 (32-bit ID), then the type.
    static func iinf(_ items: [(id: UInt32, type: String)], infeVersion: UInt8 = 2) -> [UInt8] {
        let entries = items.flatMap { item -> [UInt8] in
            let id: [UInt8] = infeVersion == 3 ? [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: item.id >> $0) }
                                               : [UInt8(item.id >> 8 & 0xFF), UInt8(item.id & 0xFF)]
            return box("infe", [infeVersion, 0, 0, 0] + id + [0, 0] + Array(item.type.utf8))
        }
        return box("iinf", [0, 0, 0, 0, UInt8(items.count >> 8), UInt8(items.count & 0xFF)] + entries)
    }

    /// A file whose 'meta' holds an 'iref' (version 0: 16-bit item IDs) with these references, after `info` (an
    /// 'iinf' box, or nothing).
    static func file(_ references: [(type: String, from: UInt16, to: [UInt16])], version: UInt8 = 0,
                     info: [UInt8] = []) -> [UInt8] {
        func id(_ v: UInt16) -> [UInt8] { version == 0 ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [0, 0, UInt8(v >> 8), UInt8(v & 0xFF)] }
        let children = references.flatMap { ref in
            box(ref.type, id(ref.from) + [UInt8(ref.to.count >> 8), UInt8(ref.to.count & 0xFF)] + ref.to.flatMap(id))
        }
        let meta = box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 25)) + info
            + box("iref", [version, 0, 0, 0] + children))
        return box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + meta
    }

    @Test("a grid of distinct tiles, each with an alpha plane, is one tree: no problem")
    func gridWithAlpha() {
        let graph = HEIFDerivation(bytes: Self.file([("dimg", 1, [2, 3, 4, 5]), ("auxl", 6, [2]), ("thmb", 7, [1])]))
        #expect(graph.inputs[1] == [2, 3, 4, 5])
        #expect(graph.inputs[2] == [6], "an alpha plane is decoded with the image it belongs to")
        #expect(graph.inputs[7] == nil, "a thumbnail is not decoded with its master")
        #expect(graph.problem(decoding: 1, maxDepth: 2, maxImages: 6) == nil)
    }

    @Test("32-bit item IDs (iref version 1) read the same")
    func version1() {
        let graph = HEIFDerivation(bytes: Self.file([("dimg", 1, [2, 3])], version: 1))
        #expect(graph.inputs[1] == [2, 3])
    }

    @Test("a grid among its own tiles, directly or through another item, is a loop")
    func loops() {
        #expect(HEIFDerivation(bytes: Self.file([("dimg", 2, [2])])).problem(decoding: 2, maxDepth: 8, maxImages: 100)
                == .loop(item: 2))
        let indirect = HEIFDerivation(bytes: Self.file([("dimg", 1, [3]), ("dimg", 3, [4]), ("auxl", 1, [4])]))
        #expect(indirect.problem(decoding: 1, maxDepth: 8, maxImages: 100) == .loop(item: 1))
    }

    @Test("nesting deeper than the limit and tile counts past the limit are refused")
    func limits() {
        let chain = HEIFDerivation(bytes: Self.file((1..<12).map { ("dimg", UInt16($0), [UInt16($0 + 1)]) }))
        #expect(chain.problem(decoding: 1, maxDepth: 8, maxImages: 100) == .tooDeep(limit: 8))
        #expect(chain.problem(decoding: 4, maxDepth: 8, maxImages: 100) == nil)
        // Item 1 reaches item 6 first in one step, then again through 2…5: the second path is too deep.
        let shortcut = HEIFDerivation(bytes: Self.file([("dimg", 1, [6, 2])] + (2..<11).map { ("dimg", UInt16($0), [UInt16($0 + 1)]) }))
        #expect(shortcut.problem(decoding: 1, maxDepth: 8, maxImages: 100) == .tooDeep(limit: 8))
        // Two levels of 20 references to one tile: 1 + 20 × (1 + 20) decodes from a few bytes.
        let fan = HEIFDerivation(bytes: Self.file([("dimg", 1, Array(repeating: 2, count: 20)),
                                                    ("dimg", 2, Array(repeating: 3, count: 20))]))
        #expect(fan.problem(decoding: 1, maxDepth: 8, maxImages: 421) == nil)
        #expect(fan.problem(decoding: 1, maxDepth: 8, maxImages: 420) == .tooManyImages(limit: 420))
    }

    @Test("a box cut short is ignored; references are read on past their own box's size, as libheif reads them")
    func truncated() {
        let bytes = Self.file([("dimg", 1, [2, 3, 4])])
        #expect(HEIFDerivation(bytes: bytes).inputs[1] == [2, 3, 4])
        for length in 0..<bytes.count {
            #expect(HEIFDerivation(bytes: Array(bytes.prefix(length))).inputs.isEmpty, "cut at \(length)")
        }
        func meta(_ references: [UInt8]) -> [UInt8] {
            Self.box("meta", [0, 0, 0, 0] + Self.box("iref", [0, 0, 0, 0] + references))
        }
        // A 'dimg' box declaring 9 MB, then two references where it says nine: what is there is read.
        let dimg = [0x00, 0x93, 0x00, 0x0E] + Array("dimg".utf8) + [0, 1, 0, 9, 0, 2, 0, 3]
        #expect(HEIFDerivation(bytes: meta(dimg)).inputs[1] == [2, 3])
        // A 'dimg' box declaring 8 bytes (its header alone) still has its IDs read after it, and the next box after them.
        let short = [0, 0, 0, 8] + Array("dimg".utf8) + [0, 1, 0, 1, 0, 1] + Self.box("auxl", [0, 5, 0, 1, 0, 1])
        #expect(HEIFDerivation(bytes: meta(short)).inputs[1] == [1, 5])
    }

    @Test("a derived image whose input is not an image item (Exif, an unknown type, no type) is refused")
    func inputsMustBeImages() {
        let tiles: [(id: UInt32, type: String)] = [(1, "grid"), (2, "hvc1"), (3, "hvc1"), (4, "Exif"), (5, "iden")]
        for infeVersion: UInt8 in [2, 3] {
            let good = HEIFDerivation(bytes: Self.file([("dimg", 1, [2, 3])], info: Self.iinf(tiles, infeVersion: infeVersion)))
            #expect(good.itemTypes?[1] == "grid" && good.itemTypes?[4] == "Exif", "infe version \(infeVersion)")
            #expect(good.problem(decoding: 1, maxDepth: 8, maxImages: 100) == nil)
            let exif = HEIFDerivation(bytes: Self.file([("dimg", 1, [2, 4])], info: Self.iinf(tiles, infeVersion: infeVersion)))
            #expect(exif.problem(decoding: 1, maxDepth: 8, maxImages: 100) == .notAnImage(input: 4, type: "Exif", item: 1))
        }
        // Through an identity image, and to an item 'iinf' does not list.
        let nested = HEIFDerivation(bytes: Self.file([("dimg", 5, [1]), ("dimg", 1, [2, 9])], info: Self.iinf(tiles)))
        #expect(nested.problem(decoding: 5, maxDepth: 8, maxImages: 100) == .notAnImage(input: 9, type: "", item: 1))
        // An alpha plane ('auxl') is checked by libheif itself; only derivation inputs are.
        let alpha = HEIFDerivation(bytes: Self.file([("auxl", 4, [2])], info: Self.iinf(tiles)))
        #expect(alpha.problem(decoding: 2, maxDepth: 8, maxImages: 100) == nil)
        // Without an 'iinf' box the types are unknown (libheif refuses such a file itself) and not checked.
        #expect(HEIFDerivation(bytes: Self.file([("dimg", 1, [2])])).itemTypes == nil)
        #expect(HEIFDerivation.describe(.notAnImage(input: 4, type: "Exif", item: 1))
                == "image item 1 is derived from item 4, which is not an image (its type is 'Exif'); the file is damaged")
    }

    @Test("the fuzz finding, an identity image over an item whose type was damaged, is refused, not an abort in libheif")
    func identityOverNonImageFixture() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/heif-iden-not-image.heic").standardizedFileURL.path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).map { $0 }
        #expect(HEIFDerivation(bytes: bytes).itemTypes == [1: "hvc0", 2: "iden"])
        #expect {
            _ = try HEIFImage.decode(bytes, name: "x.heic", maxPixels: 1 << 22)
        } throws: { "\($0)".contains("image item 2 is derived from item 1, which is not an image (its type is 'hvc0')") }
    }

    @Test("the fuzz findings, grids that are their own tile, are refused before libheif decodes them",
          arguments: ["heif-grid-loop.heic", "heif-grid-loop-long-box.heic"])
    func gridLoopFixture(name: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/\(name)").standardizedFileURL.path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).map { $0 }
        #expect(throws: ImageIOError.corruptImage(
            file: path, format: "HEIF",
            detail: HEIFDerivation.describe(.loop(item: 2)))) { _ = try ImageFormat.readImage(path: path) }
        #expect {
            _ = try HEIFImage.decode(bytes, name: "x.heic", maxPixels: 1 << 22)
        } throws: { "\($0)".contains("x.heic: truncated or corrupt HEIF (image item 2 is built from itself") }
    }
}
