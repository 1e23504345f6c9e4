/// Untrusted text (look names, tags, `.cube` TITLEs, file names) quoted in a message.
///
/// A downloaded LUT or catalog can carry ESC, OSC, BEL, C1 controls or newlines that would move a terminal's
/// cursor, set its window title, or fake extra lines in a message or log; every message that quotes such text
/// passes it through `quote`.
public enum MessageText {
    /// True for scalars that steer a terminal or reorder text: C0 and C1 controls (ESC, BEL, CR, LF, …), DEL,
    /// the line and paragraph separators and the bidirectional embeddings, overrides and isolates.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// True when `text` has a scalar `isControl` refuses.
    public static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with every control scalar written as `\u{HEX}` (with `keepNewlines`, line feeds and tabs stay: for
    /// multi-line reports the program laid out itself).
    public static func quote(_ text: String, keepNewlines: Bool = false) -> String {
        guard hasControl(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepNewlines && (scalar == "\n" || scalar == "\t")) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
