import Foundation
import LookCore
import LookFormats
import Testing

/// The real-world LUT files in `Tests/Fixtures/corpus` (provenance in its SOURCES.md).
enum TextCorpus {
    /// Tests/LookFormatsTests/<file>.swift → three levels up is the package root.
    static let directory: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/corpus").path

    static func path(_ name: String) -> String { directory + "/" + name }

    /// Every file with the extension; an unreadable fixture folder gives no files, which `corpusComplete` catches.
    static func files(withExtension ext: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix("." + ext) }.sorted()
    }

    static func cube(_ name: String) throws(LookFormatsError) -> CubeFileContents { try CubeFile.read(path: path(name)) }
    static func threeDL(_ name: String) throws(LookFormatsError) -> ThreeDLContents { try ThreeDLFile.read(path: path(name)) }

    static let truncated3DL = "ocio_error_truncated_file.3dl"
}

/// The sRGB EOTF as colour-science writes it (linear segment also below 0).
private func eotfSRGB(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
}

private func near(_ a: Float, _ b: Double, tolerance: Double = 1e-5) -> Bool {
    abs(Double(a) - b) <= tolerance * max(1, abs(b))
}

/// Within 1e-6, relative for |v| > 1: the corpus README's round-trip tolerance.
private func roundTripClose(_ a: [Float], _ b: [Float]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { x, y in abs(x - y) <= 1e-6 * max(1, abs(y)) }
}

/// Rows of exactly three whole numbers, counted with plain string splitting (independently of the parser).
private func countIntegerRows(_ path: String) throws -> Int {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).filter { line in
        let fields = line.split(whereSeparator: \.isWhitespace)
        return fields.count == 3 && fields.allSatisfy { $0.allSatisfy(\.isNumber) }
    }.count
}

@Suite("Text LUT corpus")
struct TextCorpusTests {
    @Test("every .cube file in the corpus imports", arguments: TextCorpus.files(withExtension: "cube"))
    func everyCubeImports(name: String) throws {
        let c = try TextCorpus.cube(name)
        #expect(c.lut.cube != nil || c.lut.shaper != nil)
        #expect(c.warnings.allSatisfy { $0.line.map { $0 >= 1 } ?? true })
    }

    @Test("every .3dl file imports, except the truncated one", arguments: TextCorpus.files(withExtension: "3dl"))
    func every3DLImports(name: String) throws {
        if name == TextCorpus.truncated3DL {
            #expect(throws: LookFormatsError.self) { try TextCorpus.threeDL(name) }
        } else {
            let c = try TextCorpus.threeDL(name)
            #expect(c.lut.cube != nil)
        }
    }

    @Test("the corpus holds the 19 .cube and 4 .3dl files SOURCES.md lists")
    func corpusComplete() {
        #expect(TextCorpus.files(withExtension: "cube").count == 19)
        #expect(TextCorpus.files(withExtension: "3dl").count == 4)
    }

    @Test("the truncated .3dl is refused naming the file, 4913 expected rows and the rows found")
    func truncated() throws {
        let found = try countIntegerRows(TextCorpus.path(TextCorpus.truncated3DL))
        do {
            _ = try TextCorpus.threeDL(TextCorpus.truncated3DL)
            Issue.record("the truncated file was accepted")
        } catch {
            #expect(error.file == TextCorpus.truncated3DL)
            #expect(error.description.contains(TextCorpus.truncated3DL))
            #expect(error.message.contains("expected 4913 rows"))
            #expect(error.message.contains("found \(found)"))
            #expect(error.line != nil)
        }
    }

    // MARK: .cube facts from SOURCES.md

    @Test("ocio_iridas_3d: 2³ with per-channel domain 0 1 0 … 2 2 1, outputs up to 2")
    func ocioIridas3D() throws {
        let c = try TextCorpus.cube("ocio_iridas_3d.cube")
        #expect(c.lut.cube?.size == 2)
        #expect(c.lut.title == "A test 3D-LUT.")
        #expect(c.lut.cubeInputMin == SIMD3(0, 1, 0))
        #expect(c.lut.cubeInputMax == SIMD3(2, 2, 1))
        #expect(c.lut.cube?.valueRange == 0...2)
        #expect(c.dialect == .adobe)
    }

    @Test("ocio_iridas_3d evaluates to its analytic meaning: r, 2(g − 1), 2b")
    func ocioIridas3DMeaning() throws {
        let lut = try TextCorpus.cube("ocio_iridas_3d.cube").lut
        // Corners map (r,g,b) grid → 2·(r,g,b); over DOMAIN 0…2, 1…2, 0…1 that is x_r, 2(x_g − 1), 2·x_b.
        for p in [SIMD3<Float>(1, 1.5, 0.5), SIMD3(0.2, 1.1, 0.9), SIMD3(1.7, 1.95, 0.05), SIMD3(0, 1, 0)] {
            let v = lut.evaluate(p)
            let want = SIMD3<Double>(Double(p.x), 2 * (Double(p.y) - 1), 2 * Double(p.z))
            #expect(near(v.x, want.x) && near(v.y, want.y) && near(v.z, want.z), "at \(p)")
        }
        // Inputs outside the domain clamp to its edge.
        #expect(lut.evaluate(SIMD3(3, 0, -1)) == SIMD3(2, 0, 0))
    }

    @Test("ocio_iridas_1d: 1D of 5 on per-channel domain −2 1 0 … 2 2 1, outputs −3…3.2")
    func ocioIridas1D() throws {
        let c = try TextCorpus.cube("ocio_iridas_1d.cube")
        let s = try #require(c.lut.shaper)
        #expect(c.lut.cube == nil)
        #expect(s.size == 5)
        #expect(s.inputMin == SIMD3(-2, 1, 0) && s.inputMax == SIMD3(2, 2, 1))
        #expect(s.values.min() == -3 && s.values.max() == 3.2)
        // The middle of each channel's domain is the third row (0.4 0.5 0.6).
        let v = c.lut.evaluate(SIMD3(0, 1.5, 0.5))
        #expect(near(v.x, 0.4) && near(v.y, 0.5) && near(v.z, 0.6))
    }

    @Test("ocio_resolve_1d3d: shaper 6 on −1…3 first, then 3³ on 0…4")
    func ocioResolve1D3D() throws {
        let c = try TextCorpus.cube("ocio_resolve_1d3d.cube")
        let s = try #require(c.lut.shaper)
        let cube = try #require(c.lut.cube)
        #expect(c.dialect == .resolve)
        #expect(s.size == 6 && cube.size == 3)
        #expect(s.inputMin == SIMD3(repeating: -1) && s.inputMax == SIMD3(repeating: 3))
        #expect(c.lut.cubeInputMin == .zero && c.lut.cubeInputMax == SIMD3(repeating: 4))
        #expect(Array(s.values.prefix(3)) == [3.3, 3.4, 3.5])
        #expect(Array(s.values.suffix(3)) == [0, 0, 0])
        #expect(cube.entry(r: 0, g: 0, b: 0) == SIMD3(repeating: 1.1))
        #expect(cube.entry(r: 2, g: 2, b: 2) == .zero)
    }

    @Test("colour_iridas_demo_1d_domain: DOMAIN_MAX 1 2 3 and a comment between rows 1 and 2")
    func colourDemoDomain() throws {
        let c = try TextCorpus.cube("colour_iridas_demo_1d_domain.cube")
        let s = try #require(c.lut.shaper)
        #expect(s.size == 3)
        #expect(s.inputMax == SIMD3(1, 2, 3))
        #expect(c.warnings.contains { $0.line == 6 && $0.message.contains("comment") })
        let v = c.lut.evaluate(SIMD3(0.5, 1, 1.5))
        #expect(v == SIMD3(0.5, 1, 1.5))
    }

    @Test("colour_resolve_demo_1d_inputrange: identity over 0…3 maps 1.5 to 1.5")
    func colourDemoInputRange() throws {
        let c = try TextCorpus.cube("colour_resolve_demo_1d_inputrange.cube")
        #expect(c.dialect == .resolve)
        #expect(c.lut.shaper?.inputMin == .zero && c.lut.shaper?.inputMax == SIMD3(repeating: 3))
        #expect(c.lut.evaluate(SIMD3(repeating: 1.5)) == SIMD3(repeating: 1.5))
        let v = c.lut.evaluate(SIMD3(0.75, 2.25, 3))
        #expect(near(v.x, 0.75) && near(v.y, 2.25) && near(v.z, 3))
    }

    @Test("colour_resolve_logc_video: shaper 16 + 4³, both ranges 0…1")
    func colourLogC() throws {
        let c = try TextCorpus.cube("colour_resolve_logc_video_1d16_3d4.cube")
        #expect(c.lut.shaper?.size == 16 && c.lut.cube?.size == 4)
        #expect(c.lut.shaper?.inputMin == .zero && c.lut.shaper?.inputMax == .one)
        #expect(c.lut.cubeInputMin == .zero && c.lut.cubeInputMax == .one)
        #expect(c.dialect == .resolve)
    }

    @Test("colour_resolve_3d_with_shaper: both ranges −0.1…3, shaper −0.351…1.648, cube −0.1…3")
    func colourWithShaper() throws {
        let c = try TextCorpus.cube("colour_resolve_3d_with_shaper.cube")
        let s = try #require(c.lut.shaper)
        let cube = try #require(c.lut.cube)
        #expect(s.size == 10 && cube.size == 3)
        #expect(s.inputMin == SIMD3(repeating: -0.1) && s.inputMax == SIMD3(repeating: 3))
        #expect(c.lut.cubeInputMin == SIMD3(repeating: -0.1) && c.lut.cubeInputMax == SIMD3(repeating: 3))
        #expect(near(s.values.min() ?? 0, -0.3511192) && abs(Double(s.values.max() ?? 0) - 1.648) < 1e-3)
        #expect(cube.valueRange == -0.1...3)
    }

    @Test("colour_iridas_eotf_srgb_3d8_domain: per-channel domain, first row = EOTF(−0.1)")
    func colourEOTFDomain() throws {
        let c = try TextCorpus.cube("colour_iridas_eotf_srgb_3d8_domain.cube")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 8)
        #expect(c.lut.cubeInputMin == SIMD3(-0.1, -0.15, -0.2))
        #expect(c.lut.cubeInputMax == SIMD3(1.5, 2, 3))
        #expect(near(cube.values[0], -0.0077399, tolerance: 1e-7))
        #expect(near(cube.values[0], eotfSRGB(-0.1)))
        #expect(near(cube.valueRange.upperBound, 12.83, tolerance: 1e-3))
    }

    @Test("colour_iridas_eotf_srgb_3d8_domain evaluates to the sRGB EOTF over its domain")
    func colourEOTFDomainMeaning() throws {
        let lut = try TextCorpus.cube("colour_iridas_eotf_srgb_3d8_domain.cube").lut
        let lo = SIMD3<Double>(-0.1, -0.15, -0.2), hi = SIMD3<Double>(1.5, 2, 3)
        for i in [0, 2, 5, 7] {
            let t = Double(i) / 7
            let x = lo + (hi - lo) * t
            let v = lut.evaluate(SIMD3<Float>(Float(x.x), Float(x.y), Float(x.z)))
            #expect(near(v.x, eotfSRGB(x.x)) && near(v.y, eotfSRGB(x.y)) && near(v.z, eotfSRGB(x.z)), "grid \(i)")
        }
    }

    @Test("colour_resolve_eotf_srgb_3d8_1drange: the stray LUT_1D_INPUT_RANGE −1…3 is the cube's range, with a warning")
    func colourEOTFStrayRange() throws {
        let c = try TextCorpus.cube("colour_resolve_eotf_srgb_3d8_1drange.cube")
        let cube = try #require(c.lut.cube)
        #expect(c.lut.shaper == nil)
        #expect(cube.size == 8)
        #expect(c.lut.cubeInputMin == SIMD3(repeating: -1) && c.lut.cubeInputMax == SIMD3(repeating: 3))
        let w = try #require(c.warnings.first { $0.message.contains("LUT_1D_INPUT_RANGE") })
        #expect(w.line == 5)
        // The data prove the range: first row EOTF(−1), last EOTF(3), and every grid point in between.
        #expect(near(cube.values[0], eotfSRGB(-1)))
        #expect(near(cube.values[cube.values.count - 1], eotfSRGB(3)))
        for i in 0..<8 {
            let x = -1 + 4 * Double(i) / 7
            let v = c.lut.evaluate(SIMD3(repeating: Float(x)))
            #expect(near(v.x, eotfSRGB(x)), "grid \(i)")
        }
    }

    @Test("colour_iridas_3d2_no_title: 2³, no title, .75-style numbers")
    func colourNoTitle() throws {
        let c = try TextCorpus.cube("colour_iridas_3d2_no_title.cube")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 2)
        #expect(c.lut.title == nil)
        #expect(cube.entry(r: 0, g: 1, b: 0) == SIMD3(0, 0.75, 0))
        #expect(cube.entry(r: 1, g: 0, b: 1) == SIMD3(1, 0.25, 1))
    }

    @Test("colour_iridas_aces_proxy_1d32: 1D of 32, outputs 0.000488…704.3, one out-of-range warning")
    func colourACESProxy() throws {
        let c = try TextCorpus.cube("colour_iridas_aces_proxy_1d32.cube")
        let s = try #require(c.lut.shaper)
        #expect(s.size == 32)
        #expect(s.values.max() == 704.3)
        #expect(s.values.min() == 0.0004883)
        #expect(c.warnings.filter { $0.message.contains("outside 0…1") }.count == 1)
    }

    @Test("colour_iridas_colour_correct_3d4: 4³ with negative outputs −0.0787…1.25")
    func colourCorrect() throws {
        let c = try TextCorpus.cube("colour_iridas_colour_correct_3d4.cube")
        let range = try #require(c.lut.cube?.valueRange)
        #expect(c.lut.cube?.size == 4)
        #expect(near(range.lowerBound, -0.0787, tolerance: 1e-3))
        #expect(near(range.upperBound, 1.25, tolerance: 1e-3))
        #expect(c.lut.title == "Generated by Foundry::LUT")
    }

    @Test("sharktacos_t-sony: tabbed 1D of 4096 on 0…1.4679964 with channels that differ")
    func sharktacosTSony() throws {
        let c = try TextCorpus.cube("sharktacos_t-sony_tone_1d4096_tabs.cube")
        let s = try #require(c.lut.shaper)
        #expect(s.size == 4096)
        #expect(s.inputMax == SIMD3(repeating: 1.4679964))
        #expect(Array(s.values[3..<6]) == [0.000404391846, 0.0004046018089, 0.0003926479448])
        #expect(Array(s.values.suffix(3)) == [1.467996359, 1.467996359, 1.467996359])
        #expect(c.dialect == .resolve)
    }

    @Test("sharktacos_spi-anim: 1D of 4096 on 0.000122…16, outputs 0…1")
    func sharktacosSPI() throws {
        let c = try TextCorpus.cube("sharktacos_spi-anim_lnf_to_lm16_1d4096.cube")
        let s = try #require(c.lut.shaper)
        #expect(s.size == 4096)
        #expect(s.inputMin == SIMD3(repeating: 0.000122) && s.inputMax == SIMD3(repeating: 16))
        #expect(s.values.min() == 0 && s.values.max() == 1)
        #expect(c.warnings.isEmpty)
    }

    @Test("CRLF files: cubelutloader 17³ and psd 32³ (outputs 0.000549…1.125)")
    func crlfFiles() throws {
        let a = try TextCorpus.cube("cubelutloader_resolve_17_crlf.cube")
        #expect(a.lut.cube?.size == 17)
        #expect(a.lut.title == "Generated by Resolve")
        #expect(a.lut.cube?.entry(r: 1, g: 0, b: 0) == SIMD3(0.0631723, 0, 0.00183108))
        #expect(a.warnings.isEmpty)
        let b = try TextCorpus.cube("sharktacos_psd_log2rec709_32_crlf.cube")
        #expect(b.lut.cube?.size == 32)
        #expect(b.lut.cube?.valueRange == 0.000549...1.125)
    }

    @Test("sharktacos_show_cin_resolve_33: e-notation values are read")
    func sharktacosShowCin() throws {
        let c = try TextCorpus.cube("sharktacos_show_cin_resolve_33.cube")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 33)
        #expect(cube.values.contains(9.15541e-05))
        #expect(near(cube.valueRange.upperBound, 0.903, tolerance: 1e-3))
    }

    // SOURCES.md says 13 018 rows; splitting the text (and awk) finds 13 017, so the count is taken from the text.
    @Test("google_hlg: bare 33³ header, outputs up to 1.687, unclipped rows above 1 kept")
    func googleHLG() throws {
        let c = try TextCorpus.cube("google_hlg_bt2020_to_bt709_33.cube")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 33)
        #expect(c.lut.title == nil)
        #expect(near(cube.valueRange.upperBound, 1.687, tolerance: 1e-3))
        let above = (0..<cube.entryCount).filter { i in
            cube.values[3 * i] > 1 || cube.values[3 * i + 1] > 1 || cube.values[3 * i + 2] > 1
        }.count
        let text = try String(contentsOfFile: TextCorpus.path("google_hlg_bt2020_to_bt709_33.cube"), encoding: .utf8)
        let rowsAbove = text.split(separator: "\n").dropFirst().filter { line in
            line.split(separator: " ").contains { (Double($0) ?? 0) > 1 }
        }.count
        #expect(rowsAbove > 13_000)
        #expect(above == rowsAbove)
        #expect(c.warnings.count == 1)
    }

    @Test("sharktacos_opendrt: 48³, no title, 8.68552e-05 in row 4")
    func sharktacosOpenDRT() throws {
        let c = try TextCorpus.cube("sharktacos_opendrt_rec1886_48.cube")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 48)
        #expect(c.lut.title == nil)
        #expect(cube.entry(r: 3, g: 0, b: 0) == SIMD3(0.0145448, 0.00113736, 8.68552e-05))
        #expect(cube.valueRange.lowerBound >= 0 && cube.valueRange.upperBound <= 1)
        #expect(c.warnings.isEmpty)
    }

    // MARK: .3dl facts

    @Test("ocio_discreet: 17³ from a 10-bit mesh line, 12-bit outputs from Mesh 4 12, blue fastest")
    func discreet() throws {
        let c = try TextCorpus.threeDL("ocio_discreet-3d-lut.3dl")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 17)
        #expect(c.hasMeshLine && c.hasMeshHeader)
        #expect(c.inputBits == 10 && c.outputBits == 12)
        #expect(cube.entry(r: 0, g: 0, b: 0) == SIMD3<Float>(repeating: 17) / 4095)
        #expect(cube.entry(r: 0, g: 0, b: 1) == SIMD3<Float>(0, 0, 68) / 4095)
        #expect(cube.entry(r: 16, g: 16, b: 16) == SIMD3<Float>(4092, 4094, 4094) / 4095)
        #expect(cube.valueRange.upperBound == 1)
    }

    @Test("ocio_crosstalk: 16-bit mesh line and 16-bit outputs (largest 42060)")
    func crosstalk() throws {
        let c = try TextCorpus.threeDL("ocio_crosstalk.3dl")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 17)
        #expect(c.inputBits == 16 && c.outputBits == 16)
        #expect(c.hasMeshLine && !c.hasMeshHeader)
        #expect(cube.entry(r: 0, g: 0, b: 1) == SIMD3<Float>(0, 0, 2374) / 65535)
        #expect(cube.entry(r: 16, g: 16, b: 16) == SIMD3<Float>(25616, 35585, 42060) / 65535)
        #expect(cube.valueRange.upperBound == Float(42060) / 65535)
    }

    @Test("ocio_lustre: 33³ from Mesh 5 12 alone, 12-bit outputs, trailing LUT8 / gamma and no final newline")
    func lustre() throws {
        let c = try TextCorpus.threeDL("ocio_lustre_33x33x33.3dl")
        let cube = try #require(c.lut.cube)
        #expect(cube.size == 33)
        #expect(!c.hasMeshLine && c.hasMeshHeader)
        #expect(c.inputBits == nil && c.outputBits == 12)
        #expect(cube.entry(r: 0, g: 0, b: 0) == SIMD3<Float>(2, 4, 4) / 4095)
        #expect(cube.entry(r: 0, g: 0, b: 1) == SIMD3<Float>(0, 30, 71) / 4095)
        #expect(cube.entry(r: 32, g: 32, b: 32) == SIMD3<Float>(3983, 3894, 3507) / 4095)
        #expect(c.warnings.isEmpty)
    }

    // MARK: Round trips

    @Test(".cube → serialize → parse keeps every entry within 1e-6, sizes, ranges and the shaper",
          arguments: TextCorpus.files(withExtension: "cube"))
    func cubeRoundTrip(name: String) throws {
        let original = try TextCorpus.cube(name)
        for text in [CubeFile.serialize(original.lut), CubeFile.serialize(original.lut, dialect: original.dialect)] {
            let back = try CubeFile.parse(Array(text.utf8), fileName: name)
            #expect(back.lut.title == original.lut.title)
            #expect(back.lut.cube?.size == original.lut.cube?.size)
            #expect(back.lut.shaper?.size == original.lut.shaper?.size)
            #expect(back.lut.cubeInputMin == original.lut.cubeInputMin)
            #expect(back.lut.cubeInputMax == original.lut.cubeInputMax)
            #expect(back.lut.shaper?.inputMin == original.lut.shaper?.inputMin)
            #expect(back.lut.shaper?.inputMax == original.lut.shaper?.inputMax)
            #expect(roundTripClose(back.lut.cube?.values ?? [], original.lut.cube?.values ?? []))
            #expect(roundTripClose(back.lut.shaper?.values ?? [], original.lut.shaper?.values ?? []))
        }
        #expect(try CubeFile.parse(Array(CubeFile.serialize(original.lut, dialect: original.dialect).utf8),
                                   fileName: name).dialect == original.dialect)
    }

    @Test(".3dl → serialize at the file's depth → parse gives identical integer codes",
          arguments: TextCorpus.files(withExtension: "3dl").filter { $0 != TextCorpus.truncated3DL })
    func threeDLRoundTrip(name: String) throws {
        let original = try TextCorpus.threeDL(name)
        let cube = try #require(original.lut.cube)
        let text = ThreeDLFile.serialize(cube, outputBits: original.outputBits)
        let back = try ThreeDLFile.parse(Array(text.utf8), fileName: name)
        #expect(back.outputBits == original.outputBits)
        let scale = Float((1 << original.outputBits) - 1)
        let codes = { (c: ColorCube?) in (c?.values ?? []).map { Int(($0 * scale).rounded()) } }
        #expect(codes(back.lut.cube) == codes(cube))
        #expect(codes(cube).count == 3 * cube.entryCount)
    }
}
