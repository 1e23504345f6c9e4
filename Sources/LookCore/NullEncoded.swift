/// An optional that is always written to JSON: `null` when absent, where a synthesised `Encodable` would leave the
/// key out. The `--json` contracts list every key, so absent values read as `null`, never as a missing key.
@propertyWrapper
public struct NullEncoded<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value, nil when absent.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullEncoded: Equatable where Value: Equatable {}

extension NullEncoded: Decodable where Value: Decodable {
    /// Reads `null` as absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as absent, as it does for a plain optional property: the synthesised decoding of a
    /// wrapped property asks for the key unconditionally.
    public func decode<Value: Decodable>(_ type: NullEncoded<Value>.Type,
                                         forKey key: Key) throws -> NullEncoded<Value> {
        NullEncoded(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
