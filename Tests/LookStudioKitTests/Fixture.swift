import Foundation
import ImageIO
import LookStudioKit
import LookStudioTestSupport
import Testing
import Workflows

/// What the engine tests share: one catalog seeded from the repository, an engine on it, photos to apply looks to.
enum Fixture {
    /// A catalog seeded once for the whole suite (the engine only reads it), with two LUT files imported beside
    /// the shipped looks so eight threads can each apply a different look.
    static let catalog: Result<String, any Error> = Result {
        let path = "\(try CLI.tempDir())/catalog.sqlite"
        let corpus = "\(CLI.fixtures)/corpus/"
        let request = ImportJob.Request(files: [corpus + "cubelutloader_resolve_17_crlf.cube",
                                                corpus + "sharktacos_show_cin_resolve_33.cube"])
        _ = try ImportJob(request).run(in: Workspace(catalog: path, note: { _ in }))
        return path
    }

    /// An engine on `catalog`.
    static let engine: Result<Engine, any Error> = Result { try Engine(catalog: try catalog.get()) }

    /// A workspace on `catalog`, for running the command line's jobs.
    static func workspace() throws -> Workspace { Workspace(catalog: try catalog.get(), note: { _ in }) }

    /// The GUIDs of the first `count` shipped looks.
    static func lookGUIDs(_ count: Int) throws -> [String] {
        Array(try engine.get().looks().prefix(count).map(\.guid))
    }

    /// `lookstudio correct --strength 40,70,100` on a copy of `photo`, each output decoded, by strength.
    static func commandLineCorrect(_ photo: String, extra: [String] = []) throws -> [Double: PixelBuffer] {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: "\(CLI.packageRoot)/samples/\(photo)", toPath: "\(dir)/in.png")
        let run = try CLI.run(["--catalog", try catalog.get(), "correct", "--strength", "40,70,100",
                               "\(dir)/in.png", "-o", "\(dir)/out/"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        var outputs: [Double: PixelBuffer] = [:]
        for s in [40.0, 70, 100] {
            outputs[s] = try ImageFormat.read(path: "\(dir)/out/in-s\(Int(s)).png").pixels
        }
        return outputs
    }

    /// A photo from samples/ as an app's decoder gives it: pixels and colour description.
    static func photo(_ name: String) throws -> (pixels: PixelBuffer, color: ColorDescription) {
        let decoded = try ImageFormat.readImage(path: "\(CLI.packageRoot)/samples/\(name)")
        return (decoded.pixels, decoded.color)
    }

    /// A smooth, textured test image (photo-like for the cube), 8- or 16-bit, RGB or RGBA.
    static func synthetic(width: Int, height: Int, channels: Int, depth: PixelBuffer.Depth) throws -> PixelBuffer {
        var values: [Int] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = x * 255 / max(1, width - 1), g = y * 255 / max(1, height - 1), b = (x * 7 + y * 13) % 256
                values += [r, g, b] + (channels == 4 ? [(x + y) % 256] : [])
            }
        }
        if depth == .eight {
            return try PixelBuffer(width: width, height: height, channels: channels,
                                   samples: .eight(values.map { UInt8($0) }))
        }
        return try PixelBuffer(width: width, height: height, channels: channels,
                               samples: .sixteen(values.enumerated().map { UInt16($1 * 257 ^ ($0 % 251)) }))
    }

    /// `image` as `Pixels`, tagged with `color`'s ICC profile.
    static func pixels8(_ image: PixelBuffer, _ color: ColorDescription = ColorDescription()) throws -> Pixels<UInt8> {
        guard case .eight(let s) = image.samples else { throw FixtureError.wrongDepth }
        return try Pixels(samples: s, width: image.width, height: image.height, channels: image.channels,
                          icc: color.iccProfile?.data)
    }

    static func pixels16(_ image: PixelBuffer, _ color: ColorDescription = ColorDescription()) throws
        -> Pixels<UInt16> {
        guard case .sixteen(let s) = image.samples else { throw FixtureError.wrongDepth }
        return try Pixels(samples: s, width: image.width, height: image.height, channels: image.channels,
                          icc: color.iccProfile?.data)
    }

    enum FixtureError: Error { case wrongDepth }
}
