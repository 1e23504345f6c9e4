import Foundation
import LookStudioTestSupport
import ImageIO
import LookCore
import LookFormats
import Testing

@Suite struct ConvertCommandTests {
    @Test("every corpus file converts to .cube, or is refused with a message naming the file and the reason")
    func corpus() throws {
        let fixtures = CLI.fixtures
        let corpus = fixtures + "/corpus"
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus)
            .filter { $0.hasSuffix(".cube") || $0.hasSuffix(".3dl") || $0.hasSuffix(".png") }.sorted()
        #expect(files.count >= 30)
        for file in files {
            let out = "\(dir)/\(file).cube"
            let r = try CLI.run(["convert", "\(corpus)/\(file)", out])
            if file == "ocio_error_truncated_file.3dl" {
                #expect(r.status == 1)
                #expect(r.stderr.hasPrefix("error: \(file)") && r.stderr.contains("4913"), "\(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            } else {
                #expect(r.status == 0, "\(file): \(r.stderr)")
                #expect(!r.stderr.contains("error:"), "\(file): \(r.stderr)")
                let back = try LUTFormat.read(path: out)
                let original = try LUTFormat.read(path: "\(corpus)/\(file)")
                #expect(back.lut.cube?.size == original.lut.cube?.size, "\(file)")
                #expect(back.lut.shaper?.size == original.lut.shaper?.size, "\(file)")
            }
        }
    }

    @Test("the reference 512×512 tiled and Hald PNGs are each detected, and hold the same cube")
    func tiledVersusHald() throws {
        let fixtures = CLI.fixtures
        let tiled = try CLI.run(["inspect", "--json", fixtures + "/reference/warm64_tiled.png"])
        let hald = try CLI.run(["inspect", "--json", fixtures + "/reference/warm64_hald.png"])
        #expect(tiled.stdout.contains("\"layout\" : \"tiled\""))
        #expect(hald.stdout.contains("\"layout\" : \"hald\""))
        let a = try LUTFormat.read(path: fixtures + "/reference/warm64_tiled.png").lut.cube
        let b = try LUTFormat.read(path: fixtures + "/reference/warm64_hald.png").lut.cube
        #expect(a != nil && a == b)
    }

    static let formats = ["cube", "3dl", "tiled.png", "strip.png", "hald.png", "tiled8.png"]

    @Test("converting between every pair of formats keeps values within half a code of the source depth",
          arguments: formats)
    func pairs(source: String) throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Size 16 fits tiled, hald and strip; values inside 0…1 so nothing is clamped.
        let look = try ColorCube(size: 16) { c in SIMD3(0.1 + 0.8 * c.x * c.x, c.y.squareRoot() * 0.9, 1 - 0.7 * c.z) }
        func write(_ name: String, _ cube: ColorCube) throws -> String {
            let path = "\(dir)/src.\(name)"
            let layout = name.hasSuffix(".png") ? String(name.prefix { $0.isLetter }) : nil
            try LUTFormat.write(LUT(cube: cube), to: path,
                                options: .init(layout: layout.flatMap(CubeLayout.init(rawValue:)),
                                               bits: name == "tiled8.png" ? 8 : (name.hasSuffix(".png") ? 16 : nil)))
            return path
        }
        let src = try write(source, look)
        let truth = try LUTFormat.read(path: src).lut.cube!
        let step: Float = source == "tiled8.png" ? 1 / 255 : (source == "3dl" ? 1 / 4095 : (source == "cube" ? 0 : 1 / 65535))
        for target in Self.formats {
            let out = "\(dir)/out.\(target)"
            var args = ["convert", src, out]
            if target.hasSuffix(".png") { args += ["--layout", String(target.prefix { $0.isLetter }), "--bits", target == "tiled8.png" ? "8" : "16"] }
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(source) → \(target): \(r.stderr)")
            let back = try LUTFormat.read(path: out, layout: target.hasSuffix(".png") ? CubeLayout(rawValue: String(target.prefix { $0.isLetter })) : nil).lut.cube!
            // The target's own quantisation adds up to half of its step, on top of the source's.
            let targetStep: Float = target == "tiled8.png" ? 1 / 255 : (target == "3dl" ? 1 / 4095 : (target == "cube" ? 0 : 1 / 65535))
            let tolerance = max(step, targetStep) / 2 + 1e-6
            var worst: Float = 0
            for i in 0..<truth.values.count { worst = max(worst, abs(back.values[i] - truth.values[i])) }
            #expect(worst <= tolerance, "\(source) → \(target): \(worst) > \(tolerance)")
        }
    }
}
