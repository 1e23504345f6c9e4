// Blend plugin, written in Swift to show that any language producing a C-ABI shared library can extend LookStudio:
// the descriptor is built from the C header's structs and the entry is exported with `@_cdecl`.
//
// Each adjustment blends the image with itself in a Photoshop blend mode (base = blend layer = the pixel), then mixes
// the result with the input by `amount`. Working space: sRGB-encoded, as image editors blend; inputs are clamped to
// 0…1 and every mode maps 0…1 into 0…1. Channels are independent, so `out` may alias `in`.
import PluginABI

/// A self-blend formula f(a) applied to one sRGB-encoded channel value a in 0…1.
private protocol SelfBlend {
    static func blend(_ a: Float) -> Float
}

/// Screen: 1 − (1 − a)²; never darker than the input.
private enum Screen: SelfBlend {
    static func blend(_ a: Float) -> Float { 1 - (1 - a) * (1 - a) }
}

/// Multiply: a²; never lighter than the input.
private enum Multiply: SelfBlend {
    static func blend(_ a: Float) -> Float { a * a }
}

/// Overlay: 2a² below 0.5, 1 − 2(1 − a)² above; a contrast S-curve through 0.5.
private enum Overlay: SelfBlend {
    static func blend(_ a: Float) -> Float { a < 0.5 ? 2 * a * a : 1 - 2 * (1 - a) * (1 - a) }
}

/// Soft light (W3C compositing spec) with source = backdrop = a: a gentler S-curve than overlay. The spec's
/// polynomial D(b) for b ≤ 0.25 is unreachable here, since the upper branch only sees a > 0.5.
private enum SoftLight: SelfBlend {
    static func blend(_ a: Float) -> Float {
        a <= 0.5 ? a - (1 - 2 * a) * a * (1 - a) : a + (2 * a - 1) * (a.squareRoot() - a)
    }
}

/// Runs one blend over the buffer; generic so each mode is specialised into its own loop without per-pixel dispatch.
@inline(__always)
private func run<Mode: SelfBlend>(
    _ mode: Mode.Type, _ input: UnsafePointer<Float>?, _ output: UnsafeMutablePointer<Float>?, _ pixelCount: Int,
    _ params: UnsafePointer<lookstudio_value>?
) {
    guard let input, let output, let params, let amount = params[0].values?[0] else { return }
    let keep = 1 - amount
    for i in 0..<(3 * pixelCount) {
        let a = min(max(input[i], 0), 1)
        // a·(1 − t) + f(a)·t is exact at both ends: amount 0 returns the input bit for bit.
        output[i] = min(max(a * keep + Mode.blend(a) * amount, 0), 1)
    }
}

/// Copies a Swift string into a never-freed C string: the descriptor must outlive every caller.
private func permanentCString(_ text: String) -> UnsafePointer<CChar> {
    let utf8 = Array(text.utf8CString)
    let storage = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
    storage.initialize(from: utf8, count: utf8.count)
    return UnsafePointer(storage)
}

/// One `amount` parameter shared by every blend: 0 is the input, 1 the full blend.
private func amountParameter() -> UnsafePointer<lookstudio_parameter> {
    let parameter = UnsafeMutablePointer<lookstudio_parameter>.allocate(capacity: 1)
    parameter.initialize(to: lookstudio_parameter(
        name: permanentCString("amount"),
        display_name: permanentCString("Amount"),
        description: permanentCString("Mix of the blended image: 0 is the input, 1 the full blend."),
        kind: Int32(LOOKSTUDIO_PARAM_SCALAR),
        min: 0, max: 1, default_value: 1, identity_value: 0,
        default_values: nil, default_count: 0, identity_values: nil, identity_count: 0,
        x_min: 0, x_max: 0, max_points: 0, flags: 0, choices: nil, choice_count: 0
    ))
    return UnsafePointer(parameter)
}

private func makeDescriptor() -> UnsafePointer<lookstudio_plugin> {
    let amount = amountParameter()
    let entries: [(id: String, name: String, formula: String, apply: lookstudio_apply_fn)] = [
        ("blend.screen", "Screen", "f(a) = 1 - (1 - a)^2; lightens.", { run(Screen.self, $0, $1, $2, $3) }),
        ("blend.multiply", "Multiply", "f(a) = a^2; darkens.", { run(Multiply.self, $0, $1, $2, $3) }),
        ("blend.overlay", "Overlay", "f(a) = 2a^2 below 0.5, 1 - 2(1 - a)^2 above; adds contrast.",
         { run(Overlay.self, $0, $1, $2, $3) }),
        ("blend.soft_light", "Soft Light", "W3C soft light of a over a; gentle contrast.",
         { run(SoftLight.self, $0, $1, $2, $3) }),
    ]
    let adjustments = UnsafeMutablePointer<lookstudio_adjustment>.allocate(capacity: entries.count)
    for (index, entry) in entries.enumerated() {
        (adjustments + index).initialize(to: lookstudio_adjustment(
            id: permanentCString(entry.id),
            display_name: permanentCString(entry.name),
            category: permanentCString("Blend"),
            description: permanentCString("The image blended with itself in sRGB-encoded values, "
                + entry.formula + " Output a (1 - amount) + f(a) amount, clamped to 0-1."),
            parameters: amount,
            parameter_count: 1,
            apply: entry.apply
        ))
    }
    let plugin = UnsafeMutablePointer<lookstudio_plugin>.allocate(capacity: 1)
    plugin.initialize(to: lookstudio_plugin(
        abi_version: LOOKSTUDIO_PLUGIN_ABI_VERSION,
        name: permanentCString("LookStudio Blend"),
        version: permanentCString("1.0.0"),
        adjustments: UnsafePointer(adjustments),
        adjustment_count: entries.count
    ))
    return UnsafePointer(plugin)
}

/// Built once, on first use (Swift globals initialise lazily and thread-safely), and never freed.
private nonisolated(unsafe) let descriptor = makeDescriptor()

/// The exported entry point the host finds with `dlsym`.
@_cdecl("lookstudio_plugin_entry")
public func blendPluginEntry() -> UnsafePointer<lookstudio_plugin> {
    descriptor
}
