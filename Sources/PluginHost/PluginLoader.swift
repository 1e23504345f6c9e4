#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PluginABI

/// Checks a plugin descriptor in memory exactly as loading a file does, without `dlopen`: for the descriptor fuzzer
/// (Fuzz/plugindescriptor.swift) and for hosts that build descriptors themselves.
public enum PluginDescriptorCheck {
    /// Nil when `descriptor` would load, else the refusal naming `path` and the broken rule. `descriptor` points to a
    /// `lookstudio_plugin` of any ABI version (a `lookstudio_plugin_v1` when its `abi_version` is 1).
    public static func refusal(for descriptor: UnsafeRawPointer, path: String) -> PluginRefusal? {
        if case .failure(let refusal) = PluginLoader.check(descriptor, path: path) { return refusal }
        return nil
    }
}

/// Opens one plugin file and turns its C descriptor into checked Swift values, or says why it cannot.
enum PluginLoader {
    /// A plugin whose descriptor passed validation; its adjustments are not yet checked against other plugins.
    struct Candidate {
        let handle: UnsafeMutableRawPointer
        let name: String
        let version: String
        let abiVersion: UInt32
        let adjustments: [Adjustment]
    }

    /// What a descriptor that passed validation holds.
    struct Checked {
        let name: String
        let version: String
        let abiVersion: UInt32
        let adjustments: [Adjustment]
    }

    /// The ABI versions this host loads: its own, and version 1 through the frozen layouts of lookstudio_plugin_v1.h.
    static let supportedVersions: [UInt32] = [LOOKSTUDIO_PLUGIN_ABI_VERSION_1, LOOKSTUDIO_PLUGIN_ABI_VERSION]
    /// Upper bounds that keep a corrupt count from sending the host through gigabytes of memory.
    static let maximumAdjustments: UInt = 1024
    static let maximumParameters: UInt = 32
    /// Longest id, name, display name, category or version, in UTF-8 bytes; read with `strnlen`, never further.
    static let maximumNameBytes = 256
    /// Longest description, in UTF-8 bytes.
    static let maximumDescriptionBytes = 4096

    /// Loads `path` (absolute) with `RTLD_NOW | RTLD_LOCAL`, so missing symbols fail here and plugins cannot see
    /// each other's symbols (every plugin exports the same entry name).
    static func load(path: String) -> Result<Candidate, PluginRefusal> {
        func refuse(_ reason: PluginRefusal.Reason) -> Result<Candidate, PluginRefusal> {
            .failure(PluginRefusal(path: path, reason: reason))
        }
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return refuse(.notLoadable(lastError() ?? "dlopen failed"))
        }
        // Handles are never closed, even for refused files: unloading a library that links the Swift runtime is not
        // supported, and a library's constructors may already have run.
        _ = dlerror()
        guard let symbol = dlsym(handle, LOOKSTUDIO_PLUGIN_ENTRY_SYMBOL) else {
            return refuse(.missingEntry(lastError() ?? "symbol not found"))
        }
        let entry = unsafeBitCast(symbol, to: lookstudio_plugin_entry_fn.self)
        guard let descriptor = entry() else { return refuse(.nullDescriptor) }
        return check(descriptor, path: path).map {
            Candidate(handle: handle, name: $0.name, version: $0.version, abiVersion: $0.abiVersion,
                      adjustments: $0.adjustments)
        }
    }

    /// The ABI version, then every rule of the header, for a descriptor an entry function returned.
    static func check(_ descriptor: UnsafeRawPointer, path: String) -> Result<Checked, PluginRefusal> {
        // abi_version is the first field in every ABI version, so it is safe to read before trusting the layout.
        let version = descriptor.load(as: UInt32.self)
        let plugin: RawPlugin
        switch version {
        case LOOKSTUDIO_PLUGIN_ABI_VERSION:
            plugin = RawPlugin(descriptor.assumingMemoryBound(to: lookstudio_plugin.self).pointee)
        case LOOKSTUDIO_PLUGIN_ABI_VERSION_1:
            plugin = RawPlugin(descriptor.assumingMemoryBound(to: lookstudio_plugin_v1.self).pointee)
        default:
            let reason = PluginRefusal.Reason.abiMismatch(found: version, supported: supportedVersions)
            return .failure(PluginRefusal(path: path, reason: reason))
        }
        switch validate(plugin, path: path) {
        case .success(let (name, pluginVersion, adjustments)):
            return .success(Checked(name: name, version: pluginVersion, abiVersion: version, adjustments: adjustments))
        case .failure(let problem):
            return .failure(PluginRefusal(path: path, reason: .invalidDescriptor(problem.text)))
        }
    }

    private static func lastError() -> String? {
        guard let message = dlerror() else { return nil }
        return String(cString: message)
    }

    /// A validation failure, in words.
    struct Problem: Error {
        let text: String
    }

    /// Checks every rule the header states and copies the descriptor into Swift values.
    static func validate(_ plugin: RawPlugin, path: String) -> Result<(String, String, [Adjustment]), Problem> {
        do {
            let name = try string(plugin.name, "the plugin name", allowEmpty: false)
            let version = try string(plugin.version, "the plugin version", allowEmpty: true)
            let count = plugin.adjustmentCount
            guard (1...maximumAdjustments).contains(count) else {
                throw Problem(text: "adjustment_count is \(count); a plugin offers 1 to \(maximumAdjustments)")
            }
            guard plugin.hasAdjustments else {
                throw Problem(text: "adjustments is NULL but adjustment_count is \(count)")
            }
            var adjustments: [Adjustment] = []
            for index in 0..<Int(count) {
                let adjustment = try self.adjustment(
                    plugin.adjustment(index), index: index, path: path, pluginName: name, pluginVersion: version)
                if adjustments.contains(where: { $0.id == adjustment.id }) {
                    throw Problem(text: "adjustment id \(adjustment.id) appears twice")
                }
                adjustments.append(adjustment)
            }
            return .success((name, version, adjustments))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem(text: "\(error)"))
        }
    }

    private static func adjustment(
        _ raw: RawAdjustment, index: Int, path: String, pluginName: String, pluginVersion: String
    ) throws -> Adjustment {
        let id = try string(raw.id, "adjustment #\(index + 1)'s id", allowEmpty: false)
        guard isIdentifier(id, parts: 2) else {
            throw Problem(text: "adjustment id \"\(id)\" is not of the form domain.name (lowercase letters, digits "
                + "and _, each part starting with a letter, e.g. tone.contrast)")
        }
        let displayName = try string(raw.displayName, "\(id)'s display_name", allowEmpty: false)
        let category = try string(raw.category, "\(id)'s category", allowEmpty: false)
        let description = try raw.description.map {
            try string($0, "\(id)'s description", allowEmpty: true, limit: maximumDescriptionBytes)
        } ?? ""
        guard let function = raw.apply else { throw Problem(text: "\(id)'s apply function is NULL") }
        let count = raw.parameterCount
        guard count <= maximumParameters else {
            throw Problem(text: "\(id) declares \(count) parameters; the limit is \(maximumParameters)")
        }
        var parameters: [ParameterDescriptor] = []
        if count > 0 {
            guard raw.hasParameters else {
                throw Problem(text: "\(id)'s parameters is NULL but parameter_count is \(count)")
            }
            for index in 0..<Int(count) {
                let parameter = try self.parameter(
                    raw.parameter(index), index: index, adjustment: id, numbersOnly: raw.numbersOnly)
                if parameters.contains(where: { $0.name == parameter.name }) {
                    throw Problem(text: "\(id) has two parameters named \(parameter.name)")
                }
                parameters.append(parameter)
            }
        }
        return Adjustment(
            id: id, displayName: displayName, category: category, description: description, parameters: parameters,
            pluginPath: path, pluginName: pluginName, pluginVersion: pluginVersion, backend: .local(function))
    }

    /// The C string at `pointer`, refused when NULL, longer than `limit` bytes, not UTF-8 or holding a control
    /// character (text from a plugin is printed to terminals, so ESC and friends must not get through).
    static func string(
        _ pointer: UnsafePointer<CChar>?, _ what: String, allowEmpty: Bool, limit: Int = maximumNameBytes
    ) throws -> String {
        guard let pointer else { throw Problem(text: "\(what) is NULL") }
        // strnlen stops at limit + 1 bytes, so a megabyte-long (or unterminated) string is never read to its end.
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { throw Problem(text: "\(what) is longer than \(limit) bytes") }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(text: "\(what) is not valid UTF-8")
        }
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let code = "U+" + String(control.value, radix: 16, uppercase: true)
            throw Problem(text: "\(what) contains the control character \(code)")
        }
        guard allowEmpty || !text.isEmpty else { throw Problem(text: "\(what) is empty") }
        return text
    }

    /// `parts` dot-separated words of lowercase ASCII letters, digits and `_` (and `-` when `hyphens`, as option
    /// names allow), each starting with a letter.
    static func isIdentifier(_ text: String, parts: Int, hyphens: Bool = false) -> Bool {
        let words = text.split(separator: ".", omittingEmptySubsequences: false)
        guard words.count == parts else { return false }
        return words.allSatisfy { word in
            guard let first = word.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
                return false
            }
            return word.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                    || (hyphens && byte == UInt8(ascii: "-"))
            }
        }
    }
}
