import Foundation

/// One text file to embed: the Swift name it gets and its text, which a raw string literal reproduces unchanged.
struct EmbeddedAsset {
    var path: String
    var name: String
    var text: String

    /// Checks that `bytes` is text a Swift string literal holds exactly: UTF-8, no carriage return (Swift turns a
    /// literal's line breaks into LF) and no other control character than tab and newline (the compiler refuses them).
    init(path: String, bytes: Data) throws {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let name = Self.identifier(forFile: file) else { throw EmbedError.badName(path: path) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw EmbedError.notUTF8(path: path) }
        var line = 1
        for scalar in text.unicodeScalars {
            if scalar == "\n" { line += 1 }
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || scalar.value == 0x7F {
                throw EmbedError.controlCharacter(path: path, line: line, value: scalar.value)
            }
        }
        self.path = path
        self.name = name
        self.text = text
    }

    /// `studio.js` → `studioJS`, `gallery-grid.css` → `galleryGridCSS`: the stem in camel case, the extension in
    /// capitals. Nil when that is no Swift identifier (a name starting with a digit, an extension with punctuation).
    static func identifier(forFile file: String) -> String? {
        let dot = file.lastIndex(of: ".")
        let stem = dot.map { file[..<$0] } ?? file[...]
        let suffix = dot.map { file[file.index(after: $0)...] } ?? ""
        let isWordCharacter = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber) }
        let words = stem.split { !isWordCharacter($0) }
        guard let first = words.first, first.first?.isLetter == true, suffix.allSatisfy(isWordCharacter) else {
            return nil
        }
        return first.prefix(1).lowercased() + first.dropFirst()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + suffix.uppercased()
    }

    /// The delimiter's `#` count: one more than the longest run of `#` after any `"` or `\` in the text, so the text
    /// holds neither the closing delimiter nor an escape, and the raw literal's value is the text itself.
    static func hashCount(for text: String) -> Int {
        var longest = 0
        var run: Int?
        for c in text.unicodeScalars {
            if c == "#", let r = run {
                run = r + 1
            } else {
                if let r = run { longest = max(longest, r + 1) }
                run = c == "\"" || c == "\\" ? 0 : nil
            }
        }
        if let r = run { longest = max(longest, r + 1) }
        return max(1, longest)
    }

    /// The Swift file: `enum EmbeddedAssets` with one raw multiline string constant per asset. The closing
    /// delimiter starts its line, so no indentation is stripped; the newline before it is not part of the value.
    static func swiftSource(_ assets: [EmbeddedAsset]) throws -> String {
        for (name, group) in Dictionary(grouping: assets, by: \.name) where group.count > 1 {
            throw EmbedError.sameName(name, paths: group.map(\.path))
        }
        var source = "// Made by the EmbedAssets build-tool plugin from the target's Resources folder: edit those "
            + "files.\n\n/// The files of this target's `Resources` folder, byte for byte.\nenum EmbeddedAssets {\n"
        for asset in assets {
            let hashes = String(repeating: "#", count: hashCount(for: asset.text))
            source += "    /// `\(URL(fileURLWithPath: asset.path).lastPathComponent)`\n"
                + "    static let \(asset.name): String = \(hashes)\"\"\"\n\(asset.text)\n\"\"\"\(hashes)\n"
        }
        return source + "}\n"
    }
}

/// Why a file cannot be embedded; the build stops with this message.
enum EmbedError: Error, Equatable, CustomStringConvertible {
    case badName(path: String)
    case notUTF8(path: String)
    case controlCharacter(path: String, line: Int, value: UInt32)
    case sameName(String, paths: [String])

    var description: String {
        switch self {
        case .badName(let path):
            "\(path): the file name makes no Swift name (start it with a letter; letters and digits in the extension)"
        case .notUTF8(let path):
            "\(path): not UTF-8 text"
        case .controlCharacter(let path, let line, let value):
            "\(path) line \(line): control character U+\(String(value, radix: 16, uppercase: true)) (use LF line "
                + "breaks and no control characters other than tab)"
        case .sameName(let name, let paths):
            "\(paths.joined(separator: " and ")) would both be embedded as `\(name)`: rename one"
        }
    }
}
