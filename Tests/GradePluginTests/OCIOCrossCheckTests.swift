import Foundation
import LookStudioTestSupport
import Pixels
import Testing

@Suite("grade.cdl no-clamp against OpenColorIO (Debian's ocioconvert, opencolorio-tools)")
struct OCIOCrossCheckTests {
    static let correction = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ColorCorrection id="cross_check" xmlns="urn:ASC:CDL:v1.2">
            <SOPNode>
                <Slope>1.2 0.9 1.1</Slope>
                <Offset>-0.05 0.02 0.1</Offset>
                <Power>1.3 0.8 1.1</Power>
            </SOPNode>
            <SatNode>
                <Saturation>1.4</Saturation>
            </SatNode>
        </ColorCorrection>
        """

    /// A 33³ grid as a 16-bit PNG, 1089 × 33 (x = r + 33·g, y = b), and the values it holds.
    static func gridImage(at path: String) throws -> [Float] {
        var samples: [UInt16] = []
        for b in 0..<33 {
            for g in 0..<33 {
                for r in 0..<33 {
                    samples += [r, g, b].map { UInt16((Double($0) / 32 * 65535).rounded()) }
                }
            }
        }
        let image = try PixelBuffer(width: 33 * 33, height: 33, channels: 3, samples: .sixteen(samples))
        try PNGImage.write(image, to: path, options: .data)
        return samples.map { Float($0) / 65535 }
    }

    @Test("ocioconvert --lut FILE.cc and grade.cdl style no-clamp agree within 2 codes at 8 bits on a 33³ grid")
    func agreesWithOCIO() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cc = dir + "/cross_check.cc", source = dir + "/grid.png", graded = dir + "/graded.png"
        try Self.correction.write(toFile: cc, atomically: true, encoding: .utf8)
        let input = try Self.gridImage(at: source)
        let run = try CLI.run(command: "/usr/bin/env", ["ocioconvert", "--lut", cc, source, graded])
        try #require(run.status == 0, "ocioconvert failed: \(run.stderr)")
        guard case .sixteen(let samples) = try PNGImage.read(path: graded).samples else {
            Issue.record("ocioconvert wrote an 8-bit PNG from a 16-bit one")
            return
        }
        let ocio = samples.map { Double($0) / 65535 }
        let ours = try GradeLibrary.adjustment("grade.cdl").apply(input, GradeCases.cdl(style: 1))
        // A PNG holds 0…1 only: compare what both keep.
        let oursStored = ours.map { Reference.clamp01(Double($0)) }
        let difference = zip(oursStored, ocio).map { abs($0 - $1) }.max()!
        let formula = CDLTests.reference(GradeCases.cdl(style: 1), noClamp: true)
        let exact = Reference.map(input, formula).map(Reference.clamp01)
        let ocioFromExact = zip(exact, ocio).map { abs($0 - $1) }.max()!
        GradeCases.record("grade.cdl no-clamp vs ocioconvert (16-bit PNG)", difference)
        GradeCases.record("ocioconvert vs the exact no-clamp formula", ocioFromExact)
        #expect(difference <= 2.0 / 255)
    }
}
