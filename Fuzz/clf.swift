// libFuzzer harness "clf": the Common LUT Format reader (CLFFile.parse: the UTF-8 check, Foundation's XMLParser,
// node building and baking a chain). Built by scripts/fuzz.sh (see Fuzz/README.md).
import LookFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Refusal (a thrown LookFormatsError) is the expected outcome for most inputs; only a crash is a finding.
    _ = try? CLFFile.parse(bytes, fileName: "fuzz.clf")
    return 0
}
