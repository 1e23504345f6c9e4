import Foundation
import LookCore
import Pixels
import PluginHost
import YAMLScreen
import Yams

/// One link of a recipe's chain: an adjustment, a catalog look or a LUT file, with its strength.
public struct RecipeStep: Sendable, Equatable, Codable {
    /// What the step does.
    public enum Operation: Sendable, Equatable {
        /// A plugin adjustment by id, with parameter values by name (missing ones take their defaults): numbers,
        /// colours, curves and option names, checked against the plugin's descriptors when the recipe is composed.
        case adjust(id: String, params: [String: ParameterSetting])
        /// A catalog look by name or GUID.
        case look(String)
        /// A LUT file (.cube, .3dl or cube PNG); a relative path is relative to the recipe file.
        case lut(String)
    }

    /// What the step does.
    public var operation: Operation
    /// Percent: 0 leaves the step's input unchanged, 100 is the step as given; up to 200 for looks and LUTs.
    public var strength: Double
    /// Line of the step in its YAML file (1-based), for messages; not part of the step's meaning.
    public var line: Int?
    /// Line of each parameter in its YAML file, for messages.
    var parameterLines: [String: Int] = [:]

    /// A step; `line` only serves error messages.
    public init(_ operation: Operation, strength: Double = 100, line: Int? = nil) {
        self.operation = operation
        self.strength = strength
        self.line = line
    }

    /// How the step names itself in messages: the adjustment id, `look NAME` or `lut FILE`.
    public var id: String {
        switch operation {
        case .adjust(let id, _): return id
        case .look(let name): return "look \(name)"
        case .lut(let file): return "lut \(file)"
        }
    }

    /// Largest strength the step accepts: looks and LUTs may be exaggerated up to 200 (BRIEF §1), adjustments not.
    public var maxStrength: Double {
        if case .adjust = operation { return 100 }
        return 200
    }

    /// Steps are equal when they do the same thing; where they were written does not matter.
    public static func == (lhs: RecipeStep, rhs: RecipeStep) -> Bool {
        lhs.operation == rhs.operation && lhs.strength == rhs.strength
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case adjust, params, look, lut, strength
    }

    /// Decodes the YAML/JSON shape `{adjust: ID, params: {…}, strength: N}`, `{look: NAME}` or `{lut: FILE}`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let strength = try c.decodeIfPresent(Double.self, forKey: .strength) ?? 100
        if let id = try c.decodeIfPresent(String.self, forKey: .adjust) {
            let params = try c.decodeIfPresent([String: ParameterSetting].self, forKey: .params) ?? [:]
            self.init(.adjust(id: id, params: params), strength: strength)
        } else if let name = try c.decodeIfPresent(String.self, forKey: .look) {
            self.init(.look(name), strength: strength)
        } else if let file = try c.decodeIfPresent(String.self, forKey: .lut) {
            self.init(.lut(file), strength: strength)
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a step needs one of adjust, look or lut"))
        }
    }

    /// Encodes the shape ``init(from:)`` reads.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch operation {
        case .adjust(let id, let params):
            try c.encode(id, forKey: .adjust)
            if !params.isEmpty { try c.encode(params, forKey: .params) }
        case .look(let name): try c.encode(name, forKey: .look)
        case .lut(let file): try c.encode(file, forKey: .lut)
        }
        try c.encode(strength, forKey: .strength)
    }
}

/// A chain of steps that the ``Composer`` turns into one cube; written by people as YAML (docs/RECIPES.md).
public struct Recipe: Sendable, Equatable, Codable {
    /// Name for the composed look.
    public var name: String?
    /// Output cube size (entries per axis); the composer's default when nil.
    public var size: Int?
    /// The chain, applied first to last.
    public var steps: [RecipeStep]
    /// File name used in messages ("warm.yaml").
    public var fileName: String
    /// Folder that relative `lut:` paths are resolved against (the recipe file's folder), or nil for the current one.
    public var directory: String?

    /// A recipe from its parts.
    public init(name: String? = nil, size: Int? = nil, steps: [RecipeStep], fileName: String = "recipe",
                directory: String? = nil) {
        self.name = name
        self.size = size
        self.steps = steps
        self.fileName = fileName
        self.directory = directory
    }

    /// Recipes are equal when they describe the same chain, wherever they were read from.
    public static func == (lhs: Recipe, rhs: Recipe) -> Bool {
        lhs.name == rhs.name && lhs.size == rhs.size && lhs.steps == rhs.steps
    }

    enum CodingKeys: String, CodingKey {
        case name, size, steps
    }

    /// Decodes `{name, size, steps}`; file name and folder are unknown and left at their defaults.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decodeIfPresent(String.self, forKey: .name),
                  size: try c.decodeIfPresent(Int.self, forKey: .size),
                  steps: try c.decode([RecipeStep].self, forKey: .steps))
    }

    /// Encodes `{name, size, steps}`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(size, forKey: .size)
        try c.encode(steps, forKey: .steps)
    }

    /// The path a `lut:` step's file is read from: as written when absolute, else inside ``directory``.
    public func resolvedPath(_ file: String) -> String {
        if file.hasPrefix("/") { return file }
        guard let directory else { return file }
        return URL(fileURLWithPath: directory).appendingPathComponent(file).standardizedFileURL.path
    }

    /// Every file the `lut:` steps read, resolved as ``resolvedPath(_:)`` resolves them (inputs no output may be).
    public var lutFiles: [String] {
        steps.compactMap { step in
            guard case .lut(let file) = step.operation else { return nil }
            return resolvedPath(file)
        }
    }

    /// Largest recipe file read: the YAML parser holds several copies of a file's text and nodes (a 50 MB scalar
    /// took 971 MB), and a real recipe, even of many curve steps, is a few kilobytes (the shipped ones under 2 kB).
    public static let maxFileBytes = 1 << 20

    /// Reads and parses a recipe file, remembering its folder for relative `lut:` paths.
    public static func load(path: String) throws(RecipeError) -> Recipe {
        let name = (path as NSString).lastPathComponent
        if let refusal = InputFile.refusal(path, what: "a recipe file") {
            throw .unreadable(path: path, reason: refusal)
        }
        var info = stat()
        if stat(path, &info) == 0, Int(info.st_size) > maxFileBytes {
            throw .overBudget("\(name): the recipe file is \(ComposeBudget.grouped(Int(info.st_size))) bytes, more "
                + "than the \(ComposeBudget.grouped(maxFileBytes)) a recipe may take; a recipe is a short list of "
                + "steps, so this is not one (or holds a value far too long)")
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: "the file does not exist, is not readable or is not UTF-8 text")
        }
        var recipe = try parse(text, fileName: name)
        recipe.directory = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        return recipe
    }

    /// Parses recipe YAML; `fileName` names the source in messages. Unknown keys and bad values are errors.
    public static func parse(_ yaml: String, fileName: String) throws(RecipeError) -> Recipe {
        let root = try compose(yaml, fileName: fileName)
        guard let root else { throw .recipe(file: fileName, line: nil, message: "the recipe is empty") }
        return try RecipeParser(fileName: fileName).recipe(root)
    }

    /// Parses the recipe held under `key` of a larger YAML document (a shipped look's metadata file).
    ///
    /// Returns nil when the document has no such key; the recipe's line numbers are those of the whole file.
    public static func parse(_ yaml: String, fileName: String, underKey key: String) throws(RecipeError) -> Recipe? {
        let root = try compose(yaml, fileName: fileName)
        guard let mapping = root?.mapping else {
            throw .recipe(file: fileName, line: root?.mark?.line, message: "expected a mapping of keys to values")
        }
        guard let node = mapping.first(where: { $0.key.string == key })?.value else { return nil }
        return try RecipeParser(fileName: fileName).recipe(node)
    }

    /// The recipe as YAML in its canonical form (the form `parse` reads back to an equal recipe).
    public var yaml: String {
        var lines: [String] = []
        if let name { lines.append("name: \(YAMLText.scalar(name))") }
        if let size { lines.append("size: \(size)") }
        lines.append(steps.isEmpty ? "steps: []" : "steps:")
        for step in steps {
            switch step.operation {
            case .adjust(let id, let params):
                lines.append("  - adjust: \(YAMLText.scalar(id))")
                if !params.isEmpty {
                    let list = params.sorted { $0.key < $1.key }.map {
                        "\(YAMLText.scalar($0.key)): \(YAMLText.setting($0.value))"
                    }
                    lines.append("    params: { \(list.joined(separator: ", ")) }")
                }
            case .look(let name):
                lines.append("  - look: \(YAMLText.scalar(name))")
            case .lut(let file):
                lines.append("  - lut: \(YAMLText.scalar(file))")
            }
            if step.strength != 100 { lines.append("    strength: \(TextNumber.format(step.strength))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// This recipe with every `lut:` path made absolute, so it can be rebuilt from anywhere (catalog provenance).
    public func withAbsolutePaths() -> Recipe {
        var copy = self
        for i in copy.steps.indices {
            if case .lut(let file) = copy.steps[i].operation { copy.steps[i].operation = .lut(resolvedPath(file)) }
        }
        return copy
    }

    /// Screens the text (``YAMLScreen``), then composes it with Yams.
    private static func compose(_ yaml: String, fileName: String) throws(RecipeError) -> Node? {
        if let problem = YAMLScreen.problem(in: yaml) {
            throw .recipe(file: fileName, line: problem.line, message: problem.message)
        }
        do {
            return try Yams.compose(yaml: yaml)
        } catch {
            throw yamlError(error, fileName: fileName)
        }
    }

    private static func yamlError(_ error: Error, fileName: String) -> RecipeError {
        guard let yamlError = error as? YamlError else {
            return .recipe(file: fileName, line: nil, message: "not valid YAML: \(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return .recipe(file: fileName, line: mark.line, message: "not valid YAML: \(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return .recipe(file: fileName, line: context.mark.line,
                           message: "key \(duplicates.joined(separator: ", ")) is given twice")
        default:
            return .recipe(file: fileName, line: nil, message: "not valid YAML: \(yamlError)")
        }
    }
}

/// Walks a composed YAML node tree into a ``Recipe``, with the line of every complaint.
struct RecipeParser {
    let fileName: String

    func fail(_ node: Node?, _ message: String) -> RecipeError {
        .recipe(file: fileName, line: node?.mark?.line, message: message)
    }

    func recipe(_ root: Node) throws(RecipeError) -> Recipe {
        guard let mapping = root.mapping else {
            throw fail(root, "a recipe is a mapping with name, size and steps")
        }
        var recipe = Recipe(steps: [], fileName: fileName)
        var sawSteps = false
        for (keyNode, value) in mapping {
            switch keyNode.string {
            case "name":
                guard let name = value.scalar?.string, !name.isEmpty else {
                    throw fail(value, "name must be a non-empty text")
                }
                recipe.name = name
            case "size":
                guard let size = value.int, ColorCube.sizeRange.contains(size) else {
                    throw fail(value, "size must be a whole number of entries per axis, 2…256 (4, 16, 33, 64 are usual)")
                }
                recipe.size = size
            case "steps":
                guard let sequence = value.sequence else {
                    throw fail(value, "steps must be a list (each item starting with \"- \")")
                }
                recipe.steps = try sequence.enumerated().map { (offset, node) throws(RecipeError) in
                    try step(node, index: offset + 1)
                }
                sawSteps = true
            default:
                throw fail(keyNode, "unknown key \"\(keyNode.string ?? "?")\": a recipe has name, size and steps")
            }
        }
        guard sawSteps else { throw fail(root, "the recipe has no steps: list them under \"steps:\"") }
        return recipe
    }

    func step(_ node: Node, index: Int) throws(RecipeError) -> RecipeStep {
        let line = node.mark?.line
        guard let mapping = node.mapping else {
            throw .recipe(file: fileName, line: line,
                          message: "step \(index): expected a mapping such as \"- adjust: tone.contrast\"")
        }
        var kinds: [(key: String, value: String, node: Node)] = []
        var strengthNode: Node?
        var paramsNode: Node?
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? "?"
            switch key {
            case "adjust", "look", "lut":
                guard let text = value.scalar?.string, !text.isEmpty, value.null == nil else {
                    throw .recipe(file: fileName, line: value.mark?.line ?? line,
                                  message: "step \(index): \(key) needs a value")
                }
                kinds.append((key, text, value))
            case "strength": strengthNode = value
            case "params": paramsNode = value
            default:
                let what = kinds.first.map { "step \(index) (\($0.key == "adjust" ? $0.value : "\($0.key) \($0.value)"))" }
                    ?? "step \(index)"
                throw .recipe(file: fileName, line: keyNode.mark?.line ?? line,
                              message: "\(what): unknown key \"\(key)\": a step has adjust, look or lut, "
                                + "then params (adjust only) and strength")
            }
        }
        guard kinds.count == 1, let kind = kinds.first else {
            let found = kinds.isEmpty ? "none" : kinds.map(\.key).joined(separator: " and ")
            throw .recipe(file: fileName, line: line,
                          message: "step \(index): give exactly one of adjust, look or lut (found \(found))")
        }
        var step: RecipeStep
        switch kind.key {
        case "adjust": step = RecipeStep(.adjust(id: kind.value, params: [:]), line: line)
        case "look": step = RecipeStep(.look(kind.value), line: line)
        default: step = RecipeStep(.lut(kind.value), line: line)
        }
        func stepError(_ node: Node?, _ message: String) -> RecipeError {
            .step(file: fileName, line: node?.mark?.line ?? line, index: index, id: step.id, message: message)
        }
        if let paramsNode {
            guard case .adjust(let id, _) = step.operation else {
                throw stepError(paramsNode, "params belong to adjust steps only")
            }
            guard let params = paramsNode.mapping else {
                throw stepError(paramsNode, "params must be a mapping such as { amount: 0.25 }")
            }
            var values: [String: ParameterSetting] = [:]
            for (nameNode, valueNode) in params {
                guard let name = nameNode.string else { throw stepError(nameNode, "a parameter name must be text") }
                guard values[name] == nil else { throw stepError(nameNode, "parameter \(name) is given twice") }
                values[name] = try setting(valueNode, name: name, error: stepError)
                step.parameterLines[name] = nameNode.mark?.line
            }
            step.operation = .adjust(id: id, params: values)
        }
        if let strengthNode {
            let strength = try number(strengthNode, what: "strength", error: stepError)
            guard (0...step.maxStrength).contains(strength) else {
                let note = step.maxStrength == 100 ? " (looks and LUTs allow up to 200)" : ""
                throw stepError(strengthNode, TextNumber.outOfRange("strength", strength, 0...step.maxStrength) + note)
            }
            step.strength = strength
        }
        return step
    }

    func number(_ node: Node, what: String, error: (Node?, String) -> RecipeError) throws(RecipeError) -> Double {
        guard let scalar = node.scalar else { throw error(node, "\(what) must be a number") }
        switch scalar.string.lowercased() {
        case "true": return 1
        case "false": return 0
        default: break
        }
        guard let value = node.float ?? node.int.map(Double.init), value.isFinite else {
            throw error(node, "\(what) must be a number, not \"\(scalar.string)\"")
        }
        return value
    }
}

/// Writing scalars so that YAML reads them back as the same text or number.
enum YAMLText {
    /// Plain when that cannot be misread (as a number, bool or null, or YAML syntax), double-quoted otherwise.
    static func scalar(_ text: String) -> String {
        let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]
        let safeFirst = text.first.map { $0.isLetter || $0 == "_" || $0 == "/" || $0 == "." } ?? false
        let safeRest = text.allSatisfy { $0.isLetter || $0.isNumber || "_-./ ()".contains($0) }
        if safeFirst, safeRest, !text.hasSuffix(" "), !reserved.contains(text.lowercased()),
           Double(text) == nil, !text.hasPrefix(".") || text.hasPrefix("./") || text.hasPrefix("../") {
            return text
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\x%02X", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
