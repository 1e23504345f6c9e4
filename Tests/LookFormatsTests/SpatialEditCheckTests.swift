import Foundation
import ImageIO
import LookCore
import Testing
@testable import LookFormats

/// `inspect` and `import` warn about cube images edited by position (a filter) rather than by colour.
struct SpatialEditCheckTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path
    static let root = URL(fileURLWithPath: fixtures).deletingLastPathComponent().deletingLastPathComponent().path

    /// The identity cube's picture in `layout`, 8-bit, with `edit` applied to its samples (RGB, row-major).
    static func picture(size: Int, layout: CubeLayout,
                        edit: (inout [Float], Int, Int) -> Void = { _, _, _ in }) throws -> String {
        let image = try CubeImage.render(try ColorCube.identity(size: size), layout: layout, depth: .eight)
        guard case .eight(let codes) = image.samples else { throw CocoaError(.fileReadCorruptFile) }
        var values = codes.map(Float.init)
        edit(&values, image.width, image.height)
        let edited = values.map { UInt8(min(max($0, 0), 255).rounded()) }
        let path = NSTemporaryDirectory() + "spatial-\(UUID().uuidString).png"
        try PNGImage.write(try PixelBuffer(width: image.width, height: image.height, channels: 3,
                                           samples: .eight(edited)), to: path)
        return path
    }

    /// A separable blur with weights `kernel` (centre in the middle), the border clamped as editors do.
    static func blur(_ v: inout [Float], _ w: Int, _ h: Int, kernel: [Float]) {
        let radius = kernel.count / 2
        for horizontal in [true, false] {
            let source = v
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<3 {
                        var sum: Float = 0
                        for (k, weight) in kernel.enumerated() {
                            let xx = horizontal ? min(max(x + k - radius, 0), w - 1) : x
                            let yy = horizontal ? y : min(max(y + k - radius, 0), h - 1)
                            sum += weight * source[3 * (yy * w + xx) + c]
                        }
                        v[3 * (y * w + x) + c] = sum
                    }
                }
            }
        }
    }

    static func warnings(_ path: String, label: String = "") throws -> [String] {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try LUTFormat.read(path: path)
        report(loaded, label: label)
        return loaded.warnings.map(\.message)
    }

    /// Prints both statistics, the figures docs/design/cube-images.md quotes.
    static func report(_ loaded: LoadedLUT, label: String) {
        guard let layout = loaded.layout, let cube = loaded.lut.cube,
              let geometry = try? Geometry(cubeSize: cube.size, layout: layout) else { return }
        let seams = SpatialEditCheck.seamStatistic(cube, geometry)
        let rough = SpatialEditCheck.roughnessStatistic(cube)
        print(String(format: "spatial %@: seams %.1f vs control %.1f codes; roughness median %.1f codes, along %.2f, "
                     + "across %.2f", label, seams?.difference ?? -1, seams?.control ?? -1, rough?.median ?? -1,
                     rough?.alongRed ?? 0, rough?.acrossRows ?? 0))
    }

    @Test("a Gaussian blur of σ 0.8 px or a 3-px box blur on tiled, strip and Hald pictures is reported", arguments: [
        (64, CubeLayout.tiled), (16, .tiled), (33, .strip), (64, .hald),
    ])
    func blurIsSeen(size: Int, layout: CubeLayout) throws {
        let gaussian: [Float] = [0.0219, 0.2285, 0.4992, 0.2285, 0.0219]
        let box: [Float] = [1 / 3, 1 / 3, 1 / 3]
        for kernel in [gaussian, box] {
            let found = try Self.warnings(try Self.picture(size: size, layout: layout) {
                Self.blur(&$0, $1, $2, kernel: kernel)
            }, label: "blur \(kernel.count) taps \(size) \(layout.rawValue)")
            #expect(found.contains { $0.contains("edited by position") && $0.contains("tile") }, "\(found)")
        }
    }

    @Test("sharpening (an unsharp mask) and added noise are reported")
    func sharpenAndNoise() throws {
        // On the identity, sharpening is clipped away at the seams (0 and 255 are pushed further out); a cube
        // edited in colour first, as people do, keeps it.
        let sharpened = try Self.warnings(try Self.picture(size: 64, layout: .tiled) { v, w, h in
            for i in v.indices { v[i] = 0.8 * v[i] + 25 }
            var soft = v
            Self.blur(&soft, w, h, kernel: [0.25, 0.5, 0.25])
            for i in v.indices { v[i] += 0.8 * (v[i] - soft[i]) }
        }, label: "unsharp mask")
        #expect(sharpened.contains { $0.contains("edited by position") }, "\(sharpened)")
        var generator = SystemRandomNumberGenerator()
        let noisy = try Self.warnings(try Self.picture(size: 33, layout: .strip) { v, _, _ in
            for i in v.indices { v[i] += Float.random(in: -8...8, using: &generator) }
        }, label: "noise ±8")
        #expect(noisy.contains { $0.contains("noise") }, "\(noisy)")
    }

    @Test("colour edits are not reported: identity, a posterise, a strong curve, and every real cube image shipped or in the corpus")
    func colourEditsPass() throws {
        #expect(try Self.warnings(try Self.picture(size: 64, layout: .tiled), label: "identity").isEmpty)
        let posterised = try Self.warnings(try Self.picture(size: 64, layout: .tiled) { v, _, _ in
            for i in v.indices { v[i] = (v[i] / 255 * 5).rounded() / 5 * 255 }
        }, label: "posterise")
        #expect(!posterised.contains { $0.contains("edited by position") }, "\(posterised)")
        let curved = try Self.warnings(try Self.picture(size: 16, layout: .tiled) { v, _, _ in
            for i in v.indices { v[i] = 255 * pow(v[i] / 255, 0.45) }
        }, label: "gamma 0.45")
        #expect(!curved.contains { $0.contains("edited by position") }, "\(curved)")
        let folders = [Self.fixtures + "/corpus", Self.fixtures + "/reference", Self.root + "/Looks"]
        var checked = 0
        for folder in folders {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".png") {
                guard let loaded = try? LUTFormat.read(path: folder + "/" + file) else { continue }
                checked += 1
                Self.report(loaded, label: file)
                #expect(!loaded.warnings.contains { $0.message.contains("edited by position") },
                        "\(file): \(loaded.warnings)")
            }
        }
        #expect(checked >= 15)
    }
}
