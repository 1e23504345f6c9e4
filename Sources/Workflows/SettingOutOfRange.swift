import Correction

/// A setting given outside its range, by the name the engine gives it ("look-strength", "white-balance"), for a front
/// end to say as its own option or field.
public struct SettingOutOfRange: Sendable, Equatable {
    /// The setting's words joined by dashes.
    public let name: String
    /// The value given.
    public let value: Double
    /// The values the setting takes.
    public let range: ClosedRange<Double>

    /// The setting `error` is about, when it is a setting out of its range.
    public init?(_ error: any Error) {
        guard case CorrectionError.outOfRange(let name, let value, let range) = error else { return nil }
        (self.name, self.value, self.range) = (name, value, range)
    }
}
