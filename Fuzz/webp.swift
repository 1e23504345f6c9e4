// libFuzzer harness "webp": WebP decoding (WebPImage.decode: libwebp, lossy and lossless, ICC through libwebpmux).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import ImageIO

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // A small pixel limit keeps huge declared sizes from turning into out-of-memory reports.
    _ = try? WebPImage.decode(bytes, name: "fuzz.webp", maxPixels: 1 << 22)
    return 0
}
