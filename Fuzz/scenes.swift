// libFuzzer harness "scenes": scenes YAML (Seed.parseScenes: the catalog's scene seed).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import LookCatalog

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Seed.parseScenes(String(decoding: bytes, as: UTF8.self), file: "scenes.yaml")
    return 0
}
