// libFuzzer harness "threedl": the .3dl text parser (ThreeDLFile.parse).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import LookFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let parsed = try? ThreeDLFile.parse(bytes, fileName: "fuzz.3dl") {
        _ = try? parsed.lut.bakedCube()
    }
    return 0
}
