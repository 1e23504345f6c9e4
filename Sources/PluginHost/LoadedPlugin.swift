/// A plugin file the registry loaded: its name, version and the adjustments it contributed.
public struct LoadedPlugin: Sendable, Equatable, Codable {
    /// Absolute path of the shared library.
    public let path: String
    /// The plugin's name from its descriptor.
    public let name: String
    /// The plugin's version string from its descriptor.
    public let version: String
    /// The plugin ABI version it was built for (1: numbers only, read through the version 1 layouts; 2: typed).
    public let abiVersion: UInt32
    /// Ids of the adjustments it contributed (a duplicate refused elsewhere is not listed).
    public let adjustmentIDs: [String]

    // The JSON keys are part of the documented `--json` contract (docs/PLUGINS.md).
    enum CodingKeys: String, CodingKey {
        case path, name, version
        case abiVersion = "abi_version"
        case adjustmentIDs = "adjustment_ids"
    }
}
