import ColorManagement
import Foundation
import ImageIO
import LookCore
import LookStudioTestSupport
import Testing
@testable import Export

/// A known look, a 64×64 chart, the reference render LookStudio gives, and a way to run the consumer programs.
enum Support {
    /// A smooth, clearly non-identity look: contrast, a warm/teal split and a channel mix (33³, sRGB values).
    static let look: ColorCube = {
        try! ColorCube(size: 33) { c in
            let s = c * c * (SIMD3(repeating: 3) - 2 * c)
            let luma = (0.2126 * s.x + 0.7152 * s.y + 0.0722 * s.z)
            let split = SIMD3<Float>(0.08, 0.01, -0.07) * (luma - 0.5)
            let mixed = SIMD3(0.85 * s.x + 0.15 * s.y, 0.1 * s.x + 0.9 * s.y, 0.1 * s.y + 0.9 * s.z)
            return (mixed + split).clamped(lowerBound: .zero, upperBound: .one)
        }
    }()

    static func exportLook(strength: Float = 1, space: ColorProfile = ColorProfile(.sRGB)) throws -> ExportLook {
        try ExportLook(name: "Test Look", cube: look, strength: strength, workingSpace: space)
    }

    static let side = 64

    /// RGB 8-bit chart: red across, green down, blue from a diagonal pattern, so every axis is exercised.
    static let chart: [UInt8] = {
        var px = [UInt8](repeating: 0, count: 3 * side * side)
        for y in 0..<side {
            for x in 0..<side {
                let i = 3 * (y * side + x)
                px[i] = UInt8(x * 255 / (side - 1))
                px[i + 1] = UInt8(y * 255 / (side - 1))
                px[i + 2] = UInt8(((x * 7 + y * 13) % side) * 255 / (side - 1))
            }
        }
        return px
    }()

    static func writeChartPNG(_ path: String) throws {
        let image = try PixelBuffer(width: side, height: side, channels: 3, samples: .eight(chart))
        try PNGImage.write(image, to: path, options: .data)
    }

    static func writeChartTIFF(_ path: String) throws {
        let image = try PixelBuffer(width: side, height: side, channels: 3, samples: .eight(chart))
        try TIFFImage.write(image, to: path, compression: .none)
    }

    /// What LookStudio's applier gives for the chart through `cube` (tetrahedral, Float, rounded to 8 bits).
    static func reference(_ cube: ColorCube) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: chart.count)
        // One sampler for the whole chart: `ColorCube.sample` lays out a fresh table per call.
        let sampler = CubeSampler(cube)
        for i in stride(from: 0, to: chart.count, by: 3) {
            let v = sampler.sample(SIMD3(Float(chart[i]), Float(chart[i + 1]), Float(chart[i + 2])) / 255,
                                   interpolation: .tetrahedral)
            for c in 0..<3 { out[i + c] = UInt8((min(max(v[c], 0), 1) * 255).rounded()) }
        }
        return out
    }

    /// 8-bit RGB samples of a PNG or TIFF (alpha dropped).
    static func rgb8(_ path: String) throws -> [UInt8] {
        let image = path.hasSuffix(".tif") ? try TIFFImage.read(path: path).pixels : try PNGImage.read(path: path)
        guard case .eight(let s) = image.samples else { Issue.record("\(path) is not 8-bit"); return [] }
        if image.channels == 3 { return s }
        return (0..<(image.width * image.height)).flatMap { p in (0..<3).map { s[p * image.channels + $0] } }
    }

    /// Largest difference in codes between two images.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count, !a.isEmpty else { return Int.max }
        return zip(a, b).map { abs(Int($0) - Int($1)) }.max()!
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    /// Runs a program found on PATH (installed by `make deps`).
    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (o, e) = FileHandle.readAll(out.fileHandleForReading, err.fileHandleForReading)
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-export-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The look as the target stores it (strength and sRGB baked), at `size`.
    static func expected(size: Int, strength: Float = 1) throws -> ColorCube {
        try look.scaled(strength: strength).resampled(to: size)
    }
}
