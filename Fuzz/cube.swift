// libFuzzer harness "cube": the .cube text parser (CubeFile.parse), then baking what it accepts into a cube.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import LookFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Refusal (a thrown LookFormatsError) is the expected outcome for most inputs; only a crash is a finding.
    if let parsed = try? CubeFile.parse(bytes, fileName: "fuzz.cube") {
        _ = try? parsed.lut.bakedCube()
    }
    return 0
}
