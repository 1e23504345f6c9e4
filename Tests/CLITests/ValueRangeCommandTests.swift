import Foundation
import ImageIO
import LookCore
import LookFormats
import LookStudioTestSupport
import Testing

/// Looks with values outside 0…1: kept on import, given back by export, clamped by apply only in the output image.
@Suite("looks beyond 0…1")
struct ValueRangeCommandTests {
    static let hlg = CLI.fixtures + "/corpus/google_hlg_bt2020_to_bt709_33.cube"

    static func importedGUID(_ file: String, catalog: [String]) throws -> (guid: String, stderr: String) {
        let r = try CLI.run(["import", file] + catalog)
        guard r.status == 0 else { throw CLITestFailure("import \(file) failed: \(r.stderr)") }
        return (r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), r.stderr)
    }

    static func maxDifference(_ a: ColorCube, _ b: ColorCube) -> Float {
        zip(a.values, b.values).map { abs($0 - $1) }.max() ?? .infinity
    }

    @Test("the HLG → Rec. 709 .cube (values up to 1.687) round-trips import → export within 1e-4, without a clamp warning")
    func hlgRoundTrips() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let (guid, stderr) = try Self.importedGUID(Self.hlg, catalog: catalog)
        #expect(!stderr.contains("clamped"), "\(stderr)")
        let out = dir + "/back.cube"
        let export = try CLI.run(["export", guid, "-o", out] + catalog)
        try #require(export.status == 0, "\(export.stderr)")
        let original = try LUTFormat.readCube(path: Self.hlg, layout: nil, bakeSize: .atLeast(2)).cube
        let back = try LUTFormat.readCube(path: out, layout: nil, bakeSize: .atLeast(2)).cube
        try #require(back.size == original.size)
        let worst = Self.maxDifference(back, original)
        print(String(format: "value range: HLG .cube import → export, max difference %.2e", worst))
        #expect(worst <= 1e-4)
        #expect(back.valueRange.upperBound > 1.68)
    }

    @Test("a look doubling its input (values up to 2.0) applies as the doubling clamped at the output, not a clamped cube")
    func applyClampsOnlyTheOutput() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        var text = "LUT_3D_SIZE 4\n"
        for b in 0..<4 { for g in 0..<4 { for r in 0..<4 {
            text += "\(Double(r) * 2 / 3) \(Double(g) * 2 / 3) \(Double(b) * 2 / 3)\n"
        } } }
        try text.write(toFile: dir + "/double.cube", atomically: true, encoding: .utf8)
        let (guid, _) = try Self.importedGUID(dir + "/double.cube", catalog: catalog)
        // Greys 32, 64, 96 double exactly; 128 doubles past white. A cube clamped at 1 before interpolating gave
        // 213 for 128 (between the nodes 2/3 and 1 of a 4³ grid).
        let greys: [UInt8] = [32, 64, 96, 128, 200]
        let samples = greys.flatMap { [$0, $0, $0] }
        let image = try PixelBuffer(width: greys.count, height: 1, channels: 3, samples: .eight(samples))
        try PNGImage.write(image, to: dir + "/in.png")
        let r = try CLI.run(["apply", "--look", guid, dir + "/in.png", dir + "/out.png"] + catalog)
        try #require(r.status == 0, "\(r.stderr)")
        let out = try ImageFormat.readImage(path: dir + "/out.png").pixels
        guard case .eight(let got) = out.samples else { Issue.record("not 8-bit"); return }
        let reds = stride(from: 0, to: got.count, by: 3).map { Int(got[$0]) }
        #expect(reds == [64, 128, 192, 255, 255], "\(reds)")
    }

    @Test("export --for resolve and clf keep values beyond 0…1; premiere clamps them and says so")
    func exportTargets() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = ["--catalog", dir + "/c.sqlite"]
        let (guid, _) = try Self.importedGUID(Self.hlg, catalog: catalog)
        let resolve = try CLI.run(["export", guid, "--for", "resolve", "-o", dir + "/r.cube"] + catalog)
        try #require(resolve.status == 0, "\(resolve.stderr)")
        #expect(!resolve.stderr.contains("clamped"), "\(resolve.stderr)")
        let kept = try LUTFormat.readCube(path: dir + "/r.cube", layout: nil, bakeSize: .atLeast(2)).cube
        #expect(kept.valueRange.upperBound > 1.68)
        let clf = try CLI.run(["export", guid, "--for", "clf", "-o", dir + "/l.clf"] + catalog)
        try #require(clf.status == 0, "\(clf.stderr)")
        let clfCube = try LUTFormat.readCube(path: dir + "/l.clf", layout: nil, bakeSize: .atLeast(2)).cube
        #expect(clfCube.valueRange.upperBound > 1.68)
        let premiere = try CLI.run(["export", guid, "--for", "premiere", "-o", dir + "/p.cube"] + catalog)
        try #require(premiere.status == 0, "\(premiere.stderr)")
        #expect(premiere.stderr.contains("values outside 0…1 were clamped"), "\(premiere.stderr)")
        let clamped = try LUTFormat.readCube(path: dir + "/p.cube", layout: nil, bakeSize: .atLeast(2)).cube
        #expect(clamped.valueRange.upperBound <= 1)
    }
}
