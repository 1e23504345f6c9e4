import CYaml

/// Screens YAML from strangers before Yams composes it, in one linear pass over libyaml's events.
///
/// Yams composes a document into a tree and, when a mapping repeats a key, sorts the repeated keys to name them.
/// Its ordering compares two equal sub-lists twice per level (`<`, then `>`), so nested list keys cost 2^depth:
/// the `recipe` fuzz target found 3 kB files taking 15 s, and a 237-byte recipe with two keys 24 lists deep takes
/// 13 s in a release build (each level more doubles it). Aliases as keys or values can also expand a small file into
/// billions of nodes for whoever walks the tree. Recipes, looks and scene files need neither: their keys are words.
/// And a plain `size: 1:1:1:1:1:1:1:1:1:1:1` traps inside Yams when read as a whole number (``overflowsBase60(_:)``).
public enum YAMLScreen {
    /// The most nodes a document may expand to, aliases counted at their full size; shipped files use a few hundred.
    public static let maxNodes = 100_000

    /// Why a document is refused.
    public struct Problem: Equatable, Sendable {
        /// The 1-based line of the node at fault.
        public let line: Int
        /// A sentence that says what is wrong and what the files it screens look like.
        public let message: String
    }

    /// Nil when `text` is safe to compose; otherwise the first problem. Syntax errors are left to the composer.
    public static func problem(in text: String) -> Problem? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) != 0 else {
                return Problem(line: 1, message: "out of memory reading YAML")
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var screen = Walk()
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) != 0 {
                let type = event.type
                let problem = screen.take(event)
                yaml_event_delete(&event)
                if let problem { return problem }
                if type == YAML_STREAM_END_EVENT { break }
            }
            return nil
        }
    }

    /// Whether Yams, asked for an `Int` from this plain scalar, would overflow, which traps and ends the process.
    ///
    /// Yams reads `1:30` as the base-60 number 90 (YAML 1.1): underscores dropped, a leading 0 meaning another base,
    /// then every colon-separated part a decimal digit group. It multiplies without overflow checks, and its base
    /// grows by 60 per part even after the last, so twelve parts of `1` already trap. The same steps, checked.
    static func overflowsBase60(_ text: String) -> Bool {
        guard text.contains(":") else { return false }
        var digits = Substring(text.filter { $0 != "_" })
        var sign = 1
        if digits.hasPrefix("-") {
            sign = -1
            digits = digits.dropFirst()
        } else if digits.hasPrefix("+") {
            digits = digits.dropFirst()
        }
        guard !digits.hasPrefix("0") else { return false }
        var parts: [Int] = []
        for part in digits.split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Int(part, radix: 10) else { return false }
            parts.append(value)
        }
        var base = 1, value = 0
        for digit in parts.reversed() {
            let (term, o1) = digit.multipliedReportingOverflow(by: base)
            let (sum, o2) = value.addingReportingOverflow(term)
            let (next, o3) = base.multipliedReportingOverflow(by: 60)
            if o1 || o2 || o3 { return true }
            value = sum
            base = next
        }
        return sign.multipliedReportingOverflow(by: value).overflow
    }

    /// The state of one pass: open collections, node count and the size of every anchored node.
    private struct Walk {
        struct Open {
            let isMapping: Bool
            var atKey = true
            let anchor: String?
            let firstNode: Int
        }
        var open: [Open] = []
        var nodes = 0
        var anchorSizes: [String: Int] = [:]

        mutating func take(_ event: yaml_event_t) -> Problem? {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                if scalar.style == YAML_PLAIN_SCALAR_STYLE || scalar.style == YAML_ANY_SCALAR_STYLE,
                   let value = scalar.value {
                    let text = String(decoding: UnsafeBufferPointer(start: value, count: scalar.length), as: UTF8.self)
                    if YAMLScreen.overflowsBase60(text) {
                        let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
                        return Problem(line: line, message: "\"\(shown)\" reads as a base-60 number (YAML 1.1) too "
                            + "large for a whole number; quote it if it is text")
                    }
                }
                return node(line: line, size: 1, anchor: name(scalar.anchor))
            case YAML_ALIAS_EVENT:
                let anchor = name(event.data.alias.anchor)
                if open.last?.isMapping == true, open.last?.atKey == true {
                    return Problem(line: line, message: "a key is an alias (*\(anchor ?? "")); keys must be words")
                }
                return node(line: line, size: anchor.flatMap { anchorSizes[$0] } ?? 1, anchor: nil)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                if open.last?.isMapping == true, open.last?.atKey == true {
                    return Problem(line: line, message: "a key is a \(isMapping ? "mapping" : "list"); keys must be "
                        + "words (e.g. `name: warm`), not nested structures")
                }
                let anchor = name(isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
                nodes += 1
                open.append(Open(isMapping: isMapping, anchor: anchor, firstNode: nodes))
                return tooMany(line: line)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { return nil }
                if let anchor = closed.anchor { anchorSizes[anchor] = nodes - closed.firstNode + 1 }
                advance()
                return nil
            default:
                return nil
            }
        }

        /// A complete node: a scalar or an alias.
        mutating func node(line: Int, size: Int, anchor: String?) -> Problem? {
            nodes += size
            if let anchor { anchorSizes[anchor] = size }
            advance()
            return tooMany(line: line)
        }

        /// A node finished inside a mapping turns its key into a value and back.
        mutating func advance() {
            guard let last = open.indices.last, open[last].isMapping else { return }
            open[last].atKey.toggle()
        }

        func tooMany(line: Int) -> Problem? {
            guard nodes > YAMLScreen.maxNodes else { return nil }
            return Problem(line: line, message: "the document expands to more than \(YAMLScreen.maxNodes) values "
                + "(aliases counted in full); recipes, looks and scene lists are far smaller")
        }

        func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            anchor.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }
    }
}
