import Foundation
@testable import ImageIO
import Testing

/// JPEGReader and JPEGWriter: band by band equals whole, errors are Swift errors.
@Suite struct JPEGBandTests {
    static func photo(width: Int, height: Int) throws -> PixelBuffer {
        let s = (0..<(width * height * 3)).map { i -> UInt8 in
            let p = i / 3, x = p % width, y = p / width
            return UInt8(truncatingIfNeeded: (x * (2 + i % 3) + y * 3) / 2)
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(s))
    }

    @Test("rows read in uneven bands equal the whole decode; 16-bit rows are refused")
    func readBands() throws {
        let jpeg = try JPEGImage.encode(try Self.photo(width: 90, height: 61))
        let whole = try JPEGImage.decode(jpeg, name: "w.jpg").pixels
        let reader = try JPEGReader(data: jpeg, name: "b.jpg")
        #expect(reader.width == 90 && reader.height == 61 && reader.channels == 3 && reader.depth == .eight)
        var rows = [UInt8](repeating: 0, count: 90 * 61 * 3)
        try rows.withUnsafeMutableBufferPointer { all in
            var done = 0
            for n in [1, 7, 16, 17, 20] {
                try reader.readRows(n, into: UnsafeMutableBufferPointer(rebasing: all[(done * 270)...]))
                done += n
            }
        }
        #expect(PixelBuffer.Samples.eight(rows) == whole.samples)
        var wide = [UInt16](repeating: 0, count: 270)
        #expect(throws: ImageIOError.depthMismatch(file: "b.jpg", image: .eight, buffer: .sixteen)) {
            try wide.withUnsafeMutableBufferPointer { try reader.readRows(1, into: $0) }
        }
        #expect(throws: ImageIOError.self) {
            try rows.withUnsafeMutableBufferPointer { try reader.readRows(1, into: $0) }
        }
    }

    @Test("rows written in bands, RGB or RGBA, 8 or 16 bits, give the whole encoder's bytes with the ICC profile",
          arguments: [3, 4])
    func writeBands(channels: Int) throws {
        let rgb = try Self.photo(width: 50, height: 33)
        guard case .eight(let s3) = rgb.samples else { return }
        var samples = s3
        if channels == 4 {
            samples = []
            for p in 0..<(50 * 33) {
                samples += s3[(3 * p)..<(3 * p + 3)]
                samples.append(9)
            }
        }
        let profile = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let expected = try JPEGImage.encode(rgb, iccProfile: profile)
        let writer = try JPEGWriter(memoryWidth: 50, height: 33, channels: channels, iccProfile: profile)
        let rowSamples = 50 * channels
        for start in stride(from: 0, to: 33, by: 10) {
            try samples[(start * rowSamples)..<(min(33, start + 10) * rowSamples)].withUnsafeBufferPointer {
                try writer.writeRows($0)
            }
        }
        #expect(try writer.finishData() == expected)
        let wide = try JPEGWriter(memoryWidth: 50, height: 33, channels: 3, iccProfile: profile)
        try s3.map { UInt16($0) * 257 }.withUnsafeBufferPointer { try wide.writeRows($0) }
        #expect(try wide.finishData() == expected)
        #expect(try JPEGImage.decode(expected, name: "x").iccProfile == profile)
    }

    @Test("a JPEG cut short fails while reading rows with an error naming the file; unfinished writers refuse")
    func truncated() throws {
        let jpeg = try JPEGImage.encode(try Self.photo(width: 64, height: 64))
        var rows = [UInt8](repeating: 0, count: 64 * 64 * 3)
        do {
            // Depending on where the cut falls, the header or the rows are missing.
            let reader = try JPEGReader(data: Array(jpeg.prefix(jpeg.count * 2 / 3)), name: "cut.jpg")
            try rows.withUnsafeMutableBufferPointer { try reader.readRows(64, into: $0) }
            Issue.record("a truncated JPEG decoded")
        } catch let error as ImageIOError {
            #expect(error.file == "cut.jpg")
        }
        let writer = try JPEGWriter(memoryWidth: 8, height: 8, channels: 3)
        #expect(throws: ImageIOError.self) { try writer.finishData() }
    }

    @Test("the DCT scale is the largest reduction that keeps the long side at the target")
    func scaleChoice() {
        #expect(JPEGReader.scaleDenominator(width: 4000, height: 3000, minLongSide: 512) == 4)
        #expect(JPEGReader.scaleDenominator(width: 4000, height: 3000, minLongSide: 4000) == 1)
        #expect(JPEGReader.scaleDenominator(width: 4001, height: 10, minLongSide: 501) == 8)
        // Previews: the cheapest scale that still gives the box shrink's size (docs/SCENES.md).
        #expect(JPEGReader.previewDenominator(width: 6000, height: 4000, maxLongSide: 2048) == 4)
        #expect(JPEGReader.previewDenominator(width: 4000, height: 3000, maxLongSide: 2048) == 2)
        #expect(JPEGReader.previewDenominator(width: 2048, height: 1536, maxLongSide: 2048) == 1)
        #expect(JPEGReader.previewDenominator(width: 1000, height: 800, maxLongSide: 2048) == 1)
    }
}
