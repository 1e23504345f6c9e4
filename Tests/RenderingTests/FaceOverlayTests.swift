import ImageIO
import LookModel
import Rendering
import Testing

@Suite struct FaceOverlayTests {
    @Test("the overlay keeps the image's size, turns 16-bit RGBA into 8-bit RGB and outlines each face in green")
    func drawsBoxes() throws {
        let grey = try PixelBuffer(width: 400, height: 300, channels: 4,
                                   samples: .sixteen(Array(repeating: 0x8080, count: 400 * 300 * 4)))
        let face = FaceRegion(x: 150, y: 100, width: 120, height: 120, score: 1.2)
        let out = try FaceOverlay.draw(on: grey, faces: [face], label: "1 Auto — People")
        #expect(out.width == 400 && out.height == 300 && out.channels == 3 && out.depth == .eight)
        guard case .eight(let s) = out.samples else { return }
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(s[((y * 400 + x) * 3)..<((y * 400 + x) * 3 + 3)]) }
        #expect(pixel(150, 160) == [60, 255, 60])   // left edge of the box
        #expect(pixel(200, 160) == [128, 128, 128]) // inside the face: untouched
        #expect(pixel(390, 290) == [128, 128, 128]) // far corner: untouched
        // The label's banner is dark with white letters in the top-left corner.
        let banner = (0..<40).flatMap { y in (0..<200).map { pixel($0, y) } }
        #expect(banner.contains([255, 255, 255]) && banner.contains([0, 0, 0]))
    }
}
