import LookCore
import PluginHost
import Yams

/// A step's parameter values in YAML: a number (`0.25`, `true`), an option name (`no-clamp`), a colour
/// (`[1.1, 1.0, 0.9]`) or a curve (`[[0, 0], [0.25, 0.2], [1, 1]]`). The shape decides the kind; ranges, point
/// counts and option names are checked against the plugin when the recipe is composed, since they depend on it.
extension RecipeParser {
    /// The value written in `node` for parameter `name`; `error` places a complaint on a node's line.
    func setting(_ node: Node, name: String, error: (Node?, String) -> RecipeError) throws(RecipeError)
        -> ParameterSetting
    {
        let what = "parameter \(name)"
        switch node {
        case .scalar(let scalar):
            return try scalarSetting(node, scalar, what: what, error: error)
        case .sequence(let items) where !items.isEmpty && items.allSatisfy({ $0.scalar != nil }):
            guard items.count == 3 else {
                throw error(node, "\(what): a colour is three numbers [r, g, b], not \(items.count)")
            }
            let rgb = try items.map { (item) throws(RecipeError) in try number(item, what: what, error: error) }
            return .color(SIMD3(rgb[0], rgb[1], rgb[2]))
        case .sequence(let items) where !items.isEmpty && items.allSatisfy({ $0.sequence != nil }):
            return .curve(try points(Array(items), node: node, what: what, error: error))
        default:
            throw error(node, "\(what) must be \(Self.shapes)")
        }
    }

    /// The forms a value may take, for messages.
    private static let shapes = "a number, an option name, a colour [r, g, b] or a curve [[x, y], …]"

    private func scalarSetting(
        _ node: Node, _ scalar: Node.Scalar, what: String, error: (Node?, String) -> RecipeError
    ) throws(RecipeError) -> ParameterSetting {
        // A quoted scalar is text whatever it spells, so an option named like a number or a bool survives a round trip.
        guard scalar.style == .plain || scalar.style == .any else { return .choice(scalar.string) }
        let text = scalar.string
        if ["true", "false"].contains(text.lowercased()) || node.float != nil || node.int != nil {
            return .number(try number(node, what: what, error: error))
        }
        guard Self.isOptionName(text) else { throw error(node, "\(what) must be \(Self.shapes), not \"\(text)\"") }
        return .choice(text)
    }

    /// What a plugin may name an option: lowercase letters, digits, `_` and `-`, starting with a letter.
    static func isOptionName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            || $0 == "-" }
    }

    /// A curve's points, each `[x, y]`, at most ``ParameterDescriptor/maximumCurvePoints``, x strictly increasing;
    /// a complaint about one point names that point's line.
    private func points(_ items: [Node], node: Node, what: String, error: (Node?, String) -> RecipeError)
        throws(RecipeError) -> [SIMD2<Double>]
    {
        let most = ParameterDescriptor.maximumCurvePoints
        guard items.count <= most else {
            throw error(node, "\(what): a curve has at most \(most) points, not \(items.count)")
        }
        var points: [SIMD2<Double>] = []
        for (i, item) in items.enumerated() {
            let label = "\(what): point \(i + 1)"
            guard let pair = item.sequence, pair.count == 2 else {
                throw error(item, "\(label) must be [x, y], not \(item.sequence?.count ?? 0) numbers")
            }
            let x = try number(pair[0], what: "\(label) x", error: error)
            let y = try number(pair[1], what: "\(label) y", error: error)
            if let previous = points.last, !(x > previous.x) {
                throw error(item, "\(label) x=\(TextNumber.format(x)) is not after point \(i) "
                    + "x=\(TextNumber.format(previous.x))")
            }
            points.append(SIMD2(x, y))
        }
        return points
    }
}

extension YAMLText {
    /// A parameter value in the form ``RecipeParser/setting(_:name:error:)`` reads back to the same value.
    static func setting(_ setting: ParameterSetting) -> String {
        switch setting {
        case .number(let value):
            return TextNumber.format(value)
        case .choice(let name):
            return scalar(name)
        case .color(let rgb):
            return "[" + [rgb.x, rgb.y, rgb.z].map(TextNumber.format).joined(separator: ", ") + "]"
        case .curve(let points):
            return "[" + points.map { "[\(TextNumber.format($0.x)), \(TextNumber.format($0.y))]" }
                .joined(separator: ", ") + "]"
        }
    }
}
