import Testing
@testable import ColorManagement

@Suite("ColorProfile")
struct ColorProfileTests {
    @Test("named spaces carry their titles and read back from their own ICC bytes",
          arguments: ColorProfile.Named.allCases)
    func namedSpaces(space: ColorProfile.Named) throws {
        let profile = ColorProfile(space)
        #expect(profile.description == space.title)
        let reread = try ColorProfile(iccData: profile.data, source: "test")
        #expect(reread.description == space.title)
        #expect(reread.isEquivalent(to: profile))
    }

    @Test("Display P3 is not sRGB, but LittleCMS's own sRGB is")
    func equivalence() throws {
        #expect(!ColorProfile(.displayP3).isEquivalent(to: ColorProfile(.sRGB)))
        let built = try ColorProfile.rgb(white: SIMD2(0.3127, 0.3290), red: SIMD2(0.64, 0.33),
                                         green: SIMD2(0.30, 0.60), blue: SIMD2(0.15, 0.06), curve: .sRGB,
                                         description: "my sRGB")
        #expect(built.isEquivalent(to: ColorProfile(.sRGB)))
    }

    @Test("bytes that are not a profile are rejected naming their source")
    func rejectsGarbage() {
        #expect(throws: ColorManagementError.rejectedProfile(source: "x.icc", reason: "LittleCMS cannot parse it")) {
            _ = try ColorProfile(iccData: [UInt8](repeating: 7, count: 200), source: "x.icc")
        }
    }

    @Test("a profile that parses but has no red tone curve is rejected when it is opened, not at its first use")
    func rejectsMissingCurve() throws {
        var bytes = ColorProfile(.sRGB).data
        // The tag table follows the 128-byte header: a count, then 12-byte entries (signature, offset, size).
        let count = bytes[128...131].reduce(0) { $0 << 8 | Int($1) }
        let entry = try #require((0..<count).map { 132 + 12 * $0 }
            .first { bytes[$0..<$0 + 4].elementsEqual("rTRC".utf8) })
        bytes.replaceSubrange(entry..<entry + 4, with: Array("xTRC".utf8))
        #expect(throws: ColorManagementError.rejectedProfile(source: "no-curve.icc",
                                                             reason: "LittleCMS cannot build a transform from it")) {
            _ = try ColorProfile(iccData: bytes, source: "no-curve.icc")
        }
    }

    @Test("CIEDE2000 matches Sharma's published test pairs")
    func ciede2000() {
        let pairs: [(SIMD3<Double>, SIMD3<Double>, Double)] = [
            (SIMD3(50, 2.6772, -79.7751), SIMD3(50, 0, -82.7485), 2.0425),
            (SIMD3(50, -1.3802, -84.2814), SIMD3(50, 0, -82.7485), 1.0000),
            (SIMD3(50, 2.5, 0), SIMD3(73, 25, -18), 27.1492),
            (SIMD3(60.2574, -34.0099, 36.2677), SIMD3(60.4626, -34.1751, 39.4387), 1.2644),
        ]
        for (a, b, expected) in pairs {
            #expect(abs(ColorAccuracy.ciede2000(a, b) - expected) < 1e-4)
        }
    }
}
