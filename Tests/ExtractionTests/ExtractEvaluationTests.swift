import Extraction
import Foundation
import LookBench
import LookCore
import Testing

/// The evaluation's damaged after images are what docs/EXTRACT.md says they are.
@Suite struct ExtractEvaluationTests {
    @Test("the noise variant adds zero-mean Gaussian noise of 4 codes, the same on every run")
    func noiseVariantHasItsStatedSize() throws {
        let (w, h) = (256, 128)
        let grey = try PairImage(width: w, height: h, rgb: [Float](repeating: 128 / 255, count: 3 * w * h))
        let identity = try ColorCube.identity(size: 17)
        let scratch = NSTemporaryDirectory()
        let noisy = try ExtractEvaluation.after(grey, look: identity, variant: .noise, scratch: scratch)
        let again = try ExtractEvaluation.after(grey, look: identity, variant: .noise, scratch: scratch)
        #expect(noisy.rgb == again.rgb)
        let codes = noisy.rgb.map { (Double($0) * 255).rounded() - 128 }
        let mean = codes.reduce(0, +) / Double(codes.count)
        let sd = (codes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(codes.count)).squareRoot()
        #expect(abs(mean) < 0.05, "mean \(mean) codes")
        // Rounding to 8-bit codes adds 1/12 of a code² to the variance.
        #expect(abs(sd - (16 + 1.0 / 12).squareRoot()) < 0.1, "standard deviation \(sd) codes")
        // Gaussian, not uniform: codes 9 or more away are those beyond 8.5 = 2.125 σ, 3.4 % of them.
        let tails = Double(codes.filter { abs($0) >= 9 }.count) / Double(codes.count)
        #expect(tails > 0.028 && tails < 0.04, "share 9 or more codes away \(tails)")
        let clean = try ExtractEvaluation.after(grey, look: identity, variant: .clean, scratch: scratch)
        #expect(clean.rgb == grey.rgb)
    }

    @Test("the true look's colours are clamped to 0…1 as a written file's are, so a look reaching below 0 is judged on what it shows")
    func truthIsClampedLikeAWrittenImage() throws {
        // Contrast around mid-grey that sends the shadows below 0 (kdenlive's TEAL_ORANGE reaches -0.09).
        let look = try ColorCube(size: 17) { ($0 - 0.5) * 1.6 + 0.5 }
        let photo = try ExtractionFixtures.photo("coffee", width: 96)
        let cases = try ExtractEvaluation.run(looks: [("contrast", look)], photos: [("coffee", photo)],
                                              variants: [.clean])
        #expect(cases.count == 1)
        // The fit reproduces the clipped after image; against unclamped truth its shadows would be far off.
        #expect(cases[0].mean < 0.3, "own-photo mean \(cases[0].mean) ΔE00")
    }

    @Test("--dump writes each fitted cube, named in the manifest with its size, as the fit that was measured")
    func dumpHoldsTheFittedCube() throws {
        let look = try ColorCube(size: 17) { SIMD3($0.x * 0.9 + 0.05, $0.y, $0.z * 0.8) }
        let photo = try ExtractionFixtures.photo("coffee", width: 96)
        let dir = NSTemporaryDirectory() + "dump-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try ExtractEvaluation.run(looks: [("warm", look)], photos: [("coffee", photo)], variants: [.clean],
                                      dump: dir)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))
        let manifest = try JSONDecoder().decode([[String: String]].self, from: data)
        let entry = try #require(manifest.first { $0["fit"] != nil })
        #expect(entry["fit_size"] == "33")
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + (entry["fit"] ?? "")))
        let values = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let after = try ExtractEvaluation.after(photo, look: look, variant: .clean, scratch: dir)
        let refit = try LookExtractor.fit(pairs: [(photo, after)], names: ["coffee"])
        #expect(values == refit.cube.values)
    }
}
