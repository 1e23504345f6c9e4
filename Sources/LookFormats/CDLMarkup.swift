/// An XML element as the CDL reader needs it: its name as written and without its namespace prefix, attributes,
/// the text directly inside it, its children and the line it starts on.
struct MarkupElement: Sendable {
    var name: String
    var attributes: [(name: String, value: String)] = []
    var text = ""
    var children: [MarkupElement] = []
    var line: Int

    /// The name without a namespace prefix (`cdl:Slope` → `Slope`).
    var localName: Substring { name.split(separator: ":", maxSplits: 1).last ?? Substring(name) }

    /// The value of the attribute whose local name is `local`.
    func attribute(_ local: String) -> String? {
        attributes.first { ($0.name.split(separator: ":").last.map(String.init) ?? $0.name) == local }?.value
    }
}

/// A small, bounded XML reader for the ASC CDL files (`.cc`, `.cdl`, `.ccc`), written by hand rather than handed to
/// Foundation's XMLParser: on Linux that parser (libxml2 underneath) dies with SIGILL on bytes that are not UTF-8
/// inside an element or attribute name, and it expands DTD entities. Here the bytes are checked to be UTF-8 without
/// control characters first, DOCTYPEs are refused, sizes are bounded, and every error names a line.
///
/// What it reads: elements, attributes in single or double quotes, text, CDATA, comments, processing instructions
/// (skipped), the five predefined entities and character references.
struct MarkupReader {
    /// Bounds on a document, so that a hostile file costs little.
    struct Limits {
        var maxElements = 200_000
        var maxDepth = 64
        var maxAttributes = 32
    }

    private let bytes: [UInt8]
    private let file: String
    private let limits: Limits
    private var position = 0
    private var line = 1
    private var elements = 0
    private var stack: [MarkupElement] = []

    /// Reads the document in `bytes` (`file` names it in errors) and returns its root element.
    static func read(_ bytes: [UInt8], file: String, limits: Limits = Limits()) throws(LookFormatsError)
        -> MarkupElement {
        try TextCheck.requireUTF8(bytes, file: file)
        var reader = MarkupReader(bytes: bytes, file: file, limits: limits)
        return try reader.document()
    }

    private init(bytes: [UInt8], file: String, limits: Limits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    private func fail(_ message: String, line: Int? = nil) -> LookFormatsError {
        LookFormatsError(file: file, line: line ?? self.line, message)
    }

    private func starts(with marker: String) -> Bool {
        let utf8 = Array(marker.utf8)
        return position + utf8.count <= bytes.count && Array(bytes[position..<position + utf8.count]) == utf8
    }

    /// Moves to `end`, counting the lines crossed (LF, CRLF or a lone CR each end one).
    private mutating func advance(to end: Int) {
        while position < end {
            let c = bytes[position]
            if c == 0x0A || (c == 0x0D && (position + 1 >= bytes.count || bytes[position + 1] != 0x0A)) { line += 1 }
            position += 1
        }
    }

    /// Index of `marker` at or after `position`, or nil.
    private func find(_ marker: String) -> Int? {
        let utf8 = Array(marker.utf8)
        guard bytes.count >= utf8.count else { return nil }
        var i = position
        while i + utf8.count <= bytes.count {
            if bytes[i] == utf8[0] && Array(bytes[i..<i + utf8.count]) == utf8 { return i }
            i += 1
        }
        return nil
    }

    private mutating func skip(past marker: String, what: String) throws(LookFormatsError) {
        let opened = line
        guard let end = find(marker) else {
            throw fail("\(what) opened here is never closed with \(marker)", line: opened)
        }
        advance(to: end + marker.utf8.count)
    }

    private mutating func document() throws(LookFormatsError) -> MarkupElement {
        var root: MarkupElement?
        while position < bytes.count {
            if bytes[position] != 0x3C {
                try text(outside: root != nil)
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                guard !stack.isEmpty else { throw fail("CDATA outside the root element") }
                let start = position + 9, opened = line
                guard let end = find("]]>") else { throw fail("CDATA opened here is never closed", line: opened) }
                stack[stack.count - 1].text += String(decoding: bytes[start..<end], as: UTF8.self)
                advance(to: end + 3)
            } else if starts(with: "<!") {
                throw fail("a DOCTYPE or other declaration: a CDL file has no use for one, and LookStudio does not "
                           + "read DTDs (remove it)")
            } else if starts(with: "</") {
                let closed = try endTag()
                if stack.isEmpty { root = closed } else { stack[stack.count - 1].children.append(closed) }
            } else {
                if stack.isEmpty && root != nil {
                    throw fail("a second root element <\(peekName())>: a CDL file holds one")
                }
                if let empty = try startTag() {
                    if stack.isEmpty { root = empty } else { stack[stack.count - 1].children.append(empty) }
                }
            }
        }
        if let open = stack.last {
            throw fail("the file ends inside <\(open.name)> (opened line \(open.line)): it is cut short")
        }
        guard let root else { throw fail("no XML element: the file is empty or not XML", line: 1) }
        return root
    }

    private func peekName() -> String {
        var end = position + 1
        while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x3A
            || c == 0x2D || c == 0x2E || c >= 0x80
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    private mutating func name() throws(LookFormatsError) -> String {
        let start = position
        guard start < bytes.count, Self.isNameByte(bytes[start]),
              !(bytes[start] >= 0x30 && bytes[start] <= 0x39), bytes[start] != 0x2D, bytes[start] != 0x2E else {
            throw fail("expected an element or attribute name after \"<\"")
        }
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipSpace() {
        var end = position
        while end < bytes.count, Self.isSpace(bytes[end]) { end += 1 }
        advance(to: end)
    }

    /// `<name attr="value" …>` or `<name …/>`: pushes an open element, or returns an empty one.
    private mutating func startTag() throws(LookFormatsError) -> MarkupElement? {
        let opened = line
        position += 1
        var element = MarkupElement(name: try name(), line: opened)
        elements += 1
        guard elements <= limits.maxElements else {
            throw fail("more than \(limits.maxElements) elements: larger than any CDL file LookStudio reads")
        }
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("the file ends inside <\(element.name)>", line: opened) }
            if bytes[position] == 0x3E {
                position += 1
                guard stack.count < limits.maxDepth else {
                    throw fail("elements nested more than \(limits.maxDepth) deep")
                }
                stack.append(element)
                return nil
            }
            if starts(with: "/>") {
                position += 2
                return element
            }
            let attribute = try name()
            skipSpace()
            guard position < bytes.count, bytes[position] == 0x3D else {
                throw fail("attribute \(attribute) of <\(element.name)> has no value (expected =\"…\")")
            }
            position += 1
            skipSpace()
            let value = try quoted(attribute, of: element.name)
            guard !element.attributes.contains(where: { $0.name == attribute }) else {
                throw fail("<\(element.name)> has attribute \(attribute) twice")
            }
            guard element.attributes.count < limits.maxAttributes else {
                throw fail("<\(element.name)> has more than \(limits.maxAttributes) attributes")
            }
            element.attributes.append((attribute, value))
        }
    }

    private mutating func quoted(_ attribute: String, of element: String) throws(LookFormatsError) -> String {
        guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else {
            throw fail("the value of \(attribute) in <\(element)> is not in quotes")
        }
        let quote = bytes[position], start = position + 1
        var end = start
        while end < bytes.count, bytes[end] != quote {
            guard bytes[end] != 0x3C else { throw fail("\"<\" inside the value of \(attribute) in <\(element)>") }
            end += 1
        }
        guard end < bytes.count else { throw fail("the value of \(attribute) in <\(element)> is never closed") }
        let raw = try decodeEntities(start, end)
        advance(to: end + 1)
        // XML normalises whitespace characters in attribute values to spaces.
        return String(raw.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// `</name>`: closes the innermost open element, which must have the same name; returns it.
    private mutating func endTag() throws(LookFormatsError) -> MarkupElement {
        position += 2
        let closing = try name()
        skipSpace()
        guard position < bytes.count, bytes[position] == 0x3E else { throw fail("</\(closing) is not closed by \">\"") }
        position += 1
        guard let open = stack.popLast() else { throw fail("</\(closing)> closes nothing") }
        guard open.name == closing else {
            throw fail("</\(closing)> closes <\(open.name)>, opened at line \(open.line)")
        }
        return open
    }

    /// Character data up to the next `<`, added to the open element; outside the root only whitespace is allowed.
    private mutating func text(outside afterRoot: Bool) throws(LookFormatsError) {
        var end = position
        while end < bytes.count, bytes[end] != 0x3C { end += 1 }
        if stack.isEmpty {
            guard bytes[position..<end].allSatisfy(Self.isSpace) else {
                throw fail(afterRoot ? "text after the root element has closed" : "text before the root element")
            }
        } else {
            stack[stack.count - 1].text += try decodeEntities(position, end)
        }
        advance(to: end)
    }

    /// The text of bytes `start..<end` with `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` and `&#…;` replaced.
    private func decodeEntities(_ start: Int, _ end: Int) throws(LookFormatsError) -> String {
        guard bytes[start..<end].contains(0x26) else { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var out = ""
        var i = start, run = start
        while i < end {
            guard bytes[i] == 0x26 else {
                i += 1
                continue
            }
            out += String(decoding: bytes[run..<i], as: UTF8.self)
            guard let semicolon = bytes[i..<Swift.min(end, i + 12)].firstIndex(of: 0x3B) else {
                throw fail("\"&\" that starts no entity: write &amp; for an ampersand")
            }
            let entity = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
            out.unicodeScalars.append(try Self.scalar(of: entity, fail: fail))
            i = semicolon + 1
            run = i
        }
        return out + String(decoding: bytes[run..<end], as: UTF8.self)
    }

    private static func scalar(of entity: String, fail: (String, Int?) -> LookFormatsError) throws(LookFormatsError)
        -> Unicode.Scalar {
        switch entity {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        var value: UInt32?
        if entity.hasPrefix("#x") {
            value = UInt32(entity.dropFirst(2), radix: 16)
        } else if entity.hasPrefix("#") {
            value = UInt32(entity.dropFirst(), radix: 10)
        } else {
            throw fail("&\(entity); is not an XML entity (use &lt; &gt; &amp; &quot; &apos; or &#…;)", nil)
        }
        guard let value, let scalar = Unicode.Scalar(value), !TextCheck.isControl(scalar) else {
            throw fail("&\(entity); is not a character a CDL file may hold", nil)
        }
        return scalar
    }
}

/// The encoding check every byte of a CDL or CLF file passes before it is parsed: Foundation's XMLParser, which
/// reads CLF, dies with SIGILL on a name that is not UTF-8, so no such byte may reach it.
enum TextCheck {
    /// C0 and C1 control characters and DEL, except tab, line feed and carriage return.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || (v >= 0x7F && v <= 0x9F)
    }

    /// Throws, naming the line, at the first byte sequence that is not UTF-8 or is a control character; `format`
    /// names the kind of file in the message (`CDL`, `CLF`).
    static func requireUTF8(_ bytes: [UInt8], file: String, format: String = "CDL") throws(LookFormatsError) {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw LookFormatsError(file: file, line: 1, "the file is UTF-16; LookStudio reads \(format) files in "
                                   + "UTF-8 (save it as UTF-8)")
        }
        var line = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var previous: UInt32 = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\r" || (scalar == "\n" && previous != 0x0D) { line += 1 }
                guard !isControl(scalar) else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    let code = String(repeating: "0", count: 4 - hex.count) + hex
                    throw LookFormatsError(file: file, line: line, "control character U+\(code): a \(format) file is "
                                           + "text (tab, line feed and carriage return are the only ones allowed)")
                }
                previous = scalar.value
            case .emptyInput:
                return
            case .error:
                throw LookFormatsError(file: file, line: line, "bytes that are not UTF-8: LookStudio reads "
                                       + "\(format) files in UTF-8 (save the file as UTF-8)")
            }
        }
    }
}
