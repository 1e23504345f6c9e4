// libFuzzer harness "jpeg": JPEG image decoding (JPEGImage.decode: TurboJPEG, EXIF orientation).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import ImageIO

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JPEGImage.decode(bytes, name: "fuzz.jpg", maxPixels: 1 << 22)
    return 0
}
