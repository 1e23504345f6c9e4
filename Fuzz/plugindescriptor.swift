// libFuzzer harness "plugindescriptor": a plugin descriptor built from the input bytes (counts, NULL pointers, string
// bytes, kinds and ranges) → PluginDescriptorCheck, the same checks `dlopen`ed plugins pass.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
//
// The harness keeps the ABI's own promises (strings are NUL-terminated, an array holds at least `count` entries when
// the count is within the host's limits) so that ASan reports only reads the validator should not make; counts
// beyond the limits are passed through with a one-entry array, as a hostile plugin would.
import PluginABI
import PluginHost

/// Reads the input front to back; past its end every read is zero.
private struct Input {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    mutating func count() -> Int {
        // Mostly small counts; 0xFF selects a raw 64-bit value (SIZE_MAX and friends).
        let first = byte()
        guard first == 0xFF else { return Int(first % 40) }
        var raw: UInt64 = 0
        for _ in 0..<8 { raw = raw << 8 | UInt64(byte()) }
        return Int(bitPattern: UInt(raw))
    }

    mutating func float() -> Float {
        var raw: UInt32 = 0
        for _ in 0..<4 { raw = raw << 8 | UInt32(byte()) }
        return Float(bitPattern: raw)
    }

    /// NULL (length byte 0xFF), or a NUL-terminated string of up to 300 input bytes.
    mutating func string(_ keep: inout [UnsafeMutablePointer<CChar>]) -> UnsafePointer<CChar>? {
        let length = Int(byte())
        guard length != 0xFF else { return nil }
        let size = length < 0xF0 ? length : 257 + (length - 0xF0) * 3
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: size + 1)
        for i in 0..<size { text[i] = CChar(bitPattern: byte()) }
        text[size] = 0
        keep.append(text)
        return UnsafePointer(text)
    }
}

private func identity(_ input: UnsafePointer<Float>?, _ output: UnsafeMutablePointer<Float>?, _ count: Int,
                      _ parameters: UnsafePointer<Float>?) {}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Input(bytes: UnsafeBufferPointer(start: data, count: size))
    var strings: [UnsafeMutablePointer<CChar>] = []
    defer { strings.forEach { $0.deallocate() } }
    let adjustmentCount = input.count()
    let allocated = (1...1024).contains(adjustmentCount) ? min(adjustmentCount, 8) : 1
    // Entries past the eighth repeat the last one: the limit (1024) is far more than the harness needs to build.
    let adjustments = UnsafeMutablePointer<lookstudio_adjustment>.allocate(
        capacity: (1...1024).contains(adjustmentCount) ? adjustmentCount : 1)
    defer { adjustments.deallocate() }
    var parameterArrays: [UnsafeMutablePointer<lookstudio_parameter>] = []
    defer { parameterArrays.forEach { $0.deallocate() } }
    for index in 0..<allocated {
        let parameterCount = input.count()
        let capacity = (0...32).contains(parameterCount) ? max(parameterCount, 1) : 1
        let parameters = UnsafeMutablePointer<lookstudio_parameter>.allocate(capacity: capacity)
        parameterArrays.append(parameters)
        for p in 0..<capacity {
            parameters[p] = lookstudio_parameter(
                name: input.string(&strings), display_name: input.string(&strings),
                description: input.string(&strings), kind: Int32(input.byte() % 6) - 1,
                min: input.float(), max: input.float(), default_value: input.float(), identity_value: input.float())
        }
        let flags = input.byte()
        adjustments[index] = lookstudio_adjustment(
            id: input.string(&strings), display_name: input.string(&strings), category: input.string(&strings),
            description: input.string(&strings), parameters: flags & 1 == 0 ? UnsafePointer(parameters) : nil,
            parameter_count: parameterCount, apply: flags & 2 == 0 ? identity : nil)
    }
    if (1...1024).contains(adjustmentCount) {
        for index in allocated..<adjustmentCount { adjustments[index] = adjustments[allocated - 1] }
    }
    let flags = input.byte()
    var plugin = lookstudio_plugin(
        abi_version: flags & 1 == 0 ? LOOKSTUDIO_PLUGIN_ABI_VERSION : UInt32(input.byte()),
        name: input.string(&strings), version: input.string(&strings),
        adjustments: flags & 2 == 0 ? UnsafePointer(adjustments) : nil, adjustment_count: adjustmentCount)
    _ = PluginDescriptorCheck.refusal(for: &plugin, path: "/fuzz/plugin.so")
    return 0
}
