import Foundation
import Testing
@testable import ImageIO
@testable import Pixels

@Suite("PNGWriter")
struct PNGWriterTests {
    @Test("rows written in bands make the same image as one write")
    func bands() throws {
        var gen = SampleGenerator(seed: 21)
        let samples = gen.bytes(31 * 20 * 3)
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let path = folder.file("bands.png")
        let writer = try PNGWriter(path: path, width: 31, height: 20, channels: 3, depth: .eight, options: .photo)
        for start in stride(from: 0, to: 20, by: 6) {
            let end = min(start + 6, 20)
            try samples[start * 93 ..< end * 93].withUnsafeBufferPointer { try writer.writeRows($0) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        #expect(try PNGImage.read(path: path) == PixelBuffer(width: 31, height: 20, channels: 3,
                                                              samples: .eight(samples)))
    }

    @Test("an image deflated in many parallel blocks across odd bands decodes exactly (8/16-bit, RGB/RGBA, every option)",
          arguments: [(PixelBuffer.Depth.eight, 3), (.eight, 4), (.sixteen, 3), (.sixteen, 4)])
    func parallelBlocks(depth: PixelBuffer.Depth, channels: Int) throws {
        // 700 × 260 pixels is 0.5–2.2 MB of filtered rows: several 256 KiB blocks, bands of 37 rows put block and
        // band edges in different places, so preset dictionaries straddle bands.
        let width = 700, height = 260
        var gen = SampleGenerator(seed: 5)
        let noise = gen.bytes(width * height * channels)
        let smooth = (0..<(width * height * channels)).map { i in
            UInt16(((i / channels) % width * 90 + (i / channels / width) * 70 + Int(noise[i] % 8)) % 65536)
        }
        let samples: PixelBuffer.Samples = depth == .eight ? .eight(smooth.map { UInt8(truncatingIfNeeded: $0 >> 4) })
                                                           : .sixteen(smooth.map { $0 &* 5 })
        let image = try PixelBuffer(width: width, height: height, channels: channels, samples: samples)
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        for options in [PNGWriteOptions.photo, .grainyPhoto, .data, PNGWriteOptions(compressionLevel: 0, filter: .paeth)] {
            let path = folder.file("blocks.png")
            let writer = try PNGWriter(path: path, width: width, height: height, channels: channels, depth: depth,
                                       options: options)
            let rowSamples = width * channels
            for start in stride(from: 0, to: height, by: 37) {
                let range = (start * rowSamples)..<(min(start + 37, height) * rowSamples)
                switch samples {
                case .eight(let s): try s[range].withUnsafeBufferPointer { try writer.writeRows($0) }
                case .sixteen(let s): try s[range].withUnsafeBufferPointer { try writer.writeRows($0) }
                }
            }
            try writer.finish()
            #expect(try PNGImage.read(path: path) == image, "\(options)")
        }
    }

    @Test("a writer dropped before finish leaves no file and keeps the old one")
    func abandoned() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let path = folder.file("keep.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        do {
            let writer = try PNGWriter(path: path, width: 4, height: 4, channels: 4, depth: .sixteen, options: .data)
            let row = [UInt16](repeating: 7, count: 16)
            try row.withUnsafeBufferPointer { try writer.writeRows($0) }
            #expect(folder.contents.count == 2)
        }
        #expect(folder.contents == ["keep.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
    }

    @Test("finishing with rows missing is an error and removes the temporary file")
    func missingRows() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let writer = try PNGWriter(path: folder.file("short.png"), width: 2, height: 3, channels: 3, depth: .eight,
                                   options: .photo)
        let row = [UInt8](repeating: 1, count: 6)
        try row.withUnsafeBufferPointer { try writer.writeRows($0) }
        #expect(throws: ImageIOError.self) { try writer.finish() }
        #expect(folder.contents.isEmpty)
        #expect(throws: ImageIOError.self) { try row.withUnsafeBufferPointer { try writer.writeRows($0) } }
    }

    @Test("rows of the wrong depth, partial rows and extra rows are refused")
    func misuse() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let writer = try PNGWriter(path: folder.file("m.png"), width: 2, height: 1, channels: 3, depth: .eight,
                                   options: .photo)
        let wide = [UInt16](repeating: 1, count: 6)
        #expect(throws: ImageIOError.depthMismatch(file: folder.file("m.png"), image: .eight, buffer: .sixteen)) {
            try wide.withUnsafeBufferPointer { try writer.writeRows($0) }
        }
        let partial = [UInt8](repeating: 1, count: 5)
        #expect(throws: ImageIOError.self) { try partial.withUnsafeBufferPointer { try writer.writeRows($0) } }
        let two = [UInt8](repeating: 1, count: 12)
        #expect(throws: ImageIOError.self) { try two.withUnsafeBufferPointer { try writer.writeRows($0) } }
        #expect(writer.rowsWritten == 0)
    }

    @Test("a destination folder that does not exist is an error at creation, with no file left")
    func badFolder() throws {
        #expect(throws: ImageIOError.self) {
            try PNGWriter(path: "/nonexistent-lookstudio/x.png", width: 1, height: 1, channels: 3, depth: .eight,
                          options: .photo)
        }
        #expect(throws: ImageIOError.unsupportedChannels(2)) {
            try PNGWriter(path: "/tmp/x.png", width: 1, height: 1, channels: 2, depth: .eight, options: .photo)
        }
    }
}
