// libFuzzer harness "cube": the .cube text parser (CubeFile.parse), then baking what it accepts into a cube.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import LookFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Refusal (a thrown LookFormatsError) is the expected outcome for most inputs; only a crash is a finding.
    // Baking runs at a 9³ grid: the default for a LUT with a shaper is 65³, whose 274,625 evaluations took nine
    // tenths of every execution (perf) and test nothing a small grid does not.
    if let parsed = try? CubeFile.parse(bytes, fileName: "fuzz.cube") {
        _ = try? parsed.lut.bakedCube(size: 9)
    }
    return 0
}
