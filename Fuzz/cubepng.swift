// libFuzzer harness "cubepng": PNG bytes decoded as a cube image: libpng through the C shim, layout detection, cube decoding.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import LookFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? CubeImage.decodePNG(bytes, name: "fuzz.png", layout: nil)
    return 0
}
