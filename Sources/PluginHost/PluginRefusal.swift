/// A plugin file (or one adjustment in it) the host did not load, with the reason in words a user can act on.
public struct PluginRefusal: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Why the file or adjustment was refused.
    public enum Reason: Sendable, Equatable, Codable {
        /// A search folder that does not exist or cannot be listed.
        case unreadableDirectory(String)
        /// `dlopen` failed: not a shared library, another architecture, or a missing dependency.
        case notLoadable(String)
        /// The library has no `lookstudio_plugin_entry` symbol.
        case missingEntry(String)
        /// The entry returned NULL.
        case nullDescriptor
        /// The descriptor was built against a version of the header this host does not load; `supported` are the
        /// versions it does.
        case abiMismatch(found: UInt32, supported: [UInt32])
        /// The descriptor breaks a rule of the header (ids, names, ranges, NULL pointers).
        case invalidDescriptor(String)
        /// Another plugin, loaded earlier, already provides this adjustment id.
        case duplicateID(String, firstPath: String)
        /// The plugin-host process crashed, exited or hung while loading this file (a constructor or the entry).
        case crashedOnLoad(String)
        /// The plugin-host process could not be started or kept running.
        case hostUnavailable(String)

        /// Stable machine-readable name for `--json`.
        public var code: String {
            switch self {
            case .unreadableDirectory: return "unreadable_directory"
            case .notLoadable: return "not_loadable"
            case .missingEntry: return "missing_entry"
            case .nullDescriptor: return "null_descriptor"
            case .abiMismatch: return "abi_mismatch"
            case .invalidDescriptor: return "invalid_descriptor"
            case .duplicateID: return "duplicate_id"
            case .crashedOnLoad: return "crashed_on_load"
            case .hostUnavailable: return "host_unavailable"
            }
        }
    }

    /// The plugin file (or search folder) concerned.
    public let path: String
    /// The refused adjustment when the rest of the plugin loaded; nil when the whole file was refused.
    public let adjustmentID: String?
    /// Why.
    public let reason: Reason

    /// Creates a refusal.
    public init(path: String, adjustmentID: String? = nil, reason: Reason) {
        self.path = path
        self.adjustmentID = adjustmentID
        self.reason = reason
    }

    /// The reason as a sentence, without the path.
    public var message: String {
        switch reason {
        case .unreadableDirectory(let detail):
            return "plugin folder cannot be read: \(detail)"
        case .notLoadable(let detail):
            return "not a loadable shared library (\(detail))"
        case .missingEntry(let detail):
            return "no exported function lookstudio_plugin_entry (\(detail)); a plugin defines it with C linkage, "
                + "see docs/PLUGINS.md"
        case .nullDescriptor:
            return "lookstudio_plugin_entry returned NULL instead of a descriptor"
        case .abiMismatch(let found, let supported):
            let versions = supported.map(String.init)
            let list = versions.count > 1
                ? "versions " + versions.dropLast().joined(separator: ", ") + " and " + (versions.last ?? "")
                : "version " + versions.joined()
            return "built for plugin ABI version \(found), but this lookstudio loads \(list); rebuild "
                + "the plugin against this lookstudio's lookstudio_plugin.h"
        case .invalidDescriptor(let detail):
            return "invalid descriptor: \(detail)"
        case .duplicateID(let id, let firstPath):
            return "adjustment id \(id) is already provided by \(firstPath), which was found first; this one was "
                + "not loaded (give it an id in your own domain)"
        case .crashedOnLoad(let detail):
            return "the plugin \(detail) while being loaded; it was left out and the other plugins still load"
        case .hostUnavailable(let detail):
            return "cannot run the plugin host: \(detail); set $\(PluginHostConfiguration.executableVariable) to a "
                + "lookstudio executable, or set $\(PluginIsolation.inProcessVariable)=1 to load plugins into "
                + "this process"
        }
    }

    /// `path: message`, the form the CLI prints after `warning: `.
    public var description: String { "\(path): \(message)" }

    enum CodingKeys: String, CodingKey {
        case path, message
        case adjustmentID = "adjustment_id"
        case reason
    }

    /// Encodes the documented `--json` shape: path, adjustment_id (or null), reason code and message.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(adjustmentID, forKey: .adjustmentID)
        try container.encode(reason.code, forKey: .reason)
        try container.encode(message, forKey: .message)
    }
}
