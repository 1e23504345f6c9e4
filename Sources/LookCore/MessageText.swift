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

    /// The words of `candidates` a user most likely meant by `given` (for "did you mean …?"): those within an edit
    /// distance of about a third of the word (at least 1, at most 3), ignoring case, nearest first; a candidate that
    /// starts with `given` counts as near. At most `limit`.
    public static func nearest(to given: String, among candidates: [String], limit: Int = 3) -> [String] {
        let word = Array(given.lowercased())
        guard !word.isEmpty else { return [] }
        let allowed = min(3, max(1, word.count / 3))
        var scored: [(distance: Int, candidate: String)] = []
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let distance = other.starts(with: word) ? 0 : editDistance(word, other, cap: allowed + 1)
            if distance <= allowed && other != word { scored.append((distance, candidate)) }
        }
        return scored.sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }.prefix(limit).map(\.candidate)
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit, stopping early at `cap`.
    static func editDistance(_ a: [Character], _ b: [Character], cap: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        if abs(a.count - b.count) >= cap { return cap }
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            var best = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, twoBack[j - 2] + 1) }
                row[j] = value
                best = min(best, value)
            }
            if best >= cap { return cap }
            (twoBack, previous) = (previous, row)
        }
        return previous[b.count]
    }
}
