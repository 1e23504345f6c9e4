import ColorManagement
import Foundation
import LookFormats
import Testing
@testable import Export

@Suite("the cdl target: a CDL look's numbers as a .cc")
struct CDLTargetTests {
    static let correction = CDLCorrection(id: "shot_020", slope: SIMD3(1.2, 0.9, 1.1), offset: SIMD3(-0.05, 0.02, 0.1),
                                          power: SIMD3(1.3, 0.8, 1.1), saturation: 1.4, descriptions: ["warm"])

    static func cdlLook(strength: Float = 1, space: ColorProfile = ColorProfile(.sRGB)) throws -> ExportLook {
        var look = try Support.exportLook(strength: strength, space: space)
        look.cdl = correction
        return look
    }

    @Test("writes the look's correction as a .cc that reads back as the same Floats, id and description")
    func writesTheCorrection() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try Exporter.export(try Self.cdlLook(), for: "cdl", to: dir + "/grade.cc")
        #expect(result.files == [dir + "/grade.cc"] && result.warnings.isEmpty)
        let back = try #require(try CDLFile.read(path: dir + "/grade.cc").corrections.first)
        #expect(back.slope == Self.correction.slope && back.offset == Self.correction.offset)
        #expect(back.power == Self.correction.power && back.saturation == Self.correction.saturation)
        #expect(back.id == "shot_020" && back.descriptions == ["warm"] && back.inputDescription == nil)
    }

    @Test("a look without a correction, a strength other than 100 % and any size are refused")
    func refusals() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: ExportError(target: "cdl", "look \"Test Look\" is a table, not an ASC CDL: a .cc carries "
                                    + "only slope, offset, power and saturation; export it for resolve (a .cube) "
                                    + "instead")) {
            try Exporter.export(try Support.exportLook(), for: "cdl", to: dir + "/a.cc")
        }
        #expect(throws: ExportError(target: "cdl", "strength 80 %: a CDL has no strength, and a blend toward a CDL "
                                    + "is rarely one; export it at 100 %")) {
            try Exporter.export(try Self.cdlLook(strength: 0.8), for: "cdl", to: dir + "/b.cc")
        }
        #expect(throws: ExportError(target: "cdl", "a CDL holds no table, so it takes no size (33 was given)")) {
            try Exporter.export(try Self.cdlLook(), for: "cdl", to: dir + "/c.cc", size: 33)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing was written")
    }

    @Test("another working space than sRGB is named in InputDescription, with a warning")
    func workingSpace() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try Exporter.export(try Self.cdlLook(space: ColorProfile(.displayP3)), for: "cdl",
                                         to: dir + "/p3.cc")
        let back = try #require(try CDLFile.read(path: dir + "/p3.cc").corrections.first)
        #expect(back.inputDescription == ColorProfile(.displayP3).description)
        #expect(result.warnings.count == 1 && result.warnings[0].contains("InputDescription"))
    }

    @Test("the listing shows cdl without a table; every table target's default size is one it accepts")
    func registry() throws {
        #expect(Exporter.listing().contains { $0.hasPrefix("cdl ") && $0.contains("; .cc no table;") })
        for target in Exporter.targets where target.content == .table {
            #expect(throws: Never.self, "\(target.id)") { try target.checkSize(target.defaultSize) }
        }
        #expect(try Exporter.target("cdl").content == .cdl)
    }
}
