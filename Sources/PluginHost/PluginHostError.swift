import LookCore

/// Errors from using the adjustment registry: unknown adjustments and parameters a caller or recipe got wrong.
///
/// Problems with plugin files are not errors but ``PluginRefusal``s, so that one bad file never stops the others.
public enum PluginHostError: Error, Equatable, CustomStringConvertible {
    // Problems with plugin files while loading are ``PluginRefusal``s; problems while evaluating are `pluginFailed`.
    case unknownAdjustment(id: String, known: [String])
    case unknownParameter(adjustment: String, name: String, known: [String])
    case parameterOutOfRange(adjustment: String, name: String, value: Double, min: Float, max: Float)
    case parameterNotBoolean(adjustment: String, name: String, value: Double)
    case parameterNotFinite(adjustment: String, name: String)
    /// A curve, colour or choice value (or a value of the wrong kind) that breaks its parameter's rules; `problem`
    /// says which ("point 3 x=0.2 is not after point 2 x=0.25").
    case invalidParameter(adjustment: String, name: String, problem: String)
    /// A choice given an option name the parameter does not have; `options` are the names it has.
    case unknownChoice(adjustment: String, name: String, given: String, options: [String])
    /// The plugin crashed, exited, hung or returned garbage while evaluating.
    case pluginFailed(PluginFailure)
    /// A plugin time limit that is not a number of seconds in range: the text given, and the variable it came from
    /// (nil: the caller's own setting).
    case invalidTimeout(String, from: String?)
    /// A plugin host memory cap that is not a whole number of MiB in range: the text given, and the variable it came
    /// from (nil: the caller's own option).
    case invalidMemory(String, from: String?)

    public var description: String {
        switch self {
        case .unknownAdjustment(let id, let known):
            let near = MessageText.nearest(to: id, among: known)
            let guess = near.isEmpty ? "" : "did you mean " + near.map { "\"\($0)\"" }.joined(separator: " or ") + "? "
            let list = known.isEmpty ? "no plugins are loaded" : "known: " + known.joined(separator: ", ")
            return "no adjustment \"\(id)\"; \(guess)(\(list))"
        case .unknownParameter(let adjustment, let name, let known):
            let list = known.isEmpty ? "it takes no parameters" : "it takes " + known.joined(separator: ", ")
            return "\(adjustment) has no parameter \"\(name)\" (\(list))"
        case .parameterOutOfRange(let adjustment, let name, let value, let min, let max):
            return "\(adjustment) parameter \(name) = \(value) is out of range: use \(min)…\(max)"
        case .parameterNotBoolean(let adjustment, let name, let value):
            return "\(adjustment) parameter \(name) is on/off: use 0 or 1, not \(value)"
        case .parameterNotFinite(let adjustment, let name):
            return "\(adjustment) parameter \(name) must be a finite number"
        case .invalidParameter(let adjustment, let name, let problem):
            return "\(adjustment) parameter \(name): \(problem)"
        case .unknownChoice(let adjustment, let name, let given, let options):
            return "\(adjustment) parameter \(name) has no option \"\(given)\": use one of "
                + options.joined(separator: ", ")
        case .pluginFailed(let failure):
            return failure.description
        case .invalidTimeout(let text, let source):
            return "\(source ?? "the plugin time limit") \(Self.timeoutRule(given: text))"
        case .invalidMemory(let text, let source):
            return "\(source.map { "$" + $0 + ": " } ?? "")the plugin host's memory cap must be "
                + "\(Self.memoryAmount) (got \"\(text)\")"
        }
    }

    /// What a memory cap must be: the words every front end's message shares.
    public static var memoryAmount: String {
        let range = PluginHostConfiguration.memoryRange
        return "a whole number of MiB from \(range.lowerBound) to \(range.upperBound), such as 8192"
    }

    /// What a plugin time limit must be, with the text given: the part of the message every front end shares.
    public static func timeoutRule(given text: String) -> String {
        let most = TextNumber.format(PluginHostConfiguration.maximumTimeout)
        return "must be a number of seconds above 0 and at most \(most), such as 30 or 2.5 (got \"\(text)\")"
    }
}
