// libFuzzer harness "plugindescriptor": a plugin descriptor built from the input bytes (counts, NULL pointers, string
// bytes, kinds, flags, float bit patterns, the curve, colour and choice arrays, the version 1 or 2 layout) →
// PluginDescriptorCheck, the same checks `dlopen`ed plugins pass.
// Built by scripts/fuzz.sh against the sanitizer-instrumented library modules (see Fuzz/README.md).
//
// The harness keeps the ABI's own promises (strings are NUL-terminated, an array holds at least `count` entries when
// the count is within the host's limits) so that ASan reports only reads the validator should not make; counts
// beyond the limits are passed through with a one-entry array, as a hostile plugin would.
//
// Input layout: a mode byte (bit 0: version 1 layout; bit 1: `adjustments` NULL; bit 2: abi_version from the next
// byte), the plugin's name and version, the adjustment count, then per adjustment its parameter count, its
// parameters and its own fields; see `Input.parameter`.
import PluginABI
import PluginHost

/// Every allocation one execution makes, freed when it ends.
private final class Arena {
    var blocks: [UnsafeMutableRawPointer] = []

    func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: count)
        blocks.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    deinit { blocks.forEach { $0.deallocate() } }
}

/// Reads the input front to back; past its end every read is zero.
private struct Input {
    let bytes: UnsafeBufferPointer<UInt8>
    let arena: Arena
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
    mutating func string() -> UnsafePointer<CChar>? {
        let length = Int(byte())
        guard length != 0xFF else { return nil }
        let size = length < 0xF0 ? length : 257 + (length - 0xF0) * 3
        let text = arena.allocate(CChar.self, count: size + 1)
        for i in 0..<size { text[i] = CChar(bitPattern: byte()) }
        text[size] = 0
        return UnsafePointer(text)
    }

    /// A count, then a byte whose bit 0 makes the array NULL, then the `count` entries `make` reads when the count
    /// is 1 to `limit` (what the host may read); otherwise the array is one `empty` entry.
    mutating func array<T>(limit: Int, empty: T, _ make: (inout Input) -> T) -> (UnsafePointer<T>?, Int) {
        let count = count()
        let null = byte() & 1 == 1
        let read = (1...limit).contains(count)
        let array = arena.allocate(T.self, count: read ? count : 1)
        if read {
            for i in 0..<count { (array + i).initialize(to: make(&self)) }
        } else {
            array.initialize(to: empty)
        }
        return (null ? nil : UnsafePointer(array), count)
    }

    /// Every field of a version 2 parameter, in declaration order.
    mutating func parameter() -> lookstudio_parameter {
        var p = lookstudio_parameter()
        (p.name, p.display_name, p.description) = (string(), string(), string())
        p.kind = Int32(byte() % 9) - 1
        (p.min, p.max, p.default_value, p.identity_value) = (float(), float(), float(), float())
        (p.default_values, p.default_count) = array(limit: ParameterValue.maximumFloatCount, empty: 0) { $0.float() }
        (p.identity_values, p.identity_count) = array(limit: ParameterValue.maximumFloatCount, empty: 0) { $0.float() }
        (p.x_min, p.x_max, p.max_points) = (float(), float(), count())
        p.flags = UInt32(byte() % 8)
        let (choices, choiceCount) = array(limit: ParameterDescriptor.maximumChoices, empty: nil) { $0.string() }
        (p.choices, p.choice_count) = (choices, choiceCount)
        return p
    }
}

private func apply(_ input: UnsafePointer<Float>?, _ output: UnsafeMutablePointer<Float>?, _ count: Int,
                   _ parameters: UnsafePointer<lookstudio_value>?) {}

private func applyV1(_ input: UnsafePointer<Float>?, _ output: UnsafeMutablePointer<Float>?, _ count: Int,
                     _ parameters: UnsafePointer<Float>?) {}

/// The first fields of `p`, which are all a version 1 parameter has.
private func versionOne(_ p: lookstudio_parameter) -> lookstudio_parameter_v1 {
    lookstudio_parameter_v1(name: p.name, display_name: p.display_name, description: p.description, kind: p.kind,
                            min: p.min, max: p.max, default_value: p.default_value, identity_value: p.identity_value)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Input(bytes: UnsafeBufferPointer(start: data, count: size), arena: Arena())
    let mode = input.byte()
    let (layoutOne, nullAdjustments) = (mode & 1 == 1, mode & 2 == 2)
    let abiVersion = mode & 4 == 4 ? UInt32(input.byte()) : layoutOne ? LOOKSTUDIO_PLUGIN_ABI_VERSION_1
        : LOOKSTUDIO_PLUGIN_ABI_VERSION
    let (name, version) = (input.string(), input.string())
    let adjustmentCount = input.count()
    let valid = (1...1024).contains(adjustmentCount)
    // Entries past the eighth repeat the last one: the limit (1024) is far more than the harness needs to build.
    let allocated = valid ? min(adjustmentCount, 8) : 1
    let adjustments = input.arena.allocate(lookstudio_adjustment.self, count: valid ? adjustmentCount : 1)
    let adjustmentsV1 = input.arena.allocate(lookstudio_adjustment_v1.self, count: valid ? adjustmentCount : 1)
    for index in 0..<allocated {
        let parameterCount = input.count()
        let capacity = (0...32).contains(parameterCount) ? max(parameterCount, 1) : 1
        let parameters = input.arena.allocate(lookstudio_parameter.self, count: capacity)
        let parametersV1 = input.arena.allocate(lookstudio_parameter_v1.self, count: capacity)
        for p in 0..<capacity {
            parameters[p] = input.parameter()
            parametersV1[p] = versionOne(parameters[p])
        }
        let flags = input.byte()
        let (id, display, category, description) = (input.string(), input.string(), input.string(), input.string())
        adjustments[index] = lookstudio_adjustment(
            id: id, display_name: display, category: category, description: description,
            parameters: flags & 1 == 0 ? UnsafePointer(parameters) : nil, parameter_count: parameterCount,
            apply: flags & 2 == 0 ? apply : nil)
        adjustmentsV1[index] = lookstudio_adjustment_v1(
            id: id, display_name: display, category: category, description: description,
            parameters: flags & 1 == 0 ? UnsafePointer(parametersV1) : nil, parameter_count: parameterCount,
            apply: flags & 2 == 0 ? applyV1 : nil)
    }
    if valid {
        for index in allocated..<adjustmentCount {
            adjustments[index] = adjustments[allocated - 1]
            adjustmentsV1[index] = adjustmentsV1[allocated - 1]
        }
    }
    if layoutOne {
        var plugin = lookstudio_plugin_v1(abi_version: abiVersion, name: name, version: version,
                                          adjustments: nullAdjustments ? nil : UnsafePointer(adjustmentsV1),
                                          adjustment_count: adjustmentCount)
        _ = PluginDescriptorCheck.refusal(for: &plugin, path: "/fuzz/plugin.so")
    } else {
        var plugin = lookstudio_plugin(abi_version: abiVersion, name: name, version: version,
                                       adjustments: nullAdjustments ? nil : UnsafePointer(adjustments),
                                       adjustment_count: adjustmentCount)
        _ = PluginDescriptorCheck.refusal(for: &plugin, path: "/fuzz/plugin.so")
    }
    return 0
}
