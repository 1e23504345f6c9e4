import PluginABI

/// The rules of one `lookstudio_parameter`, per kind; every refusal names the adjustment and the parameter.
extension PluginLoader {
    static func parameter(_ raw: lookstudio_parameter, index: Int, adjustment id: String, numbersOnly: Bool) throws
        -> ParameterDescriptor
    {
        let name = try string(raw.name, "\(id) parameter #\(index + 1)'s name", allowEmpty: false)
        let label = "\(id) parameter \(name)"
        func problem(_ text: String) -> Problem { Problem(text: "\(label): \(text)") }
        guard isIdentifier(name, parts: 1) else {
            throw problem("the name must be lowercase letters, digits and _, starting with a letter")
        }
        let displayName = try string(raw.display_name, "\(label)'s display_name", allowEmpty: false)
        let description = try raw.description.map {
            try string($0, "\(label)'s description", allowEmpty: true, limit: maximumDescriptionBytes)
        } ?? ""
        guard let kind = ParameterKind(abiValue: raw.kind), !numbersOnly || kind.isNumber else {
            throw problem(numbersOnly
                ? "kind \(raw.kind) is not one of 0 (scalar), 1 (angle), 2 (kelvin), 3 (bool) (ABI version 1)"
                : "kind \(raw.kind) is not one of 0 (scalar), 1 (angle), 2 (kelvin), 3 (bool), 4 (curve), "
                    + "5 (color), 6 (choice)")
        }
        guard raw.min.isFinite, raw.max.isFinite else {
            throw problem(kind.isNumber ? "min, max, default and identity must be finite numbers"
                : "min and max must be finite numbers")
        }
        guard raw.min <= raw.max else {
            throw problem("min \(raw.min) is greater than max \(raw.max)")
        }
        try checkFlags(raw.flags, kind: kind, problem: problem)
        let fields = ParameterFields(name: name, displayName: displayName, description: description, kind: kind)
        let descriptor: ParameterDescriptor
        switch kind {
        case .scalar, .angle, .kelvin, .bool: descriptor = try number(raw, fields, problem: problem)
        case .color: descriptor = try color(raw, fields, problem: problem)
        case .curve: descriptor = try curve(raw, fields, problem: problem)
        case .choice: descriptor = try choice(raw, fields, label: label, problem: problem)
        }
        for (what, value) in [("default", descriptor.defaultValue), ("identity value", descriptor.identityValue)] {
            if let broken = descriptor.problem(with: value) { throw problem("\(what): \(broken)") }
        }
        return descriptor
    }

    /// The fields every kind has, already checked.
    private struct ParameterFields {
        let name: String
        let displayName: String
        let description: String
        let kind: ParameterKind
    }

    private static func checkFlags(_ flags: UInt32, kind: ParameterKind, problem: (String) -> Problem) throws {
        let known = UInt32(LOOKSTUDIO_FLAG_PERIODIC | LOOKSTUDIO_FLAG_WHEEL)
        guard flags & ~known == 0 else {
            throw problem("flags 0x\(String(flags, radix: 16)) has bits that are not LOOKSTUDIO_FLAG_PERIODIC (1) or "
                + "LOOKSTUDIO_FLAG_WHEEL (2)")
        }
        if flags & UInt32(LOOKSTUDIO_FLAG_PERIODIC) != 0 && kind != .curve {
            throw problem("LOOKSTUDIO_FLAG_PERIODIC is for curves, and this is a \(kind.rawValue)")
        }
        if flags & UInt32(LOOKSTUDIO_FLAG_WHEEL) != 0 && kind != .color {
            throw problem("LOOKSTUDIO_FLAG_WHEEL is for colours, and this is a \(kind.rawValue)")
        }
    }

    /// Refuses the fields of other kinds, which the header asks to leave NULL and 0: a value put there by mistake
    /// would otherwise be silently ignored.
    private static func checkUnused(_ raw: lookstudio_parameter, kind: ParameterKind, problem: (String) -> Problem)
        throws
    {
        let owner = kind.rawValue
        if kind != .curve && kind != .color {
            guard raw.default_values == nil, raw.default_count == 0, raw.identity_values == nil,
                  raw.identity_count == 0 else {
                throw problem("default_values and identity_values are for curves and colours; a \(owner) leaves them "
                    + "NULL and 0 and uses default_value and identity_value")
            }
        }
        if kind != .curve {
            guard raw.x_min == 0, raw.x_max == 0, raw.max_points == 0 else {
                throw problem("x_min, x_max and max_points are for curves; a \(owner) leaves them 0")
            }
        }
        if kind != .choice {
            guard raw.choices == nil, raw.choice_count == 0 else {
                throw problem("choices are for choice parameters; a \(owner) leaves them NULL and 0")
            }
        }
    }

    private static func number(_ raw: lookstudio_parameter, _ fields: ParameterFields, problem: (String) -> Problem)
        throws -> ParameterDescriptor
    {
        try checkUnused(raw, kind: fields.kind, problem: problem)
        let (min, max, initial, identity) = (raw.min, raw.max, raw.default_value, raw.identity_value)
        guard initial.isFinite, identity.isFinite else {
            throw problem("min, max, default and identity must be finite numbers")
        }
        guard (min...max).contains(initial) else {
            throw problem("default \(initial) is outside its range \(min)…\(max)")
        }
        guard (min...max).contains(identity) else {
            throw problem("identity value \(identity) is outside its range \(min)…\(max)")
        }
        if fields.kind == .bool {
            guard min == 0, max == 1, initial == 0 || initial == 1, identity == 0 || identity == 1 else {
                throw problem("a bool parameter has min 0, max 1, and default and identity 0 or 1")
            }
        }
        return ParameterDescriptor(
            name: fields.name, displayName: fields.displayName, description: fields.description, kind: fields.kind,
            min: min, max: max, defaultValue: initial, identityValue: identity)
    }

    private static func color(_ raw: lookstudio_parameter, _ fields: ParameterFields, problem: (String) -> Problem)
        throws -> ParameterDescriptor
    {
        try checkUnused(raw, kind: .color, problem: problem)
        func rgb(_ pointer: UnsafePointer<Float>?, _ count: Int, _ field: String) throws -> ParameterValue {
            let values = try floats(pointer, count, field, allowed: 3...3, rule: "a colour has 3", problem: problem)
            return .color(SIMD3(values[0], values[1], values[2]))
        }
        return ParameterDescriptor(
            name: fields.name, displayName: fields.displayName, description: fields.description, kind: .color,
            min: raw.min, max: raw.max, defaultValue: try rgb(raw.default_values, raw.default_count, "default"),
            identityValue: try rgb(raw.identity_values, raw.identity_count, "identity"),
            isWheel: raw.flags & UInt32(LOOKSTUDIO_FLAG_WHEEL) != 0)
    }

    private static func curve(_ raw: lookstudio_parameter, _ fields: ParameterFields, problem: (String) -> Problem)
        throws -> ParameterDescriptor
    {
        try checkUnused(raw, kind: .curve, problem: problem)
        let (low, high) = (raw.x_min, raw.x_max)
        guard low.isFinite, high.isFinite, low < high else {
            throw problem("x_min \(ValueText.format(low)) must be a finite number below x_max "
                + ValueText.format(high))
        }
        let most = UInt(bitPattern: raw.max_points)
        guard (2...UInt(ParameterDescriptor.maximumCurvePoints)).contains(most) else {
            throw problem("max_points is \(most); a curve declares 2 to \(ParameterDescriptor.maximumCurvePoints)")
        }
        let periodic = raw.flags & UInt32(LOOKSTUDIO_FLAG_PERIODIC) != 0
        let fewest = periodic ? 1 : 2
        func points(_ pointer: UnsafePointer<Float>?, _ count: Int, _ field: String) throws -> ParameterValue {
            let rule = "a curve of \(fewest) to \(most) points (x y pairs) has \(2 * fewest) to \(2 * most)"
            let values = try floats(pointer, count, field, allowed: (2 * fewest)...(2 * Int(most)), rule: rule,
                                    problem: problem)
            guard values.count % 2 == 0 else { throw problem("\(field)_count is \(values.count): \(rule), in pairs") }
            return .curve((0..<(values.count / 2)).map { SIMD2(values[2 * $0], values[2 * $0 + 1]) })
        }
        return ParameterDescriptor(
            name: fields.name, displayName: fields.displayName, description: fields.description, kind: .curve,
            min: raw.min, max: raw.max, defaultValue: try points(raw.default_values, raw.default_count, "default"),
            identityValue: try points(raw.identity_values, raw.identity_count, "identity"), xRange: low...high,
            maxPoints: Int(most), isPeriodic: periodic)
    }

    private static func choice(
        _ raw: lookstudio_parameter, _ fields: ParameterFields, label: String, problem: (String) -> Problem
    ) throws -> ParameterDescriptor {
        try checkUnused(raw, kind: .choice, problem: problem)
        let count = UInt(bitPattern: raw.choice_count)
        let most = ParameterDescriptor.maximumChoices
        guard (2...UInt(most)).contains(count) else {
            throw problem("choice_count is \(count); a choice has 2 to \(most)")
        }
        guard let list = raw.choices else { throw problem("choices is NULL but choice_count is \(count)") }
        var options: [String] = []
        for index in 0..<Int(count) {
            let option = try string(list[index], "\(label) option #\(index + 1)", allowEmpty: false)
            guard isIdentifier(option, parts: 1, hyphens: true) else {
                throw problem("option \"\(option)\" must be lowercase letters, digits, _ and -, starting with a letter")
            }
            guard !options.contains(option) else { throw problem("option \"\(option)\" appears twice") }
            options.append(option)
        }
        guard raw.min == 0, raw.max == Float(count - 1) else {
            throw problem("a choice has min 0 and max \(count - 1) (its last option's index), not "
                + "\(ValueText.format(raw.min)) and \(ValueText.format(raw.max))")
        }
        func index(_ value: Float, _ what: String) throws -> ParameterValue {
            guard let index = Int(exactly: value), options.indices.contains(index) else {
                throw problem("\(what) option index \(ValueText.format(value)) is not one of 0…\(count - 1)")
            }
            return .choice(index)
        }
        return ParameterDescriptor(
            name: fields.name, displayName: fields.displayName, description: fields.description, kind: .choice,
            min: raw.min, max: raw.max, defaultValue: try index(raw.default_value, "default"),
            identityValue: try index(raw.identity_value, "identity"), choices: options)
    }

    /// The `count` floats at `pointer` (`default_values`, `identity_values`), the count checked against `allowed`
    /// before anything is read.
    private static func floats(
        _ pointer: UnsafePointer<Float>?, _ count: Int, _ field: String, allowed: ClosedRange<Int>, rule: String,
        problem: (String) -> Problem
    ) throws -> [Float] {
        let unsigned = UInt(bitPattern: count)
        guard unsigned <= UInt(allowed.upperBound), allowed.contains(count) else {
            throw problem("\(field)_count is \(unsigned): \(rule)")
        }
        guard let pointer else { throw problem("\(field)_values is NULL but \(field)_count is \(count)") }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }
}
