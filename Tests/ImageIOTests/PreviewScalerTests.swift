import ImageIO
import Testing

@Suite("Preview scaler")
struct PreviewScalerTests {
    @Test("previews are fitted to the long side and never enlarged")
    func fittedSizes() {
        #expect(PreviewScaler.fittedSize(width: 4000, height: 3000, longSide: 768) == (768, 576))
        #expect(PreviewScaler.fittedSize(width: 300, height: 451, longSide: 768) == (300, 451))
        #expect(PreviewScaler.fittedSize(width: 5000, height: 2, longSide: 100) == (100, 1))
    }

    @Test("each output pixel is the mean of the block it covers")
    func boxMean() throws {
        // 4×2 RGB: two 2×2 blocks, the left of codes 0, 10, 20, 30 (mean 15), the right all 200.
        let codes: [UInt8] = [0, 10, 200, 200, 20, 30, 200, 200]
        let image = try PixelBuffer(width: 4, height: 2, channels: 3, samples: .eight(codes.flatMap { [$0, $0, $0] }))
        let small = try PreviewScaler.downscale(image, longSide: 2)
        #expect(small.width == 2 && small.height == 1 && small.channels == 3)
        #expect(small.samples == .eight([15, 15, 15, 200, 200, 200]))
    }

    @Test("16-bit and RGBA inputs become 8-bit RGB, rounded")
    func depthAndAlpha() throws {
        let image = try PixelBuffer(width: 1, height: 1, channels: 4, samples: .sixteen([65535, 32896, 0, 1234]))
        let small = try PreviewScaler.downscale(image, longSide: 8)
        #expect(small.samples == .eight([255, 128, 0]))
    }
}
