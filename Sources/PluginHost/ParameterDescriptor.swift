import PluginABI

/// What a parameter's number means; mirrors the header's `LOOKSTUDIO_PARAM_*` constants.
public enum ParameterKind: String, Sendable, Equatable, Codable, CaseIterable {
    case scalar, angle, kelvin, bool

    /// The kind for a C `kind` field, or nil for a value this host does not know.
    init?(abiValue: Int32) {
        switch abiValue {
        case Int32(LOOKSTUDIO_PARAM_SCALAR): self = .scalar
        case Int32(LOOKSTUDIO_PARAM_ANGLE): self = .angle
        case Int32(LOOKSTUDIO_PARAM_KELVIN): self = .kelvin
        case Int32(LOOKSTUDIO_PARAM_BOOL): self = .bool
        default: return nil
        }
    }

    /// Unit suffix for listings ("°", " K"); scalars name their unit in the description instead.
    public var unitSuffix: String {
        switch self {
        case .angle: return "°"
        case .kelvin: return " K"
        case .scalar, .bool: return ""
        }
    }
}

/// A Swift copy of one `lookstudio_parameter`: name, kind, range, default and the value at which it does nothing.
public struct ParameterDescriptor: Sendable, Equatable, Codable {
    /// Name used in recipes (`amount`, `stops`).
    public let name: String
    /// Label for people.
    public let displayName: String
    /// Unit and direction, as the plugin describes them (may be empty).
    public let description: String
    /// How to read the number.
    public let kind: ParameterKind
    /// Smallest accepted value.
    public let min: Float
    /// Largest accepted value.
    public let max: Float
    /// Value used when a recipe leaves the parameter out.
    public let defaultValue: Float
    /// Value at which the parameter has no effect.
    public let identityValue: Float

    /// Creates a descriptor; the loader checks the invariants (min ≤ default ≤ max, identity in range).
    public init(
        name: String, displayName: String, description: String, kind: ParameterKind,
        min: Float, max: Float, defaultValue: Float, identityValue: Float
    ) {
        self.name = name
        self.displayName = displayName
        self.description = description
        self.kind = kind
        self.min = min
        self.max = max
        self.defaultValue = defaultValue
        self.identityValue = identityValue
    }

    /// The accepted range.
    public var range: ClosedRange<Float> { min...max }

    // The JSON keys are part of the documented `--json` contract (docs/PLUGINS.md).
    enum CodingKeys: String, CodingKey {
        case name, description, kind, min, max
        case displayName = "display_name"
        case defaultValue = "default"
        case identityValue = "identity"
    }
}
