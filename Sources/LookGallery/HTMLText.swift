import Foundation

/// Escaping for the three places text goes in a page: element content, attribute values, and JSON inside a
/// `<script>` element. Every string from the catalog passes through one of them.
public enum HTMLText {
    /// Text for element content: `&`, `<`, `>` become entities, so `<script>` in a look name stays text.
    public static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Text for a double-quoted attribute value: also quotes, apostrophes and control characters.
    public static func attribute(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
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
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for c in json.unicodeScalars {
            switch c {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A string as a JavaScript string literal that is also safe inside a `<script>` element.
    public static func scriptString(_ s: String) throws -> String {
        try scriptJSON([s]).dropFirst().dropLast().description
    }
}
