import PluginABI

/// What a parameter holds; mirrors the header's `LOOKSTUDIO_PARAM_*` constants.
public enum ParameterKind: String, Sendable, Equatable, Codable, CaseIterable {
    case scalar, angle, kelvin, bool, curve, color, choice

    /// The kind for a C `kind` field, or nil for a value this host does not know.
    init?(abiValue: Int32) {
        switch abiValue {
        case Int32(LOOKSTUDIO_PARAM_SCALAR): self = .scalar
        case Int32(LOOKSTUDIO_PARAM_ANGLE): self = .angle
        case Int32(LOOKSTUDIO_PARAM_KELVIN): self = .kelvin
        case Int32(LOOKSTUDIO_PARAM_BOOL): self = .bool
        case Int32(LOOKSTUDIO_PARAM_CURVE): self = .curve
        case Int32(LOOKSTUDIO_PARAM_COLOR): self = .color
        case Int32(LOOKSTUDIO_PARAM_CHOICE): self = .choice
        default: return nil
        }
    }

    /// True for the kinds whose value is one number (scalar, angle, kelvin, bool): the only kinds of ABI version 1.
    public var isNumber: Bool {
        switch self {
        case .scalar, .angle, .kelvin, .bool: return true
        case .curve, .color, .choice: return false
        }
    }

    /// Unit suffix for listings ("°", " K"); scalars name their unit in the description instead.
    public var unitSuffix: String {
        switch self {
        case .angle: return "°"
        case .kelvin: return " K"
        case .scalar, .bool, .curve, .color, .choice: return ""
        }
    }
}

/// A Swift copy of one `lookstudio_parameter`: name, kind, ranges, default and the value at which it does nothing.
public struct ParameterDescriptor: Sendable, Equatable {
    /// Most control points a curve may declare (`LOOKSTUDIO_MAX_CURVE_POINTS`).
    public static let maximumCurvePoints = Int(LOOKSTUDIO_MAX_CURVE_POINTS)
    /// Most options a choice may declare (`LOOKSTUDIO_MAX_CHOICES`).
    public static let maximumChoices = Int(LOOKSTUDIO_MAX_CHOICES)

    /// Name used in recipes (`amount`, `stops`).
    public let name: String
    /// Label for people.
    public let displayName: String
    /// Unit and direction, as the plugin describes them (may be empty).
    public let description: String
    /// What the parameter holds.
    public let kind: ParameterKind
    /// Smallest accepted number: of the value (number kinds), of each component (colour), of each point's y (curve);
    /// 0 for a choice.
    public let min: Float
    /// Largest accepted number, as for ``min``; the last option's index for a choice.
    public let max: Float
    /// Value used when a recipe leaves the parameter out.
    public let defaultValue: ParameterValue
    /// Value at which the parameter has no effect (with every other parameter at its identity).
    public let identityValue: ParameterValue
    /// Curves: the range of each point's x; nil for the other kinds.
    public let xRange: ClosedRange<Float>?
    /// Curves: most control points a value may have; 0 for the other kinds.
    public let maxPoints: Int
    /// Curves: x wraps around (hue), so points lie in `xRange.lowerBound ≤ x < xRange.upperBound`.
    public let isPeriodic: Bool
    /// Colours: a colour wheel's offset, drawn as a wheel centred on the identity.
    public let isWheel: Bool
    /// Choices: the option names, in index order; empty for the other kinds.
    public let choices: [String]

    /// Creates a descriptor of any kind; the loader checks the invariants (``problem(with:)`` accepts the default and
    /// identity, curve and choice fields only on their kinds).
    public init(
        name: String, displayName: String, description: String, kind: ParameterKind, min: Float, max: Float,
        defaultValue: ParameterValue, identityValue: ParameterValue, xRange: ClosedRange<Float>? = nil,
        maxPoints: Int = 0, isPeriodic: Bool = false, isWheel: Bool = false, choices: [String] = []
    ) {
        self.name = name
        self.displayName = displayName
        self.description = description
        self.kind = kind
        self.min = min
        self.max = max
        self.defaultValue = defaultValue
        self.identityValue = identityValue
        self.xRange = xRange
        self.maxPoints = maxPoints
        self.isPeriodic = isPeriodic
        self.isWheel = isWheel
        self.choices = choices
    }

    /// Creates a number parameter (scalar, angle, kelvin, bool) from its default and identity numbers.
    public init(
        name: String, displayName: String, description: String, kind: ParameterKind,
        min: Float, max: Float, defaultValue: Float, identityValue: Float
    ) {
        self.init(name: name, displayName: displayName, description: description, kind: kind, min: min, max: max,
                  defaultValue: .number(defaultValue), identityValue: .number(identityValue))
    }

    /// The accepted range of a number, of each colour component, or of a curve point's y.
    public var range: ClosedRange<Float> { min...max }

    /// The fewest control points a curve value may have: one for a periodic curve (it wraps onto itself), else two.
    public var minPoints: Int { isPeriodic ? 1 : 2 }

    /// Why `value` is not acceptable for this parameter (its kind, count, ranges, order), or nil.
    ///
    /// The one rule book for a descriptor's own default and identity, for a recipe's values and for the values the
    /// plugin host receives; comparisons are in Float, the type the plugin declared its ranges in.
    public func problem(with value: ParameterValue) -> String? {
        switch (kind, value) {
        case (.scalar, .number(let v)), (.angle, .number(let v)), (.kelvin, .number(let v)), (.bool, .number(let v)):
            guard v.isFinite else { return "\(ValueText.format(v)) is not a finite number" }
            guard range.contains(v) else { return "\(ValueText.format(v)) is outside \(rangeText)" }
            guard kind != .bool || v == 0 || v == 1 else { return "\(ValueText.format(v)) is not 0 (off) or 1 (on)" }
            return nil
        case (.color, .color(let rgb)):
            for (channel, v) in zip(["red", "green", "blue"], [rgb.x, rgb.y, rgb.z]) where !range.contains(v) {
                let what = v.isFinite ? "is outside \(rangeText)" : "is not a finite number"
                return "\(channel) \(ValueText.format(v)) \(what)"
            }
            return nil
        case (.curve, .curve(let points)):
            return curveProblem(points)
        case (.choice, .choice(let index)):
            guard choices.indices.contains(index) else {
                return "option index \(index) is outside 0…\(choices.count - 1)"
            }
            return nil
        default:
            return "is \(kindPhrase), not \(value.kindPhrase)"
        }
    }

    private func curveProblem(_ points: [SIMD2<Float>]) -> String? {
        guard (minPoints...Swift.max(minPoints, maxPoints)).contains(points.count) else {
            return "has \(points.count) point\(points.count == 1 ? "" : "s"); give \(minPoints) to \(maxPoints)"
        }
        let xs = xRange ?? 0...0
        for (i, point) in points.enumerated() {
            let label = "point \(i + 1)"
            guard point.x.isFinite, point.y.isFinite else { return "\(label) is not two finite numbers" }
            if i > 0, !(point.x > points[i - 1].x) {
                return "\(label) x=\(ValueText.format(point.x)) is not after point \(i) "
                    + "x=\(ValueText.format(points[i - 1].x))"
            }
            guard xs.contains(point.x), !isPeriodic || point.x < xs.upperBound else {
                let bound = "\(ValueText.format(xs.lowerBound))…\(ValueText.format(xs.upperBound))"
                let periodic = isPeriodic ? " (periodic: x stays below \(ValueText.format(xs.upperBound)), the same "
                    + "place as \(ValueText.format(xs.lowerBound)))" : ""
                return "\(label) x=\(ValueText.format(point.x)) is outside \(bound)\(periodic)"
            }
            guard range.contains(point.y) else {
                return "\(label) y=\(ValueText.format(point.y)) is outside \(rangeText)"
            }
        }
        return nil
    }

    /// The range as `min…max`, in the unit of the kind.
    var rangeText: String { "\(ValueText.format(min))…\(ValueText.format(max))\(kind.unitSuffix)" }

    /// "a number (-1…1)", "a colour [r, g, b]", "a curve [[x, y], …]", "one of fwd, rev".
    var kindPhrase: String {
        switch kind {
        case .scalar, .angle, .kelvin: return "a number (\(rangeText))"
        case .bool: return "on/off (0 or 1)"
        case .color: return "a colour [r, g, b]"
        case .curve: return "a curve [[x, y], …]"
        case .choice: return "one of " + choices.joined(separator: ", ")
        }
    }

    /// `value` as a recipe writes it: numbers by their shortest decimal, a choice by its option name.
    public func setting(for value: ParameterValue) -> ParameterSetting {
        func decimal(_ v: Float) -> Double { Double("\(v)") ?? Double(v) }
        switch value {
        case .number(let v): return .number(decimal(v))
        case .color(let rgb): return .color(SIMD3(decimal(rgb.x), decimal(rgb.y), decimal(rgb.z)))
        case .curve(let points): return .curve(points.map { SIMD2(decimal($0.x), decimal($0.y)) })
        case .choice(let index):
            return choices.indices.contains(index) ? .choice(choices[index]) : .number(Double(index))
        }
    }

    /// The value a recipe's `setting` stands for, checked by ``problem(with:)``; the error says what is wrong.
    public func value(for setting: ParameterSetting) -> Result<ParameterValue, ParameterProblem> {
        let value: ParameterValue
        switch (kind, setting) {
        case (.scalar, .number(let v)), (.angle, .number(let v)), (.kelvin, .number(let v)), (.bool, .number(let v)):
            value = .number(Float(v))
        case (.color, .color(let rgb)):
            value = .color(SIMD3(Float(rgb.x), Float(rgb.y), Float(rgb.z)))
        case (.curve, .curve(let points)):
            value = .curve(points.map { SIMD2(Float($0.x), Float($0.y)) })
        case (.choice, .choice(let name)):
            guard let index = choices.firstIndex(of: name) else {
                return .failure(.unknownChoice(name, options: choices))
            }
            value = .choice(index)
        default:
            return .failure(.invalid("takes \(kindPhrase), not \(setting.shape)"))
        }
        return problem(with: value).map { .failure(.invalid($0)) } ?? .success(value)
    }

    /// The value the plugin host reads from `floats` (the evaluate frame's floats for this parameter), checked.
    func value(fromFloats floats: UnsafeBufferPointer<Float>) -> Result<ParameterValue, ParameterProblem> {
        let value: ParameterValue
        switch kind {
        case .scalar, .angle, .kelvin, .bool:
            guard floats.count == 1 else { return .failure(.invalid("\(floats.count) floats for a number")) }
            value = .number(floats[0])
        case .choice:
            guard floats.count == 1, let index = Int(exactly: floats[0]) else {
                return .failure(.invalid("not one whole option index"))
            }
            value = .choice(index)
        case .color:
            guard floats.count == 3 else { return .failure(.invalid("\(floats.count) floats for a colour")) }
            value = .color(SIMD3(floats[0], floats[1], floats[2]))
        case .curve:
            guard floats.count % 2 == 0 else { return .failure(.invalid("\(floats.count) floats for a curve")) }
            value = .curve((0..<(floats.count / 2)).map { SIMD2(floats[2 * $0], floats[2 * $0 + 1]) })
        }
        return problem(with: value).map { .failure(.invalid($0)) } ?? .success(value)
    }
}

/// Why a value does not fit its parameter.
public enum ParameterProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// A choice name that is not one of the options.
    case unknownChoice(String, options: [String])
    /// Any other rule broken, in words ("point 3 x=0.2 is not after point 2 x=0.25").
    case invalid(String)

    /// The problem in words, without the parameter's name.
    public var description: String {
        switch self {
        case .unknownChoice(let name, let options):
            return "has no option \"\(name)\": use one of " + options.joined(separator: ", ")
        case .invalid(let text):
            return text
        }
    }
}

extension ParameterValue {
    /// "a number", "a colour", "a curve", "an option".
    var kindPhrase: String {
        switch self {
        case .number: return "a number"
        case .color: return "a colour"
        case .curve: return "a curve"
        case .choice: return "an option"
        }
    }
}
