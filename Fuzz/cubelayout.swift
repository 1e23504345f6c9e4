// libFuzzer harness "cubelayout": cube-image layout detection and decoding on arbitrary pixels, without the PNG
// container (mutated PNGs mostly fail libpng's CRC checks, so this reaches the detector's logic far more often).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import ImageIO
import LookFormats

/// Image sizes a cube image can have (tiled 4³…16³ tiles, strips, Hald levels) plus near misses.
private let widths = [4, 8, 16, 17, 27, 32, 33, 64, 81, 125, 216, 256, 272, 289, 343, 512, 4, 9]
private let heights = [1, 2, 4, 8, 16, 17, 27, 32, 33, 64, 81, 125, 216, 256, 343, 512]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    let width = widths[Int(data[0]) % widths.count], height = heights[Int(data[1]) % heights.count]
    let channels = data[2] & 1 == 0 ? 3 : 4
    let count = width * height * channels
    // The pixels are the remaining bytes, repeated: a short input still fills a whole image.
    let payload = UnsafeBufferPointer(start: data + 3, count: size - 3)
    let samples = (0..<count).map { payload.isEmpty ? UInt8(truncatingIfNeeded: $0) : payload[$0 % payload.count] }
    guard let image = try? PixelBuffer(width: width, height: height, channels: channels, samples: .eight(samples))
    else { return 0 }
    if let layout = try? CubeImage.detectLayout(image, fileName: "fuzz.png") {
        _ = try? CubeImage.decode(image, layout: layout, fileName: "fuzz.png")
    }
    _ = try? CubeImage.decode(image, layout: nil, fileName: "fuzz.png")
    return 0
}
