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
    // Bits 1–2 of the third byte force a layout (as `--layout` does) on the same pixels, or leave it to detection.
    let forced: CubeLayout? = [nil, .tiled, .strip, .hald][Int(data[2] >> 1) & 3]
    let count = width * height * channels
    // The pixels are the remaining bytes, repeated: a short input still fills a whole image. Whole-run copies, not a
    // per-sample closure: this fill ran per sample through the coverage hooks and took a fifth of every execution.
    let payload = UnsafeBufferPointer(start: data + 3, count: size - 3)
    let samples = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        if payload.isEmpty {
            for i in 0..<count { buffer[i] = UInt8(truncatingIfNeeded: i) }
        } else {
            var filled = 0
            while filled < count {
                let run = min(payload.count, count - filled)
                UnsafeMutableRawPointer(buffer.baseAddress! + filled)
                    .copyMemory(from: payload.baseAddress!, byteCount: run)
                filled += run
            }
        }
        initialized = count
    }
    guard let image = try? PixelBuffer(width: width, height: height, channels: channels, samples: .eight(samples))
    else { return 0 }
    // Detection reads the image once whichever path runs; decode(layout: nil) is detection plus decoding.
    _ = try? CubeImage.decode(image, layout: forced, fileName: "fuzz.png")
    return 0
}
