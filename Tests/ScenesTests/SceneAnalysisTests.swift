import Foundation
import ImageIO
import Scenes
import Testing

@Suite struct SceneAnalysisTests {
    @Test("a PNG larger than 2048 px streams into a box-averaged copy with the right statistics")
    func streamedDownscale() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-analysis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 4100×30: factor 3 (ceil(4100/2048)), so 1367 columns, the last averaging only 2 source columns.
        let width = 4100, height = 30
        var s = [UInt16](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                s[i] = x < 2050 ? 65535 : 0
                s[i + 1] = 32896
                s[i + 2] = 0
            }
        }
        let image = try PixelBuffer(width: width, height: height, channels: 3, samples: .sixteen(s))
        try PNGImage.write(image, to: dir + "/wide.png")
        let streamed = try SceneAnalysis(path: dir + "/wide.png", bandBytes: 4100 * 6 * 7)
        let whole = try SceneAnalysis(image: image)
        #expect(streamed == whole)
        #expect(streamed.preview.width == 1367)
        #expect(streamed.preview.height == 10)
        #expect(abs(streamed.statistics.meanRed - 0.5) < 0.01)
        #expect(abs(streamed.statistics.meanGreen - 128.0 / 255) < 0.003)
        #expect(streamed.statistics.sourceWidth == width)
    }
}
