import Foundation
import ImageIO
import Testing

@Suite struct ImageFormatTests {
    @Test("formats come from the signature for existing files and from the extension for outputs")
    func dispatch() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let image = try PixelBuffer(width: 4, height: 4, channels: 3, depth: .eight)
        try ImageFormat.write(image, to: dir + "/a.JPG")
        try FileManager.default.moveItem(atPath: dir + "/a.JPG", toPath: dir + "/misnamed.png")
        #expect(try ImageFormat.of(path: dir + "/misnamed.png") == .jpeg)
        #expect(try ImageFormat.forOutput(path: "x.jpeg") == .jpeg)
        #expect(try ImageFormat.forOutput(path: "x.png") == .png)
        #expect(try ImageFormat.forOutput(path: "x.TIFF") == .tiff)
        #expect(try ImageFormat.forOutput(path: "x.heic") == .heif)
        #expect(try ImageFormat.forOutput(path: "x.avif") == .avif)
        #expect(try ImageFormat.forOutput(path: "x.webp") == .webp)
        #expect(throws: ImageIOError.unknownImageFormat(file: "x.bmp")) { try ImageFormat.forOutput(path: "x.bmp") }
        #expect(try ImageFormat.read(path: dir + "/misnamed.png").pixels.width == 4)
    }
}
