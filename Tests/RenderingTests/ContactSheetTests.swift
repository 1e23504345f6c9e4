import ImageIO
import Rendering
import Testing

@Suite struct ContactSheetTests {
    @Test("images sit side by side at one height, in order, on the gutter colour")
    func layout() throws {
        let red = try PixelBuffer(width: 40, height: 20, channels: 3,
                                  samples: .eight([UInt8](repeating: 0, count: 2400).enumerated()
                                      .map { $0.offset % 3 == 0 ? 255 : 0 }))
        let blue = try PixelBuffer(width: 10, height: 10, channels: 3,
                                   samples: .eight([UInt8](repeating: 0, count: 300).enumerated()
                                       .map { $0.offset % 3 == 2 ? 255 : 0 }))
        let sheet = try ContactSheet.make([red, blue], tileHeight: 10, gutter: 2)
        #expect(sheet.height == 14)
        #expect(sheet.width == 2 + 20 + 2 + 10 + 2)
        #expect(sheet.normalized(x: 5, y: 5, channel: 0) == 1)
        #expect(sheet.normalized(x: 30, y: 5, channel: 2) == 1)
        #expect(sheet.normalized(x: 0, y: 0, channel: 0) < 0.25)
    }
}
