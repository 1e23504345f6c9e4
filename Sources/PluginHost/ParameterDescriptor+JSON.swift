/// The JSON form of a parameter: part of the documented `--json` contract (docs/PLUGINS.md) and what the plugin host
/// sends its parent. A number parameter keeps the version 1 keys exactly; the keys of the other kinds appear only on
/// them.
extension ParameterDescriptor: Codable {
    enum CodingKeys: String, CodingKey {
        case name, description, kind, min, max, periodic, wheel, choices
        case displayName = "display_name"
        case defaultValue = "default"
        case identityValue = "identity"
        case xMin = "x_min"
        case xMax = "x_max"
        case maxPoints = "max_points"
    }

    /// Writes the keys of this parameter's kind; `default` and `identity` are a number, `[r, g, b]`,
    /// `[[x, y], …]` or an option name, as a recipe writes them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(description, forKey: .description)
        try c.encode(kind, forKey: .kind)
        try c.encode(min, forKey: .min)
        try c.encode(max, forKey: .max)
        try encode(defaultValue, forKey: .defaultValue, in: &c)
        try encode(identityValue, forKey: .identityValue, in: &c)
        switch kind {
        case .curve:
            try c.encode(xRange?.lowerBound ?? 0, forKey: .xMin)
            try c.encode(xRange?.upperBound ?? 0, forKey: .xMax)
            try c.encode(maxPoints, forKey: .maxPoints)
            try c.encode(isPeriodic, forKey: .periodic)
        case .color:
            try c.encode(isWheel, forKey: .wheel)
        case .choice:
            try c.encode(choices, forKey: .choices)
        case .scalar, .angle, .kelvin, .bool:
            break
        }
    }

    private func encode(_ value: ParameterValue, forKey key: CodingKeys,
                        in c: inout KeyedEncodingContainer<CodingKeys>) throws {
        switch value {
        case .number(let v): try c.encode(v, forKey: key)
        case .color(let rgb): try c.encode([rgb.x, rgb.y, rgb.z], forKey: key)
        case .curve(let points): try c.encode(points.map { [$0.x, $0.y] }, forKey: key)
        case .choice(let index): try c.encode(choices.indices.contains(index) ? choices[index] : "", forKey: key)
        }
    }

    /// Reads what ``encode(to:)`` writes; a default or identity that breaks ``problem(with:)`` is an error.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(ParameterKind.self, forKey: .kind)
        let choices = kind == .choice ? try c.decode([String].self, forKey: .choices) : []
        func value(_ key: CodingKeys) throws -> ParameterValue {
            switch kind {
            case .scalar, .angle, .kelvin, .bool:
                return .number(try c.decode(Float.self, forKey: key))
            case .color:
                let rgb = try c.decode([Float].self, forKey: key)
                guard rgb.count == 3 else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not three numbers")
                }
                return .color(SIMD3(rgb[0], rgb[1], rgb[2]))
            case .curve:
                let pairs = try c.decode([[Float]].self, forKey: key)
                guard pairs.allSatisfy({ $0.count == 2 }) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "points are [x, y]")
                }
                return .curve(pairs.map { SIMD2($0[0], $0[1]) })
            case .choice:
                let name = try c.decode(String.self, forKey: key)
                guard let index = choices.firstIndex(of: name) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "no option \(name)")
                }
                return .choice(index)
            }
        }
        let xRange: ClosedRange<Float>?
        if kind == .curve {
            let (low, high) = (try c.decode(Float.self, forKey: .xMin), try c.decode(Float.self, forKey: .xMax))
            guard low < high else {
                throw DecodingError.dataCorruptedError(forKey: .xMax, in: c,
                                                       debugDescription: "x_max is not above x_min")
            }
            xRange = low...high
        } else {
            xRange = nil
        }
        self.init(
            name: try c.decode(String.self, forKey: .name),
            displayName: try c.decode(String.self, forKey: .displayName),
            description: try c.decode(String.self, forKey: .description), kind: kind,
            min: try c.decode(Float.self, forKey: .min), max: try c.decode(Float.self, forKey: .max),
            defaultValue: try value(.defaultValue), identityValue: try value(.identityValue), xRange: xRange,
            maxPoints: kind == .curve ? try c.decode(Int.self, forKey: .maxPoints) : 0,
            isPeriodic: kind == .curve ? try c.decode(Bool.self, forKey: .periodic) : false,
            isWheel: kind == .color ? try c.decode(Bool.self, forKey: .wheel) : false, choices: choices)
        for value in [defaultValue, identityValue] {
            if let problem = problem(with: value) {
                throw DecodingError.dataCorruptedError(forKey: .defaultValue, in: c, debugDescription: problem)
            }
        }
    }
}
