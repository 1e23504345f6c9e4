// libFuzzer harness "cdl": the ASC CDL reader (CDLFile.parse: the UTF-8 check, the bounded XML reader, the .cc /
// .ccc / .cdl reading), then the writer on what it accepts. Built by scripts/fuzz.sh (see Fuzz/README.md).
import LookFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Refusal (a thrown LookFormatsError) is the expected outcome for most inputs; only a crash is a finding.
    guard let contents = try? CDLFile.parse(bytes, fileName: "fuzz.ccc") else { return 0 }
    // What was read must write and read back unchanged; a difference is a finding too (trapped on purpose).
    for correction in contents.corrections.prefix(4) {
        guard let text = try? CDLFile.serialize(correction),
              var again = try? CDLFile.parse(Array(text.utf8), fileName: "fuzz.cc").corrections.first else {
            fatalError("a correction that was read could not be written and read back")
        }
        var original = correction
        original.line = nil
        again.line = nil
        if again != original { fatalError("writing and reading back changed a correction: \(original) → \(again)") }
    }
    return 0
}
