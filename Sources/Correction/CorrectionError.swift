import LookCore

/// Errors from the correction stage: parameters out of range, a look asked for but not supplied.
public enum CorrectionError: Error, Equatable, CustomStringConvertible {
    /// A correction parameter is outside its range; `name` is the setting's, its words joined by dashes
    /// ("look-strength"), which a front end may turn into its own option or field.
    case outOfRange(name: String, value: Double, range: ClosedRange<Double>)
    /// A look GUID was asked for but no cube was supplied for it.
    case lookMissing(guid: String)
    /// The learned correction model could not be loaded (the reason names the file).
    case model(String)
    /// A neutral reference (`--neutral`, `--grey-card`) that cannot be read: the message says where and why.
    case neutral(String)

    public var description: String {
        switch self {
        case .outOfRange(let name, let value, let range):
            return TextNumber.outOfRange(name.replacingOccurrences(of: "-", with: " "), value, range)
        case .lookMissing(let guid):
            return "look \(guid) was not found in the catalog"
        case .model(let why), .neutral(let why):
            return why
        }
    }
}
