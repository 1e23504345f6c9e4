import Foundation
import ImageIO
import LookStudioTestSupport
import Testing

/// ASC CDL files, their formula in float64 and the images the CDL acceptance tests apply them to.
enum CDLFixtures {
    struct Numbers {
        var slope: [Double], offset: [Double], power: [Double], saturation: Double
    }

    /// A grade that stays inside 0…1 before the clamps (offsets ≥ 0, slope + offset ≤ 1, saturation ≤ 1): no
    /// clamp bends the result between the cube's grid points.
    static let gentle = Numbers(slope: [0.9, 0.95, 0.8], offset: [0.06, 0.02, 0.12], power: [1.2, 0.9, 1.1],
                                saturation: 0.8)
    /// The grade branch's cross-check grade: clamps at 0 (red) and 1 (blue) inside the range, saturation 1.4.
    static let strong = Numbers(slope: [1.2, 0.9, 1.1], offset: [-0.05, 0.02, 0.1], power: [1.3, 0.8, 1.1],
                                saturation: 1.4)

    static func cc(_ n: Numbers, id: String) -> String {
        func triple(_ v: [Double]) -> String { v.map { "\($0)" }.joined(separator: " ") }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <ColorCorrection id="\(id)" xmlns="urn:ASC:CDL:v1.2">
                <SOPNode>
                    <Slope>\(triple(n.slope))</Slope>
                    <Offset>\(triple(n.offset))</Offset>
                    <Power>\(triple(n.power))</Power>
                </SOPNode>
                <SatNode>
                    <Saturation>\(n.saturation)</Saturation>
                </SatNode>
            </ColorCorrection>
            """
    }

    /// ASC CDL 1.2 (ASC CDL Specification v1.2, 2009): o = clamp01(v·slope + offset)^power, then
    /// Y + saturation·(o − Y) with Rec. 709 luma, clamped to 0…1.
    static func asc(_ n: Numbers, _ v: [Double]) -> [Double] {
        let o = (0..<3).map { pow(min(max(v[$0] * n.slope[$0] + n.offset[$0], 0), 1), n.power[$0]) }
        let luma = 0.2126 * o[0] + 0.7152 * o[1] + 0.0722 * o[2]
        return o.map { min(max(luma + n.saturation * ($0 - luma), 0), 1) }
    }

    /// A 256 × 24 8-bit RGB image: ramps of red, green, blue, grey, cyan, magenta, yellow and a red-to-blue cross
    /// ramp in rows 0–7, then the 16³ colours with every channel in steps of 17.
    static func writeRamp(to path: String) throws {
        var samples: [UInt8] = []
        let rows: [(Int) -> [Int]] = [
            { [$0, 0, 0] }, { [0, $0, 0] }, { [0, 0, $0] }, { [$0, $0, $0] }, { [0, $0, $0] }, { [$0, 0, $0] },
            { [$0, $0, 0] }, { [$0, 128, 255 - $0] },
        ]
        for row in rows { for x in 0..<256 { samples += row(x).map(UInt8.init) } }
        for b in 0..<16 { for g in 0..<16 { for r in 0..<16 { samples += [r, g, b].map { UInt8($0 * 17) } } } }
        let image = try PixelBuffer(width: 256, height: 24, channels: 3, samples: .eight(samples))
        try PNGImage.write(image, to: path, options: .data)
    }

    /// The 8-bit RGB samples of a PNG (a grey or alpha image is refused).
    static func rgb8(_ path: String) throws -> [UInt8] {
        let image = try PNGImage.read(path: path)
        guard case .eight(let samples) = image.samples, image.channels == 3 else {
            throw CLITestFailure("\(path) is not 8-bit RGB")
        }
        return samples
    }

    /// The two images every CDL test grades: a photo and the ramp, written into `dir`.
    static func inputs(in dir: String) throws -> [String] {
        try writeRamp(to: dir + "/ramp.png")
        return [CLI.packageRoot + "/samples/chelsea.png", dir + "/ramp.png"]
    }

    /// Imports `file` into the catalog with `options`; the look's GUID.
    static func importLook(_ file: String, _ options: [String] = [], catalog: [String]) throws -> String {
        let r = try CLI.run(["import", file] + options + catalog)
        guard r.status == 0 else { throw CLITestFailure("import \(file) failed: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct CLITestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite("import of ASC CDL files: the look renders the CDL")
struct CDLImportCommandTests {
    typealias F = CDLFixtures

    @Test("import grade.cc + apply --look: within 1 code of the ASC CDL 1.2 formula in float64 (photo and ramp)")
    func ascMatchesFormula() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        try F.cc(F.gentle, id: "gentle").write(toFile: dir + "/grade.cc", atomically: true, encoding: .utf8)
        let guid = try F.importLook(dir + "/grade.cc", catalog: catalog)
        for input in try F.inputs(in: dir) {
            let worst = try Self.ascError(guid, F.gentle, input: input, dir: dir, catalog: catalog)
            let name = URL(fileURLWithPath: input).lastPathComponent
            print(String(format: "cdl: asc look vs ASC CDL 1.2 in float64 on %@: max %.3f codes", name, worst))
            #expect(try F.rgb8(dir + "/asc.png") != F.rgb8(input))
            #expect(worst <= 1, "\(name): \(worst) codes")
        }
    }

    @Test("import --cdl-style no-clamp + apply --look: within 2 codes of OpenColorIO's ocioconvert --lut (photo, ramp)",
          arguments: ["gentle", "strong"])
    func noClampMatchesOCIO(grade: String) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let cc = dir + "/\(grade).cc"
        try F.cc(grade == "gentle" ? F.gentle : F.strong, id: grade).write(toFile: cc, atomically: true, encoding: .utf8)
        let guid = try F.importLook(cc, ["--cdl-style", "no-clamp"], catalog: catalog)
        for input in try F.inputs(in: dir) {
            let ours = dir + "/ours.png", ocio = dir + "/ocio.png"
            let r = try CLI.run(["apply", "--look", guid, input, ours] + catalog)
            try #require(r.status == 0, "\(r.stderr)")
            // ocioconvert reads the 8-bit PNG as floats (v/255), applies the .cc as OCIO's default CDL_NO_CLAMP and
            // writes 8 bits again, as its input was.
            let run = try CLI.run(command: "/usr/bin/env", ["ocioconvert", "--lut", cc, input, ocio])
            try #require(run.status == 0, "ocioconvert (opencolorio-tools) failed: \(run.stderr)")
            let a = try F.rgb8(ours), b = try F.rgb8(ocio)
            try #require(a.count == b.count)
            let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            let name = URL(fileURLWithPath: input).lastPathComponent
            print("cdl: \(grade) no-clamp look vs ocioconvert --lut on \(name): max \(worst) codes")
            #expect(worst <= 2, "\(name): \(worst) codes")
        }
    }

    /// Largest difference, in 8-bit codes, between `look` applied to `input` (written to `dir`/asc.png) and the asc
    /// formula of `numbers`.
    static func ascError(_ look: String, _ numbers: F.Numbers, input: String, dir: String, catalog: [String]) throws
        -> Double {
        let r = try CLI.run(["apply", "--look", look, input, dir + "/asc.png"] + catalog)
        guard r.status == 0 else { throw CLITestFailure("apply --look \(look) failed: \(r.stderr)") }
        let source = try F.rgb8(input), graded = try F.rgb8(dir + "/asc.png")
        var worst = 0.0
        for p in stride(from: 0, to: source.count, by: 3) {
            let expected = F.asc(numbers, (0..<3).map { Double(source[p + $0]) / 255 })
            for c in 0..<3 { worst = max(worst, abs(Double(graded[p + c]) - expected[c] * 255)) }
        }
        return worst
    }

    @Test("a grade that clamps inside 0…1: asc and no-clamp give two looks; asc within 2.5 codes at 64³, worse at 33³")
    func clampingGrade() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let cc = dir + "/strong.cc"
        try F.cc(F.strong, id: "strong").write(toFile: cc, atomically: true, encoding: .utf8)
        let asc = try F.importLook(cc, catalog: catalog)
        let free = try F.importLook(cc, ["--cdl-style", "no-clamp"], catalog: catalog)
        let small = try F.importLook(cc, ["--size", "33", "--name", "strong 33"], catalog: catalog)
        #expect(Set([asc, free, small]).count == 3, "three cubes, three looks")
        let ramp = try F.inputs(in: dir)[1]
        // Clamps inside 0…1 bend the grade between grid points, where a cube interpolates a straight line.
        let at64 = try Self.ascError(asc, F.strong, input: ramp, dir: dir, catalog: catalog)
        let at33 = try Self.ascError(small, F.strong, input: ramp, dir: dir, catalog: catalog)
        print(String(format: "cdl: strong asc look (clamps inside 0…1) vs formula on the ramp: max %.3f codes at "
                     + "64³, %.3f at 33³", at64, at33))
        #expect(at64 <= 2.5)
        #expect(at33 > at64, "the default size 64 is the more accurate")
    }
}
