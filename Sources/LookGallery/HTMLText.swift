import Foundation

/// Escaping for the three places text goes in a page: element content, attribute values, and JSON inside a
/// `<script>` element. Every string from the catalog passes through one of them.
public enum HTMLText {
    /// Text for element content: `&`, `<`, `>` become entities, so `<script>` in a look name stays text.
    public static func text(_ s: String) -> String {
        escape(s, contentEntity)
    }

    /// Text for a double-quoted attribute value: also quotes, apostrophes and control characters.
    public static func attribute(_ s: String) -> String {
        escape(s) {
            switch $0 {
            case "\"": return "&quot;"
            case "'": return "&#39;"
            case "\n": return "&#10;"
            case "\r": return "&#13;"
            case "\t": return "&#9;"
            default: return contentEntity($0)
            }
        }
    }

    /// JSON that is safe between `<script type="application/json">` and `</script>`.
    ///
    /// The HTML parser ends a script element at `</script` and treats `<!--` specially whatever the JSON means, so
    /// `<`, `>` and `&` are written as JSON `\u` escapes (the same string to `JSON.parse`); U+2028/2029 too, for
    /// engines that still treat them as line ends.
    public static func scriptJSON<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return escape(String(decoding: try encoder.encode(value), as: UTF8.self)) {
            switch $0 {
            case "<", ">", "&", "\u{2028}", "\u{2029}": return "\\u" + String(format: "%04x", $0.value)
            default: return nil
            }
        }
    }

    /// The entity for a scalar that would otherwise start or end markup.
    private static func contentEntity(_ c: Unicode.Scalar) -> String? {
        switch c {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        default: return nil
        }
    }

    /// `s` with every scalar that `replacement` maps replaced by its text; the others are kept.
    private static func escape(_ s: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            if let text = replacement(c) { out += text } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// A string as a JavaScript string literal that is also safe inside a `<script>` element.
    public static func scriptString(_ s: String) throws -> String {
        try scriptJSON([s]).dropFirst().dropLast().description
    }
}
