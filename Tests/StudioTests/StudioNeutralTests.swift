import Foundation
import ImageIO
import LookCore
import LookStudioTestSupport
import PluginHost
import Recipes
import Testing
@testable import Workflows

/// The studio's neutral eyedropper: a grey patch under a cast comes out grey through the steps it sets.
@Suite struct StudioNeutralTests {
    /// A 240×160 photo: coloured stripes around a 60×60 grey patch (linear 0.18) under the light `cast` (linear gains).
    static func photo(cast: SIMD3<Double>, at path: String) throws {
        let (w, h) = (240, 160)
        var samples = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let inPatch = abs(x - w / 2) < 30 && abs(y - h / 2) < 30
                let surface = inPatch ? SIMD3<Double>(repeating: 0.18)
                    : SIMD3(0.05 + 0.4 * Double(x % 60) / 60, 0.3 - 0.2 * Double(y % 40) / 40, 0.1 + 0.3 * Double(x / 60) / 4)
                for c in 0..<3 {
                    let v = ColorScience.srgb(fromLinear: min(1, surface[c] * cast[c]))
                    samples[(y * w + x) * 3 + c] = UInt8((v * 255).rounded())
                }
            }
        }
        try PNGImage.write(try PixelBuffer(width: w, height: h, channels: 3, samples: .eight(samples)), to: path)
    }

    static func session(_ photo: String, folder: String) throws -> StudioSession {
        let catalog = folder + "/catalog.sqlite"
        #expect(try StudioServerTests.cli(["--catalog", catalog, "looks", "list"]).status == 0)
        return try StudioSession(paths: [photo], catalogPath: catalog,
                                 pluginSearchPaths: PluginSearchPath.executableDirectory().map { [$0] } ?? [])
    }

    /// The patch's own colour through a recipe of the two steps at the values found, composed as the studio does.
    static func patchThroughSteps(_ session: StudioSession, _ found: StudioNeutral, cast: SIMD3<Double>) throws
        -> SIMD3<Double> {
        let yaml = """
            steps:
              - adjust: wb.temperature
                params: { shift: \(found.shift.rounded()) }
              - adjust: wb.tint
                params: { amount: \((found.tint * 1000).rounded() / 1000) }
            """
        let cube = try session.compose(StudioComposeRequest(recipe: try Recipe.parse(yaml, fileName: "neutral"),
                                                            size: 33))
        let patch = SIMD3<Float>((0..<3).map {
            Float((ColorScience.srgb(fromLinear: 0.18 * cast[$0]) * 255).rounded() / 255)
        })
        let out = CubeSampler(cube).sample(patch, interpolation: .tetrahedral)
        return SIMD3(Double(out.x), Double(out.y), Double(out.z)) * 255
    }

    @Test(arguments: [SIMD3(1.25, 1.0, 0.72), SIMD3(0.85, 0.97, 1.2), SIMD3(1.1, 0.9, 1.05)])
    func aGreyPatchUnderACastComesOutGreyWithinOneCode(cast: SIMD3<Double>) throws {
        let folder = NSTemporaryDirectory() + "studio-neutral-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.photo(cast: cast, at: folder + "/cast.png")
        let session = try Self.session(folder + "/cast.png", folder: folder)
        let found = try session.neutralBalance(photo: 0, u: 0.5, v: 0.5)
        #expect(found.note == nil, "\(found.note ?? "")")
        #expect(found.x == 120 && found.y == 80)
        let out = try Self.patchThroughSteps(session, found, cast: cast)
        let spread = out.max() - out.min()
        print(String(format: "neutral: cast (%.2f, %.2f, %.2f) → shift %+.0f K, tint %+.3f; patch (%.2f, %.2f, %.2f), "
                     + "spread %.2f codes", cast.x, cast.y, cast.z, found.shift, found.tint, out.x, out.y, out.z, spread))
        #expect(spread <= 1, "patch \(out)")
    }

    @Test func aClippedPointOrOneOutsideThePhotoIsRefusedByName() throws {
        let folder = NSTemporaryDirectory() + "studio-neutral-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.photo(cast: SIMD3(8, 8, 8), at: folder + "/bright.png")
        let session = try Self.session(folder + "/bright.png", folder: folder)
        #expect(throws: WorkflowError.self) { _ = try session.neutralBalance(photo: 0, u: 0.5, v: 0.5) }
        do {
            _ = try session.neutralBalance(photo: 0, u: 0.5, v: 0.5)
        } catch {
            #expect("\(error)".contains("clipped"), "\(error)")
        }
        #expect(throws: WorkflowError.self) { _ = try session.neutralBalance(photo: 0, u: 1.5, v: 0.5) }
    }
}
