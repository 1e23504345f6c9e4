import Foundation
import Testing
import ImageIO
import LookCore
@testable import LookFormats

/// A file under `Tests/Fixtures` (the package's own copies of the corpus and reference files).
private func fixture(_ relative: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/\(relative)").path
}

/// The BRIEF §2 formulas, written independently of the implementation: cube coordinates of pixel (x, y).
private func briefCoordinates(x: Int, y: Int, n: Int, layout: CubeLayout) -> (r: Int, g: Int, b: Int) {
    switch layout {
    case .tiled:
        let t = Int(Double(n).squareRoot())
        return (x % n, y % n, (y / n) * t + x / n)
    case .strip:
        return (x % n, y, x / n)
    case .hald:
        let l = Int(Double(n).squareRoot())
        let i = y * l * l * l + x
        return (i % n, (i / n) % n, i / (n * n))
    }
}

/// round(full · i / (N − 1)), halves up, in integers.
private func quantized(_ i: Int, n: Int, full: Int) -> Int {
    (2 * full * i + (n - 1)) / (2 * (n - 1))
}

private func sample(_ image: PixelBuffer, x: Int, y: Int, channel: Int) -> Int {
    let i = (y * image.width + x) * image.channels + channel
    switch image.samples {
    case .eight(let s): return Int(s[i])
    case .sixteen(let s): return Int(s[i])
    }
}

@Suite("CubeImage")
struct CubeImageTests {
    static let layoutCases: [(CubeLayout, Int)] = [
        (.tiled, 4), (.tiled, 16), (.tiled, 64), (.hald, 4), (.hald, 16), (.hald, 64),
        (.strip, 4), (.strip, 16), (.strip, 64), (.strip, 17), (.strip, 33),
    ]

    @Test("image sizes follow the layouts; tiled and hald refuse non-square cube sizes")
    func sizes() throws {
        #expect(try CubeImage.imageSize(cubeSize: 4, layout: .tiled) == (8, 8))
        #expect(try CubeImage.imageSize(cubeSize: 16, layout: .tiled) == (64, 64))
        #expect(try CubeImage.imageSize(cubeSize: 64, layout: .tiled) == (512, 512))
        #expect(try CubeImage.imageSize(cubeSize: 64, layout: .hald) == (512, 512))
        #expect(try CubeImage.imageSize(cubeSize: 36, layout: .hald) == (216, 216))
        #expect(try CubeImage.imageSize(cubeSize: 17, layout: .strip) == (289, 17))
        #expect(throws: LookFormatsError.self) { try CubeImage.imageSize(cubeSize: 17, layout: .tiled) }
        #expect(throws: LookFormatsError.self) { try CubeImage.imageSize(cubeSize: 33, layout: .hald) }
        #expect(throws: LookFormatsError.self) { try CubeImage.imageSize(cubeSize: 1, layout: .strip) }
    }

    @Test("an identity cube renders to exactly the BRIEF formulas' pixels",
          arguments: layoutCases, [PixelBuffer.Depth.eight, .sixteen])
    func identityPixels(layoutCase: (CubeLayout, Int), depth: PixelBuffer.Depth) throws {
        let (layout, n) = layoutCase
        let image = try CubeImage.render(.identity(size: n), layout: layout, depth: depth)
        let full = depth == .eight ? 255 : 65535
        #expect(image.channels == 3 && image.depth == depth)
        var mismatches = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (r, g, b) = briefCoordinates(x: x, y: y, n: n, layout: layout)
                if sample(image, x: x, y: y, channel: 0) != quantized(r, n: n, full: full)
                    || sample(image, x: x, y: y, channel: 1) != quantized(g, n: n, full: full)
                    || sample(image, x: x, y: y, channel: 2) != quantized(b, n: n, full: full) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("tiled layout puts blue in the tile index: the 64³ tile grid is 8×8")
    func tiledBlueInTiles() throws {
        let image = try CubeImage.render(.identity(size: 64), layout: .tiled, depth: .eight)
        #expect(sample(image, x: 64 * 3 + 5, y: 64 * 2 + 9, channel: 2) == quantized(2 * 8 + 3, n: 64, full: 255))
        #expect(sample(image, x: 64 * 3 + 5, y: 64 * 2 + 9, channel: 0) == quantized(5, n: 64, full: 255))
        #expect(sample(image, x: 64 * 3 + 5, y: 64 * 2 + 9, channel: 1) == quantized(9, n: 64, full: 255))
    }

    @Test("render → decode → render is bit-exact, and quantised cubes decode exactly",
          arguments: layoutCases, [PixelBuffer.Depth.eight, .sixteen])
    func roundTrip(layoutCase: (CubeLayout, Int), depth: PixelBuffer.Depth) throws {
        let (layout, n) = layoutCase
        let full: Float = depth == .eight ? 255 : 65535
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(n)
        let values = (0..<(3 * n * n * n)).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float((state >> 33) % UInt64(full + 1)) / full
        }
        let cube = try ColorCube(size: n, values: values)
        let image = try CubeImage.render(cube, layout: layout, depth: depth)
        let decoded = try CubeImage.decode(image, layout: layout, fileName: "mem")
        #expect(decoded == cube)
        #expect(try CubeImage.render(decoded, layout: layout, depth: depth) == image)
        let png = try CubeImage.encodePNG(cube, layout: layout, depth: depth)
        #expect(try CubeImage.decodePNG(png, name: "mem.png", layout: layout) == cube)
    }

    @Test("values outside 0…1 are clamped, never wrapped")
    func clamping() throws {
        var values = try ColorCube.identity(size: 4).values
        values[0] = -0.5
        values[1] = 1.7
        values[2] = 0.5
        let cube = try ColorCube(size: 4, values: values)
        let image8 = try CubeImage.render(cube, layout: .strip, depth: .eight)
        #expect([0, 1, 2].map { sample(image8, x: 0, y: 0, channel: $0) } == [0, 255, 128])
        let image16 = try CubeImage.render(cube, layout: .strip, depth: .sixteen)
        #expect([0, 1, 2].map { sample(image16, x: 0, y: 0, channel: $0) } == [0, 65535, 32768])
    }

    @Test("8-bit pixels written back at 16 bits are v·257 exactly; 16-bit written at 8 bits stay within half a code")
    func depthConversion() throws {
        var values = [Float]()
        for i in 0..<(3 * 64) { values.append(Float((i * 37) % 256) / 255) }
        let cube8 = try ColorCube(size: 4, values: values)
        let image8 = try CubeImage.render(cube8, layout: .tiled, depth: .eight)
        let image16 = try CubeImage.render(CubeImage.decode(image8, layout: .tiled, fileName: "a"), layout: .tiled,
                                           depth: .sixteen)
        guard case .eight(let s8) = image8.samples, case .sixteen(let s16) = image16.samples else {
            Issue.record("unexpected depths")
            return
        }
        #expect(zip(s8, s16).allSatisfy { UInt16($0) * 257 == $1 })
        let back8 = try CubeImage.render(CubeImage.decode(image16, layout: .tiled, fileName: "b"), layout: .tiled,
                                         depth: .eight)
        #expect(back8 == image8)
        let fine = try ColorCube(size: 4) { $0 * 0.9137 + 0.0314 }
        let fine16 = try CubeImage.render(fine, layout: .hald, depth: .sixteen)
        let coarse = try CubeImage.render(CubeImage.decode(fine16, layout: .hald, fileName: "c"), layout: .hald,
                                          depth: .eight)
        guard case .sixteen(let f) = fine16.samples, case .eight(let c) = coarse.samples else { return }
        #expect(zip(f, c).allSatisfy { abs(Double($0) / 65535 * 255 - Double($1)) <= 0.5 })
    }

    @Test("alpha is ignored on read")
    func alphaIgnored() throws {
        let rgb = try CubeImage.render(ColorCube(size: 4) { $0 * $0 }, layout: .tiled, depth: .eight)
        guard case .eight(let s) = rgb.samples else { return }
        var rgba = [UInt8]()
        for p in 0..<(s.count / 3) { rgba += [s[3 * p], s[3 * p + 1], s[3 * p + 2], UInt8(p % 256)] }
        let image = try PixelBuffer(width: rgb.width, height: rgb.height, channels: 4, samples: .eight(rgba))
        #expect(try CubeImage.decode(image, layout: .tiled, fileName: "a")
                == CubeImage.decode(rgb, layout: .tiled, fileName: "b"))
    }

    @Test("sizes that fit no layout, or not the layout asked for, are refused with the file name")
    func wrongSizes() throws {
        let odd = try PixelBuffer(width: 100, height: 50, channels: 3, depth: .eight)
        #expect(throws: LookFormatsError.self) { try CubeImage.decode(odd, layout: nil, fileName: "odd.png") }
        do {
            _ = try CubeImage.detectLayout(odd, fileName: "odd.png")
        } catch {
            #expect(error.description.hasPrefix("odd.png: 100×50 is not the size of a cube image"))
        }
        let strip = try CubeImage.render(.identity(size: 16), layout: .strip, depth: .eight)
        #expect(throws: LookFormatsError.self) { try CubeImage.decode(strip, layout: .tiled, fileName: "s.png") }
        #expect(CubeImage.candidates(width: 256, height: 16).map(\.layout) == [.strip])
        #expect(CubeImage.candidates(width: 512, height: 512).map(\.layout) == [.tiled, .hald])
        #expect(CubeImage.candidates(width: 1, height: 1).isEmpty)
    }

    @Test("every layout renders to a size only it and its square twin fit, and detection picks the right one",
          arguments: layoutCases)
    func detectsSynthetic(layoutCase: (CubeLayout, Int)) throws {
        let (layout, n) = layoutCase
        let identity = try ColorCube.identity(size: n)
        let look = try ColorCube(size: n) { c in
            SIMD3(c.x * c.x * 0.8 + 0.1, (c.y + c.x) * 0.45, 1 - c.z * 0.7)
        }
        // A 4³ look is too small to tell tiled from Hald; eightByEight covers it.
        for cube in n == 4 ? [identity] : [identity, look] {
            let image = try CubeImage.render(cube, layout: layout, depth: .eight)
            #expect(try CubeImage.detectLayout(image, fileName: "synthetic.png") == layout)
        }
    }

    @Test("an 8×8 image could be a tiled 4³ or a Hald level 2: an identity is told apart, a look or a flat image is refused")
    func eightByEight() throws {
        let look = try ColorCube(size: 4) { c in SIMD3(c.x * c.x * 0.8 + 0.1, (c.y + c.x) * 0.45, 1 - c.z * 0.7) }
        for layout in [CubeLayout.tiled, .hald] {
            let image = try CubeImage.render(.identity(size: 4), layout: layout, depth: .eight)
            #expect(try CubeImage.detectLayout(image, fileName: "small.png") == layout)
            let lookImage = try CubeImage.render(look, layout: layout, depth: .eight)
            #expect(throws: LookFormatsError.self) { try CubeImage.detectLayout(lookImage, fileName: "look.png") }
            let given = try CubeImage.decode(lookImage, layout: layout, fileName: "look.png")
            #expect(try CubeImage.render(given, layout: layout, depth: .eight) == lookImage)
        }
        let flat = try PixelBuffer(width: 8, height: 8, channels: 3, samples: .eight(.init(repeating: 90, count: 192)))
        #expect(throws: LookFormatsError(file: "flat.png", "8×8 could be a tiled 4³ or a Hald level-2 cube and the "
                                         + "pixels do not tell them apart; give the layout: tiled or hald",
                                         layouts: [.tiled, .hald])) {
            try CubeImage.decode(flat, layout: nil, fileName: "flat.png")
        }
        #expect(try CubeImage.decode(flat, layout: .hald, fileName: "flat.png").size == 4)
    }

    @Test("512×512 noise is refused with the BRIEF's message")
    func noiseIsAmbiguous() throws {
        var state: UInt64 = 12345
        let noise = (0..<(512 * 512 * 3)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 40)
        }
        let image = try PixelBuffer(width: 512, height: 512, channels: 3, samples: .eight(noise))
        #expect(throws: LookFormatsError(file: "noise.png", "512×512 could be a tiled 64³ or a Hald level-8 cube "
                                         + "and the pixels do not tell them apart; give the layout: tiled or hald",
                                         layouts: [.tiled, .hald])) {
            try CubeImage.detectLayout(image, fileName: "noise.png")
        }
    }

    @Test("every corpus PNG is detected in its true layout and size",
          arguments: [
              ("corpus/gpuimage_lookup.png", CubeLayout.tiled, 64),
              ("corpus/gpuimage_lookup_amatorka.png", .tiled, 64),
              ("corpus/gpuimage_lookup_miss_etikate.png", .tiled, 64),
              ("corpus/gpuimage_lookup_soft_elegance_1.png", .tiled, 64),
              ("corpus/metalpetal_colorlookuptable_tiled64_rgba.png", .tiled, 64),
              ("corpus/metalpetal_colortablegraded_strip16.png", .strip, 16),
              ("corpus/pillowlut_hald4_identity.png", .hald, 16),
              ("corpus/pillowlut_hald6_hefe.png", .hald, 36),
              ("corpus/lutgen_gruvbox_dark_hald8.png", .hald, 64),
              ("corpus/lutgen_nord_hald10.png", .hald, 100),
              ("reference/warm64_tiled.png", .tiled, 64),
              ("reference/warm64_hald.png", .hald, 64),
          ])
    func corpusDetection(file: String, layout: CubeLayout, size: Int) throws {
        let path = fixture(file)
        let read = try CubeImage.read(path: path, layout: nil)
        #expect(read.layout == layout)
        #expect(read.cube.size == size)
        #expect(read.depth == .eight)
        let image = try PNGImage.read(path: path)
        let rgb = try CubeImage.render(read.cube, layout: layout, depth: .eight)
        guard case .eight(let original) = image.samples, case .eight(let again) = rgb.samples else { return }
        let stride = image.channels
        let stripped = (0..<(original.count / stride)).flatMap { original[$0 * stride ..< $0 * stride + 3] }
        #expect(stripped == again, "re-rendering must give the file's pixels back")
    }

    @Test("identity PNGs from other tools import as the identity, within half an 8-bit code")
    func corpusIdentities() throws {
        for file in ["corpus/gpuimage_lookup.png", "corpus/pillowlut_hald4_identity.png"] {
            let path = fixture(file)
            let cube = try CubeImage.read(path: path, layout: nil).cube
            let identity = try ColorCube.identity(size: cube.size)
            let worst = zip(cube.values, identity.values).map { abs($0 - $1) }.max() ?? 1
            #expect(worst <= 0.5 / 255 + 1e-6, "\(file)")
        }
    }

    @Test("the warm reference cube reads the same from its tiled and Hald images")
    func warmReferences() throws {
        let tiled = fixture("reference/warm64_tiled.png"), hald = fixture("reference/warm64_hald.png")
        #expect(try CubeImage.read(path: tiled, layout: nil).cube == CubeImage.read(path: hald, layout: nil).cube)
    }

    @Test("write puts a complete PNG in place and leaves no temporary file")
    func writeFile() throws {
        let folder = NSTemporaryDirectory() + "lookstudio-cubeimage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cube = try ColorCube(size: 16) { SIMD3($0.y, $0.z, $0.x) }
        let path = folder + "/look.png"
        try CubeImage.write(cube, to: path, layout: .hald, depth: .sixteen)
        let read = try CubeImage.read(path: path, layout: nil)
        #expect(read.layout == .hald && read.depth == .sixteen)
        #expect(try CubeImage.render(read.cube, layout: .hald, depth: .sixteen)
                == CubeImage.render(cube, layout: .hald, depth: .sixteen))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["look.png"])
        #expect(throws: LookFormatsError.self) { try CubeImage.read(path: folder + "/missing.png", layout: nil) }
    }
}
