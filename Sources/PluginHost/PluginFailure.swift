/// A plugin that failed while evaluating: which file, adjustment and recipe step, and what happened.
public struct PluginFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Absolute path of the plugin file.
    public let path: String
    /// The adjustment being evaluated.
    public let adjustmentID: String
    /// The 1-based recipe step, when the caller gave one.
    public let step: Int?
    /// What happened, as a phrase ("crashed with signal 11 (Segmentation fault)").
    public let problem: String

    /// Creates a failure.
    public init(path: String, adjustmentID: String, step: Int?, problem: String) {
        self.path = path
        self.adjustmentID = adjustmentID
        self.step = step
        self.problem = problem
    }

    /// `plugin PATH (adjustment ID, recipe step N): what happened`.
    public var description: String {
        let place = step.map { "adjustment \(adjustmentID), recipe step \($0)" } ?? "adjustment \(adjustmentID)"
        return "plugin \(path) (\(place)): \(problem)"
    }
}

/// The check every plugin output passes before the composer uses it.
public enum PluginOutputCheck {
    /// Largest magnitude accepted in an output. Colours are 0…1; a few units of headroom are legitimate between
    /// steps, but 1e30 is garbage that would otherwise be clamped silently into a plausible-looking cube.
    public static let limit: Float = 1024

    /// Why `values` are unacceptable (the first NaN, infinity or out-of-range value, with its point), or nil.
    public static func problem(in values: UnsafeBufferPointer<Float>) -> String? {
        // One branch-free pass over the whole buffer (vectorised); the offending value is looked for only on failure.
        var bad = 0
        for value in values { bad &+= value.magnitude <= limit ? 0 : 1 }
        guard bad > 0, let index = values.firstIndex(where: { !($0.magnitude <= limit) }) else { return nil }
        let value = values[index]
        let point = "point \(index / 3 + 1) of \(values.count / 3)"
        if value.isNaN { return "returned NaN (first at \(point)); an adjustment must return finite numbers" }
        if value.isInfinite {
            return "returned \(value > 0 ? "+" : "-")infinity (first at \(point)); an adjustment must return finite "
                + "numbers"
        }
        return "returned \(value) (first at \(point)), outside ±\(Int(limit)); an adjustment returns colours near "
            + "0…1"
    }
}
