/// Errors from the correction engine: parameters out of range, a look that cannot be used.
public enum CorrectionError: Error, Equatable, CustomStringConvertible {
    /// A parameter is outside its range; `name` is the CLI flag's name without dashes.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>)
    /// A look GUID was asked for but no cube was supplied for it.
    case lookMissing(guid: String)

    public var description: String {
        switch self {
        case .outOfRange(let name, let value, let range):
            return "--\(name) \(Self.number(value)) is out of range: use \(Self.number(range.lowerBound))…"
                + "\(Self.number(range.upperBound))"
        case .lookMissing(let guid):
            return "look \(guid) was not found in the catalog (list looks with `lookstudio looks list`)"
        }
    }

    private static func number(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}
