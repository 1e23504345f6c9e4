import CTIFF
import Foundation
import Testing
@testable import ImageIO

@Suite struct TIFFImageTests {
    static func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "lookstudio-tiff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func image(width: Int = 70, height: Int = 45, channels: Int, depth: PixelBuffer.Depth) throws -> PixelBuffer {
        let n = width * height * channels
        switch depth {
        case .eight:
            return try PixelBuffer(width: width, height: height, channels: channels,
                                   samples: .eight((0..<n).map { UInt8(truncatingIfNeeded: ($0 * 7 + $0 / 13) % 256) }))
        case .sixteen:
            return try PixelBuffer(width: width, height: height, channels: channels,
                                   samples: .sixteen((0..<n).map { UInt16(truncatingIfNeeded: $0 &* 40_503) }))
        }
    }

    @Test("TIFF round-trips exactly at 8 and 16 bits, RGB and RGBA, in every compression, keeping the ICC tag",
          arguments: TIFFCompression.allCases)
    func roundTrip(compression: TIFFCompression) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let icc = [UInt8](repeating: 0x42, count: 300)
        for depth in PixelBuffer.Depth.allCases {
            for channels in [3, 4] {
                let image = try Self.image(channels: channels, depth: depth)
                try TIFFImage.write(image, to: "\(dir)/x.tif", compression: compression, iccProfile: icc)
                #expect(try ImageFormat.of(path: "\(dir)/x.tif") == .tiff)
                let back = try ImageFormat.readImage(path: "\(dir)/x.tif")
                #expect(back.pixels == image)
                #expect(back.color.iccProfile?.data == icc)
                #expect(try TIFFReader(path: "\(dir)/x.tif").compression == compression)
            }
        }
    }

    @Test("a tiled TIFF, tiles smaller or larger than its image, reads as a stripped one in bands of any height",
          arguments: [16, 256])
    func tiled(side: Int) throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try Self.image(width: 50, height: 37, channels: 3, depth: .sixteen)
        guard case .sixteen(let samples) = image.samples else { return }
        let errors = UnsafeMutablePointer<lstiff_errors>.allocate(capacity: 1)
        defer { errors.deallocate() }
        errors.initialize(to: lstiff_errors())
        let tif = try #require(lstiff_open("\(dir)/tiled.tif", "w", errors))
        for (tag, value) in [(TIFFTAG_IMAGEWIDTH, 50), (TIFFTAG_IMAGELENGTH, 37), (TIFFTAG_TILEWIDTH, side),
                             (TIFFTAG_TILELENGTH, side)] {
            _ = lstiff_set_u32(tif, UInt32(tag), UInt32(value))
        }
        for (tag, value) in [(TIFFTAG_BITSPERSAMPLE, 16), (TIFFTAG_SAMPLESPERPIXEL, 3),
                             (TIFFTAG_PHOTOMETRIC, Int(PHOTOMETRIC_RGB)), (TIFFTAG_PLANARCONFIG, 1),
                             (TIFFTAG_COMPRESSION, Int(COMPRESSION_ADOBE_DEFLATE))] {
            _ = lstiff_set_u16(tif, UInt32(tag), UInt16(value))
        }
        var tile = [UInt16](repeating: 0, count: side * side * 3)
        for ty in stride(from: 0, to: 37, by: side) {
            for tx in stride(from: 0, to: 50, by: side) {
                for y in 0..<side { for x in 0..<side { for c in 0..<3 {
                    let (sx, sy) = (tx + x, ty + y)
                    tile[(y * side + x) * 3 + c] = sx < 50 && sy < 37 ? samples[(sy * 50 + sx) * 3 + c] : 0
                } } }
                #expect(TIFFWriteTile(tif, &tile, UInt32(tx), UInt32(ty), 0, 0) > 0)
            }
        }
        TIFFClose(tif)
        let reader = try TIFFReader(path: "\(dir)/tiled.tif")
        #expect(reader.tiled)
        var got = [UInt16](repeating: 0, count: samples.count)
        try got.withUnsafeMutableBufferPointer { b in
            var done = 0
            for n in [5, 20, 12] {
                try reader.readRows(n, into: UnsafeMutableBufferPointer(rebasing: b[(done * 150)...]))
                done += n
            }
        }
        #expect(got == samples)
    }

    /// Found by the `tiff` fuzz target: 65304×65281 tiles over a 65304×16 image; reading it asked for 12.8 GB.
    @Test("tiles far larger than their image are refused before anything is allocated for them")
    func hugeTile() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/fuzz/tiff-huge-tile.tif").standardizedFileURL.path
        #expect {
            _ = try ImageFormat.readImage(path: path)
        } throws: {
            guard case .corruptImage(let file, "TIFF", let detail) = $0 as? ImageIOError else { return false }
            return file == path
                && detail.hasSuffix("tiles are larger than the 65304×16 image they tile; the file is damaged")
        }
    }

    @Test("a truncated TIFF is an error naming the file")
    func truncated() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TIFFImage.write(try Self.image(width: 300, height: 200, channels: 3, depth: .eight), to: "\(dir)/x.tif",
                            compression: .deflate)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/x.tif"))
        for cut in [12, bytes.count / 2] {
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: "\(dir)/cut.tif"))
            #expect {
                _ = try ImageFormat.readImage(path: "\(dir)/cut.tif")
            } throws: { "\($0)".hasPrefix("\(dir)/cut.tif: ") }
        }
    }

    @Test("CMYK and float TIFFs are refused with a reason")
    func unsupported() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let errors = UnsafeMutablePointer<lstiff_errors>.allocate(capacity: 1)
        defer { errors.deallocate() }
        errors.initialize(to: lstiff_errors())
        let tif = try #require(lstiff_open("\(dir)/cmyk.tif", "w", errors))
        _ = lstiff_set_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), 2)
        _ = lstiff_set_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), 1)
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), 8)
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), 4)
        _ = lstiff_set_u16(tif, UInt32(TIFFTAG_PHOTOMETRIC), UInt16(PHOTOMETRIC_SEPARATED))
        var row = [UInt8](repeating: 9, count: 8)
        _ = TIFFWriteScanline(tif, &row, 0, 0)
        TIFFClose(tif)
        #expect {
            _ = try TIFFReader(path: "\(dir)/cmyk.tif")
        } throws: { "\($0)".contains("only RGB TIFFs are supported") }
    }
}
