import ColorManagement
import Foundation
import ImageIO
import Testing
@testable import Extraction

@Suite struct PairImageTests {
    /// An APP1 Exif segment (big-endian TIFF) with one IFD0 entry: orientation.
    static func exifSegment(orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0,
                             0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    @Test func anAfterImageStoredSidewaysWithEXIFOrientationIsReadUprightAndAccepted() throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try ExtractionFixtures.photo("chelsea")
        let look = try ExtractionFixtures.creativeLook()
        let after = ExtractionFixtures.applied(look, to: before)
        // Orientation 6 means "turn 90° clockwise to show": store the upright image turned counter-clockwise.
        let w = after.width, h = after.height
        var stored = [Float](repeating: 0, count: 3 * w * h)
        for sy in 0..<w {
            for sx in 0..<h {
                let (ux, uy) = (w - 1 - sy, sx)
                for c in 0..<3 { stored[3 * (sy * h + sx) + c] = after.rgb[3 * (uy * w + ux) + c] }
            }
        }
        let sideways = try PairImage(width: h, height: w, rgb: stored)
        let jpeg = try JPEGImage.encode(try sideways.pixels8(), quality: 95)
        let tagged = Array(jpeg[0..<2]) + Self.exifSegment(orientation: 6) + Array(jpeg[2...])
        try Data(tagged).write(to: URL(fileURLWithPath: folder + "/after.jpg"))
        let loaded = try PairImage.load(path: folder + "/after.jpg")
        #expect(loaded.width == w && loaded.height == h)
        let pair = try PairGeometry.aligned(before: before, after: loaded, beforeName: "b", afterName: "a")
        let fit = try LookExtractor.fit(pairs: [pair])
        #expect(ExtractionFixtures.cubeDifference(fit.cube, look, on: before) < 1.0)
    }

    @Test func aJPEGTaggedWithANearSRGBProfileIsReadUnconvertedAndADifferentSpaceIsConverted() throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // sRGB with its red primary moved a little: half a code from the parametric sRGB at most, as the common
        // tabulated "sRGB IEC61966-2.1" profile editors embed (0.45 of a code, measured): more than the quarter code
        // `isEquivalent` allows by default, within the extraction's one.
        let nearSRGB = try ColorProfile.rgb(white: [0.3127, 0.3290], red: [0.6402, 0.3300], green: [0.30, 0.60],
                                            blue: [0.15, 0.06], curve: .sRGB, description: "near sRGB")
        let sRGB = ColorProfile(.sRGB)
        #expect(!nearSRGB.isEquivalent(to: sRGB))
        #expect(nearSRGB.isEquivalent(to: sRGB, tolerance: PairImage.sameSpaceTolerance))
        let photo = try ExtractionFixtures.photo("chelsea", width: 128)
        let after = ExtractionFixtures.applied(try ExtractionFixtures.creativeLook(), to: photo)
        try ImageFormat.write(try ExtractionFixtures.pixels8(after), to: folder + "/near.jpg", jpegQuality: 85,
                              iccProfile: nearSRGB.data)
        let near = try PairImage.load(path: folder + "/near.jpg")
        #expect(near.compression != nil)
        let decoded = try PairImage(pixels: try ImageFormat.readImage(path: folder + "/near.jpg").pixels)
        let unconverted = near.rgb == decoded.rgb
        #expect(unconverted)
        #expect(near.compressedIn == nil)
        // A wider space is a different one: converted to the working space, its compression kept with the spaces.
        try ImageFormat.write(try ExtractionFixtures.pixels8(after), to: folder + "/p3.jpg", jpegQuality: 85,
                              iccProfile: ColorProfile(.displayP3).data)
        let p3 = try PairImage.load(path: folder + "/p3.jpg")
        #expect(p3.compression != nil && p3.compressedIn != nil)
        let converted = p3.rgb != decoded.rgb
        #expect(converted)
    }

    @Test func aColourSampleIsReadInSRGBAsLoadReadsItFromACopyOfBoundedSize() throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = try ExtractionFixtures.photo("chelsea", width: 96)
        try ImageFormat.write(try ExtractionFixtures.pixels8(photo), to: folder + "/p3.png",
                              iccProfile: ColorProfile(.displayP3).data)
        // Small enough to be its own copy: the sample is what `load` reads, pixel for pixel.
        let whole = try PairImage.load(path: folder + "/p3.png").rgb
        let sample = try PairImage.colourSample(path: folder + "/p3.png")
        #expect(sample.count == whole.count)
        #expect(zip(sample, whole).allSatisfy { abs($0 - $1) < 1e-4 })
        // The P3 file was converted: its samples are not the stored codes.
        let stored = try PairImage(pixels: try ImageFormat.readImage(path: folder + "/p3.png").pixels).rgb
        #expect(zip(sample, stored).contains { abs($0 - $1) > 0.01 })
        // A large JPEG is read at a reduced size, and its colours keep their shares: a red quarter stays a quarter.
        let (w, h) = (3200, 400)
        var rgb = [Float](repeating: 0, count: 3 * w * h)
        for y in 0..<h { for x in 0..<w { rgb[3 * (y * w + x) + (x < w / 4 ? 0 : 2)] = 0.8 } }
        try ImageFormat.write(try ExtractionFixtures.pixels8(try PairImage(width: w, height: h, rgb: rgb)),
                              to: folder + "/wide.jpg", jpegQuality: 95)
        let wide = try PairImage.colourSample(path: folder + "/wide.jpg")
        let count = wide.count / 3
        #expect(count <= PairImage.censusLongSide * PairImage.censusLongSide * h / w)
        let red = (0..<count).filter { wide[3 * $0] > 0.5 && wide[3 * $0 + 2] < 0.2 }.count
        #expect(abs(Double(red) / Double(count) - 0.25) < 0.02)
    }

    @Test func boxResizingAveragesAreasAndKeepsFlatColours() throws {
        let flat = try PairImage(width: 7, height: 5, rgb: [Float](repeating: 0.25, count: 105))
        let small = flat.boxResized(width: 3, height: 2)
        #expect(small.rgb.allSatisfy { abs($0 - 0.25) < 1e-6 })
        // Two columns, black and white, averaged into one: mid grey.
        let stripes = try PairImage(width: 2, height: 1, rgb: [0, 0, 0, 1, 1, 1])
        #expect(stripes.boxResized(width: 1, height: 1).rgb == [0.5, 0.5, 0.5])
    }
}
