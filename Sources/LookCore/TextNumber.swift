/// Numbers as a person writes them in a message: whole numbers without ".0".
public enum TextNumber {
    /// `40` for 40.0, `40.5` for 40.5.
    public static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// `look strength 250 is out of range: use 0…200`: how a setting outside its range is said.
    public static func outOfRange(_ setting: String, _ value: Double, _ range: ClosedRange<Double>) -> String {
        "\(setting) \(format(value)) is out of range: use \(format(range.lowerBound))…\(format(range.upperBound))"
    }

    /// The same for whole numbers: `--quality 0 is out of range: use 1…100`.
    public static func outOfRange(_ setting: String, _ value: Int, _ range: ClosedRange<Int>) -> String {
        outOfRange(setting, Double(value), Double(range.lowerBound)...Double(range.upperBound))
    }
}
