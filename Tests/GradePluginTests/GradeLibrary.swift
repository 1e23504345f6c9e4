import Foundation
import LookStudioTestSupport
import PluginABI
import Testing

/// `libGradePlugin.so` as `swift build` leaves it beside the test bundle, opened with `dlopen` and its version 2
/// descriptor read field by field: these tests do not go through the plugin host.
enum GradeLibrary {
    /// The library next to the running test binary (both in `<scratch>/<configuration>/`), else `.build/debug`.
    static let path: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("libGradePlugin.so").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return CLI.packageRoot + "/.build/debug/libGradePlugin.so"
    }()

    /// The descriptor, or why it could not be had.
    static let loaded: Result<GradePlugin, GradeLibraryError> = {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(GradeLibraryError("dlopen \(path): \(String(cString: dlerror()))"))
        }
        guard let symbol = dlsym(handle, LOOKSTUDIO_PLUGIN_ENTRY_SYMBOL) else {
            return .failure(GradeLibraryError("\(path) exports no \(LOOKSTUDIO_PLUGIN_ENTRY_SYMBOL)"))
        }
        let entry = unsafeBitCast(symbol, to: lookstudio_plugin_entry_fn.self)
        guard let descriptor = entry() else { return .failure(GradeLibraryError("the entry function returned NULL")) }
        return .success(GradePlugin(descriptor))
    }()

    static func plugin() throws -> GradePlugin { try loaded.get() }

    static func adjustment(_ id: String) throws -> GradeAdjustment {
        try #require(try plugin().adjustments.first { $0.id == id }, "libGradePlugin.so offers \(id)")
    }
}

struct GradeLibraryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The plugin's descriptor. It points at the library's `static const` data, which nothing writes and which stays
/// mapped for the whole run (the library is never closed), hence `@unchecked Sendable`.
struct GradePlugin: @unchecked Sendable {
    let raw: UnsafePointer<lookstudio_plugin>

    init(_ raw: UnsafePointer<lookstudio_plugin>) { self.raw = raw }

    var abiVersion: UInt32 { raw.pointee.abi_version }

    var adjustments: [GradeAdjustment] {
        (0..<raw.pointee.adjustment_count).map { GradeAdjustment(raw.pointee.adjustments + $0) }
    }
}

/// One parameter as the descriptor declares it, with its default and identity as the floats `apply` receives.
struct GradeParameter: Sendable {
    let name: String
    let kind: Int32
    let min: Float
    let max: Float
    let defaultValues: [Float]
    let identityValues: [Float]
    let xMin: Float
    let xMax: Float
    let maxPoints: Int
    let flags: UInt32
    let choices: [String]

    init(_ p: lookstudio_parameter) {
        name = String(cString: p.name)
        kind = p.kind
        min = p.min
        max = p.max
        let isArray = p.kind == Int32(LOOKSTUDIO_PARAM_CURVE) || p.kind == Int32(LOOKSTUDIO_PARAM_COLOR)
        func floats(_ pointer: UnsafePointer<Float>?, _ count: Int) -> [Float] {
            guard let pointer else { return [] }
            return Array(UnsafeBufferPointer(start: pointer, count: count))
        }
        defaultValues = isArray ? floats(p.default_values, p.default_count) : [p.default_value]
        identityValues = isArray ? floats(p.identity_values, p.identity_count) : [p.identity_value]
        xMin = p.x_min
        xMax = p.x_max
        maxPoints = p.max_points
        flags = p.flags
        choices = (0..<p.choice_count).map { String(cString: p.choices![$0]!) }
    }
}

/// One adjustment: its id, parameters and `apply`, called with `lookstudio_value`s built here.
struct GradeAdjustment: @unchecked Sendable {
    let raw: UnsafePointer<lookstudio_adjustment>

    init(_ raw: UnsafePointer<lookstudio_adjustment>) { self.raw = raw }

    var id: String { String(cString: raw.pointee.id) }
    var description: String { raw.pointee.description.map { String(cString: $0) } ?? "" }
    var parameters: [GradeParameter] {
        (0..<raw.pointee.parameter_count).map { GradeParameter(raw.pointee.parameters[$0]) }
    }

    /// Every parameter at its identity value, with `values` (by name) replacing some.
    func identity(_ values: [String: [Float]] = [:]) -> [[Float]] {
        parameters.map { values[$0.name] ?? $0.identityValues }
    }

    /// `apply` on `input` (interleaved RGB) with one value per parameter, in the descriptor's order.
    func apply(_ input: [Float], _ values: [[Float]]) -> [Float] {
        var output = [Float](repeating: .nan, count: input.count)
        withValues(values) { list in
            input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    raw.pointee.apply(source.baseAddress, target.baseAddress, input.count / 3, list)
                }
            }
        }
        return output
    }

    /// `apply` with every parameter at its identity except `values`, given by name.
    func apply(_ input: [Float], _ values: [String: [Float]]) -> [Float] { apply(input, identity(values)) }

    /// `apply` writing over its own input, as the host may call it.
    func applyInPlace(_ buffer: inout [Float], _ values: [String: [Float]]) {
        let count = buffer.count / 3
        withValues(identity(values)) { list in
            buffer.withUnsafeMutableBufferPointer { pixels in
                raw.pointee.apply(UnsafePointer(pixels.baseAddress), pixels.baseAddress, count, list)
            }
        }
    }

    /// The `lookstudio_value` array for `values`, valid during `body`.
    private func withValues(_ values: [[Float]], _ body: (UnsafePointer<lookstudio_value>?) -> Void) {
        let flat = values.flatMap { $0 }
        var starts: [Int] = []
        var offset = 0
        for v in values {
            starts.append(offset)
            offset += v.count
        }
        flat.withUnsafeBufferPointer { storage in
            let list = zip(values, starts).map { value, start in
                let pointer = value.isEmpty ? nil : storage.baseAddress.map { $0 + start }
                return lookstudio_value(values: pointer, count: value.count)
            }
            list.withUnsafeBufferPointer { body($0.baseAddress) }
        }
    }
}
