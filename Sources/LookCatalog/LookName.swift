import Foundation
import LookCore

/// The one rule for look names and tags (README, "Names"): references are resolved GUID first, so a name must not
/// read as a GUID or a version; names and tags hold no control characters and are at most `maxLength` long.
public enum LookName {
    /// Longest name or tag, in characters.
    public static let maxLength = 200

    /// True when `text` would be read as a GUID or GUID prefix: only hex digits and hyphens, 8+ hex digits.
    public static func isGUIDLike(_ text: String) -> Bool {
        var digits = 0
        for c in text.unicodeScalars {
            if c == "-" { continue }
            guard c.properties.isASCIIHexDigit else { return false }
            digits += 1
        }
        return digits >= 8
    }

    /// What two names must differ in to be two names: the text in canonical composition (NFC), lowercased by Unicode's
    /// rules, so "Éclair" and "éclair", or "Café" typed precomposed and decomposed, are one name. SQLite's NOCASE
    /// folds ASCII letters only.
    public static func key(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Splits `REF@N` into the reference and version N (1 or more); nil version when there is no such suffix.
    public static func splitVersion(_ reference: String) -> (base: String, version: Int?) {
        guard let at = reference.lastIndex(of: "@") else { return (reference, nil) }
        let digits = reference[reference.index(after: at)...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let n = Int(digits), n >= 1 else { return (reference, nil) }
        return (String(reference[..<at]), n)
    }

    /// Why `name` cannot name a look, or nil when it can (already trimmed).
    public static func problem(name: String) -> String? {
        if let p = problem(text: name) { return p }
        if isGUIDLike(name) {
            return "it reads as a GUID or GUID prefix (only hex digits and hyphens, 8 or more digits), and GUIDs are "
                + "looked up first"
        }
        if splitVersion(name).version != nil { return "it ends in @NUMBER, which selects a version" }
        return nil
    }

    /// Why `text` cannot be a name or tag, or nil (already trimmed).
    static func problem(text: String) -> String? {
        if text.isEmpty { return "it needs at least one visible character" }
        if MessageText.hasControl(text) {
            return "it holds control characters (newline, ESC, BEL, DEL, C1 or direction controls)"
        }
        if text.count > maxLength { return "it is \(text.count) characters long; the limit is \(maxLength)" }
        return nil
    }
}
