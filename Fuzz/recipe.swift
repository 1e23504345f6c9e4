// libFuzzer harness "recipe": recipe YAML (Recipe.parse: Yams, then the recipe checks).
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
import Recipes

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Recipe.parse(String(decoding: bytes, as: UTF8.self), fileName: "fuzz.yaml")
    return 0
}
