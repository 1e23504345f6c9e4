import LookCore

/// A parameter's value as `apply` receives it, checked against its ``ParameterDescriptor``: the typed form of one
/// `lookstudio_value`.
public enum ParameterValue: Sendable, Hashable {
    /// A scalar, angle, kelvin or bool parameter: one number.
    case number(Float)
    /// A colour parameter: red, green, blue.
    case color(SIMD3<Float>)
    /// A curve parameter: control points (x, y), x strictly increasing.
    case curve([SIMD2<Float>])
    /// A choice parameter: the index of the option in ``ParameterDescriptor/choices``.
    case choice(Int)

    /// Most floats one value holds: a curve of ``ParameterDescriptor/maximumCurvePoints`` points.
    public static let maximumFloatCount = 2 * ParameterDescriptor.maximumCurvePoints

    /// How many floats `apply` receives for this value: 1 (a number or a choice), 3 (a colour) or 2·n (a curve).
    public var floatCount: Int {
        switch self {
        case .number, .choice: return 1
        case .color: return 3
        case .curve(let points): return 2 * points.count
        }
    }

    /// Writes the ``floatCount`` floats `apply` receives (a choice as its index) from `start` on.
    func write(to start: UnsafeMutablePointer<Float>) {
        switch self {
        case .number(let value):
            start[0] = value
        case .choice(let index):
            start[0] = Float(index)
        case .color(let rgb):
            start[0] = rgb.x
            start[1] = rgb.y
            start[2] = rgb.z
        case .curve(let points):
            for (i, point) in points.enumerated() {
                start[2 * i] = point.x
                start[2 * i + 1] = point.y
            }
        }
    }

    /// The floats `apply` receives, in order.
    public var floats: [Float] {
        [Float](unsafeUninitializedCapacity: floatCount) { buffer, count in
            if let start = buffer.baseAddress { write(to: start) }
            count = floatCount
        }
    }
}

/// A parameter's value as a recipe or a caller writes it, before it is checked against a ``ParameterDescriptor``:
/// numbers as written (Double, so a recipe reads back as it was written), a choice by its option name.
///
/// Literals build numbers and choices: `["amount": 0.25, "style": "no-clamp"]`. The JSON form (``Codable``) is a
/// number, `[r, g, b]`, `[[x, y], …]` or a string.
public enum ParameterSetting: Sendable, Hashable {
    /// A number (scalar, angle, kelvin; a bool as 0 or 1).
    case number(Double)
    /// A colour: red, green, blue.
    case color(SIMD3<Double>)
    /// A curve's control points (x, y).
    case curve([SIMD2<Double>])
    /// A choice's option, by name.
    case choice(String)

    /// What the setting is, for messages ("a number", "a colour", "a curve", "the option name \"fwd\"").
    public var shape: String {
        switch self {
        case .number: return "a number"
        case .color: return "a colour"
        case .curve: return "a curve"
        case .choice(let name): return "the option name \"\(name)\""
        }
    }

    /// Why these control points cannot be a curve whatever its descriptor (none, more than
    /// ``ParameterDescriptor/maximumCurvePoints``, x not strictly increasing, not finite), or nil.
    public static func curveProblem(_ points: [SIMD2<Double>]) -> String? {
        guard !points.isEmpty else { return "a curve needs at least one point [x, y]" }
        guard points.count <= ParameterDescriptor.maximumCurvePoints else {
            return "a curve has at most \(ParameterDescriptor.maximumCurvePoints) points, not \(points.count)"
        }
        for (i, point) in points.enumerated() {
            guard point.x.isFinite, point.y.isFinite else { return "point \(i + 1) is not two finite numbers" }
            if i > 0, !(point.x > points[i - 1].x) {
                return "point \(i + 1) x=\(ValueText.format(point.x)) is not after point \(i) "
                    + "x=\(ValueText.format(points[i - 1].x))"
            }
        }
        return nil
    }
}

extension ParameterSetting: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A choice's option name.
    public init(stringLiteral value: String) { self = .choice(value) }
}

extension ParameterSetting: Codable {
    /// Reads a number, a string (a choice), `[r, g, b]` (a colour) or `[[x, y], …]` (a curve); other shapes, a
    /// colour of other than three numbers and a curve ``curveProblem(_:)`` refuses are errors.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        func refuse(_ message: String) -> DecodingError {
            .dataCorruptedError(in: container, debugDescription: message)
        }
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let name = try? container.decode(String.self) {
            self = .choice(name)
        } else if let numbers = try? container.decode([Double].self) {
            guard numbers.count == 3 else { throw refuse("a colour is three numbers [r, g, b], not \(numbers.count)") }
            self = .color(SIMD3(numbers[0], numbers[1], numbers[2]))
        } else if let pairs = try? container.decode([[Double]].self) {
            guard pairs.count <= ParameterDescriptor.maximumCurvePoints else {
                throw refuse("a curve has at most \(ParameterDescriptor.maximumCurvePoints) points, not \(pairs.count)")
            }
            if let bad = pairs.firstIndex(where: { $0.count != 2 }) {
                throw refuse("point \(bad + 1) of a curve is [x, y], not \(pairs[bad].count) numbers")
            }
            let points = pairs.map { SIMD2($0[0], $0[1]) }
            if let problem = Self.curveProblem(points) { throw refuse(problem) }
            self = .curve(points)
        } else {
            throw refuse("a parameter value is a number, an option name, [r, g, b] or [[x, y], …]")
        }
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .choice(let name): try container.encode(name)
        case .color(let rgb): try container.encode([rgb.x, rgb.y, rgb.z])
        case .curve(let points): try container.encode(points.map { [$0.x, $0.y] })
        }
    }
}

extension ParameterSetting: CustomStringConvertible {
    /// Compact text for listings and reports: `0.25`, `(1.1, 1, 0.9)`, `[0,0 0.25,0.2 1,1]`, `no-clamp`; a curve
    /// of more than eight points shows its first six and its last.
    public var description: String { text(maximumPoints: 8) }

    /// As ``description``, every point of a curve shown.
    public var fullDescription: String { text(maximumPoints: .max) }

    private func text(maximumPoints: Int) -> String {
        switch self {
        case .number(let value):
            return ValueText.format(value)
        case .choice(let name):
            return name
        case .color(let rgb):
            return "(" + [rgb.x, rgb.y, rgb.z].map(ValueText.format).joined(separator: ", ") + ")"
        case .curve(let points):
            func pair(_ p: SIMD2<Double>) -> String { ValueText.format(p.x) + "," + ValueText.format(p.y) }
            guard points.count > maximumPoints else { return "[" + points.map(pair).joined(separator: " ") + "]" }
            let shown = points.prefix(6).map(pair) + ["…", pair(points[points.count - 1])]
            return "[" + shown.joined(separator: " ") + "] (\(points.count) points)"
        }
    }
}

/// Numbers as a person writes them in messages and listings: whole numbers without ".0", a Float by its shortest
/// decimal (0.2, not 0.20000000298023224).
enum ValueText {
    static func format(_ value: Double) -> String { TextNumber.format(value) }

    static func format(_ value: Float) -> String {
        value == value.rounded() && abs(value) < 1e7 ? String(Int(value)) : String(value)
    }
}
