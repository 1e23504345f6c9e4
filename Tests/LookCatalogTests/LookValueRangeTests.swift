import Foundation
import GRDB
import LookCore
import LookFormats
import Testing
@testable import LookCatalog

/// Looks whose values reach outside 0…1 (HDR and log-to-display LUTs) are stored over their own range, not clamped.
@Suite struct LookValueRangeTests {
    static let hlg = "\(TestSupport.packageRoot)/Tests/Fixtures/corpus/google_hlg_bt2020_to_bt709_33.cube"

    /// A 17³ cube reaching −0.25…2.0, with values inside 0…1 too.
    static func wideCube() throws -> ColorCube {
        try ColorCube(size: 17) { c in SIMD3(c.x * 2, c.y * 1.25 - 0.25, c.z) }
    }

    static func maxDifference(_ a: ColorCube, _ b: ColorCube) -> Float {
        zip(a.values, b.values).map { abs($0 - $1) }.max() ?? .infinity
    }

    static func storedRange(_ catalog: Catalog, table: String = "looks", key: String = "guid", _ guid: String) throws
        -> (Double, Double) {
        try DatabaseQueue(path: catalog.path).read { db in
            let row = try Row.fetchOne(db, sql: "SELECT value_min, value_max FROM \(table) WHERE \(key) = ?",
                                       arguments: [guid])
            return (row?["value_min"] ?? .nan, row?["value_max"] ?? .nan)
        }
    }

    @Test func anHLGLookKeepsItsValuesBeyondOne() throws {
        let file = try LookFile.read(path: Self.hlg, layout: nil).cube
        try #require(file.valueRange.upperBound > 1.6)
        let catalog = try TestSupport.newCatalog()
        let record = try catalog.addLook(NewLook(cube: file, name: "HLG", sourceFormat: "cube")).record
        let stored = try catalog.cube(guid: record.guid)
        #expect(Self.maxDifference(stored, file) <= 1e-4)
        #expect(stored.valueRange.upperBound > 1.6)
        let (lower, upper) = try Self.storedRange(catalog, record.guid)
        #expect(lower == 0 && upper == Double(file.valueRange.upperBound))
        #expect(try catalog.verify().problems.isEmpty)
    }

    @Test func theHashIsOfTheValuesTheCatalogHandsBack() throws {
        for cube in [try Self.wideCube(), try LookFile.read(path: Self.hlg, layout: nil).cube] {
            let encoded = try LookBlob.encode(cube)
            #expect(!encoded.range.isUnit)
            let decoded = try LookBlob.decode(encoded.png, guid: "X", layout: encoded.layout, range: encoded.range)
            #expect(LookBlob.contentHash(decoded) == encoded.hash)
            #expect(Self.maxDifference(decoded, cube) <= Float(encoded.range.step / 2) + 1e-6)
            // What composing quantises to is what storing gives, so the two never disagree on a hash.
            #expect(LookBlob.contentHash(try cube.quantizedTo16Bit()) == encoded.hash)
            // The same codes over 0…1 are other values: the range is inside the hash.
            let unit = try LookBlob.decode(encoded.png, guid: "X", layout: encoded.layout)
            #expect(LookBlob.contentHash(unit) != encoded.hash)
        }
    }

    @Test func aCubeWithinZeroToOneIsStoredAsBefore() throws {
        let cube = try TestSupport.cube(size: 16, seed: 5)
        let encoded = try LookBlob.encode(cube)
        #expect(encoded.range == .unit)
        #expect(encoded.hash == LookBlob.storedHash(cube))
        let catalog = try TestSupport.newCatalog()
        let record = try catalog.addLook(NewLook(cube: cube, name: "Plain", sourceFormat: "cube")).record
        #expect(try Self.storedRange(catalog, record.guid) == (0, 1))
    }

    @Test func olderVersionsKeepTheirRange() throws {
        let catalog = try TestSupport.newCatalog()
        let wide = try Self.wideCube()
        let record = try catalog.addLook(NewLook(cube: wide, name: "Wide", sourceFormat: "cube")).record
        _ = try catalog.saveVersion(guid: record.guid, NewLook(cube: try TestSupport.cube(seed: 3), name: "x",
                                                               sourceFormat: "cube"))
        let first = try catalog.cube(try catalog.resolveLook("Wide@1"))
        #expect(Self.maxDifference(first, wide) <= 1e-4)
        #expect(try Self.storedRange(catalog, record.guid) == (0, 1))
        let older = try DatabaseQueue(path: catalog.path).read { db in
            try Row.fetchOne(db, sql: "SELECT value_min, value_max FROM look_versions WHERE look_guid = ?",
                             arguments: [record.guid])
        }
        #expect(older?["value_min"] == -0.25 && older?["value_max"] == 2.0)
        #expect(try catalog.verify().problems.isEmpty)
    }

    @Test func recoveryCopiesTheRangeWithTheBlob() throws {
        let catalog = try TestSupport.newCatalog()
        let wide = try Self.wideCube()
        let record = try catalog.addLook(NewLook(cube: wide, name: "Wide", sourceFormat: "cube")).record
        let target = "\(try TestSupport.tempDir())/recovered.sqlite"
        let report = try Catalog.recover(from: catalog.path, to: target, seedDirectory: TestSupport.packageRoot,
                                         environment: [:])
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        let recovered = try Catalog(path: target, seedDirectory: TestSupport.packageRoot, environment: [:])
        #expect(Self.maxDifference(try recovered.cube(guid: record.guid), wide) <= 1e-4)
        #expect(try recovered.verify().problems.isEmpty)
    }

    @Test func aRecordedRangeThatNoLongerFitsTheBlobIsFoundByVerify() throws {
        let catalog = try TestSupport.newCatalog()
        let record = try catalog.addLook(NewLook(cube: try Self.wideCube(), name: "Wide", sourceFormat: "cube")).record
        try DatabaseQueue(path: catalog.path).write { db in
            // The column checks keep 0 and 1 inside the range; an empty one can still be written.
            try db.execute(sql: "UPDATE looks SET value_min = 0, value_max = 1 WHERE guid = ?",
                           arguments: [record.guid])
        }
        let problems = try Catalog(path: catalog.path, seedDirectory: TestSupport.packageRoot, environment: [:])
            .verify().problems
        #expect(problems.contains { $0.guid == record.guid && $0.message.contains("content hash") })
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: catalog.path).write { db in
                try db.execute(sql: "UPDATE looks SET value_max = 0.5 WHERE guid = ?", arguments: [record.guid])
            }
        }
    }
}
