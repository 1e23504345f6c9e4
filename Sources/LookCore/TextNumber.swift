/// Numbers as a person writes them in a message: whole numbers without ".0".
public enum TextNumber {
    /// `40` for 40.0, `40.5` for 40.5.
    public static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
