/// Turns the element tree of a CDL file into ``CDLContents``: which elements mean what at each level, the numbers
/// and their ranges, references between decisions and corrections, and what is tolerated with a warning.
struct CDLReader {
    let file: String
    private var warnings: [FormatWarning] = []
    private var warnedNames: Set<String> = []

    init(file: String) { self.file = file }

    private func fail(_ element: MarkupElement, _ message: String) -> LookFormatsError {
        LookFormatsError(file: file, line: element.line, message)
    }

    /// Keeps a warning; after the hundredth, one more says how many were left out.
    private mutating func warn(_ line: Int?, _ message: String) {
        if warnings.count < 100 {
            warnings.append(FormatWarning(line: line, message))
        } else if warnings.count == 100 {
            warnings.append(FormatWarning("more warnings of the same kinds were left out"))
        }
    }

    /// An element that ASC CDL 1.2 does not define here: ignored, with one warning per name.
    private mutating func unknown(_ element: MarkupElement, in parent: MarkupElement) {
        guard warnedNames.insert("\(parent.localName)/\(element.localName)").inserted else { return }
        warn(element.line, "<\(element.name)> inside <\(parent.name)> is not part of ASC CDL 1.2; ignored")
    }

    private static func trimmed(_ s: String) -> String {
        var scalars = Substring(s).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            scalars.removeFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            scalars.removeLast()
        }
        return String(scalars)
    }

    mutating func contents(of root: MarkupElement) throws(LookFormatsError) -> CDLContents {
        guard let kind = CDLFileKind.allCases.first(where: { $0.rootElement == root.localName }) else {
            throw fail(root, "the root element is <\(root.name)>; a CDL file holds <ColorCorrection> (.cc), "
                       + "<ColorCorrectionCollection> (.ccc) or <ColorDecisionList> (.cdl)")
        }
        let named = file.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if CDLFile.fileExtensions.contains(named), named != kind.fileExtension {
            warn(root.line, "the file is named .\(named) but holds a <\(kind.rootElement)>, as a "
                 + ".\(kind.fileExtension) does; read as one")
        }
        var contents = CDLContents(kind: kind, corrections: [], decisions: [], descriptions: [],
                                   inputDescription: nil, viewingDescription: nil, warnings: [])
        switch kind {
        case .cc:
            let correction = try correction(root)
            contents.corrections = [correction]
            contents.descriptions = correction.descriptions
            contents.inputDescription = correction.inputDescription
            contents.viewingDescription = correction.viewingDescription
        case .ccc:
            try collection(root, into: &contents)
        case .cdl:
            try decisionList(root, into: &contents)
        }
        contents.warnings = warnings
        return contents
    }

    /// Description, InputDescription and ViewingDescription of `child`, if it is one; true when it was.
    private static func metadata(_ child: MarkupElement, descriptions: inout [String], input: inout String?,
                                 viewing: inout String?) -> Bool {
        switch child.localName {
        case "Description": descriptions.append(trimmed(child.text))
        case "InputDescription": input = trimmed(child.text)
        case "ViewingDescription": viewing = trimmed(child.text)
        default: return false
        }
        return true
    }

    /// Calls `body` with each child of the list `root` named `name`, in document order; the list's descriptions go
    /// into `contents`, any other child is ignored with a warning.
    private mutating func items(
        named name: String, of root: MarkupElement, into contents: inout CDLContents,
        _ body: (inout CDLReader, MarkupElement, inout CDLContents) throws(LookFormatsError) -> Void
    ) throws(LookFormatsError) {
        for child in root.children {
            if Self.metadata(child, descriptions: &contents.descriptions, input: &contents.inputDescription,
                             viewing: &contents.viewingDescription) { continue }
            guard child.localName == name else {
                unknown(child, in: root)
                continue
            }
            try body(&self, child, &contents)
        }
    }

    private mutating func collection(_ root: MarkupElement, into contents: inout CDLContents) throws(LookFormatsError) {
        try items(named: "ColorCorrection", of: root, into: &contents) {
            reader, child, contents throws(LookFormatsError) in
            try reader.append(try reader.correction(child), to: &contents.corrections)
        }
        guard !contents.corrections.isEmpty else {
            throw fail(root, "<\(root.name)> holds no <ColorCorrection>")
        }
    }

    private mutating func append(_ correction: CDLCorrection, to list: inout [CDLCorrection]) throws(LookFormatsError) {
        guard list.count < CDLFile.maxCorrections else {
            throw LookFormatsError(file: file, line: correction.line, "more than \(CDLFile.maxCorrections) "
                                   + "corrections: larger than any CDL file LookStudio reads")
        }
        if let id = correction.id, !id.isEmpty, let first = list.first(where: { $0.id == id }) {
            warn(correction.line, "a second correction with id \"\(id)\" (the first is at line \(first.line ?? 0)); "
                 + "looking it up by id finds the first")
        }
        list.append(correction)
    }

    private mutating func decisionList(_ root: MarkupElement, into contents: inout CDLContents)
        throws(LookFormatsError) {
        try items(named: "ColorDecision", of: root, into: &contents) {
            reader, child, contents throws(LookFormatsError) in
            guard contents.decisions.count < CDLFile.maxCorrections else {
                throw reader.fail(child, "more than \(CDLFile.maxCorrections) decisions: larger than any CDL file "
                                  + "LookStudio reads")
            }
            contents.decisions.append(try reader.decision(child, corrections: &contents.corrections))
        }
        guard !contents.decisions.isEmpty else { throw fail(root, "<\(root.name)> holds no <ColorDecision>") }
        // A reference may name a correction held by a later decision, so references are resolved at the end.
        for i in contents.decisions.indices {
            guard let id = contents.decisions[i].reference else { continue }
            contents.decisions[i].correction = contents.index(of: id)
            if contents.decisions[i].correction == nil {
                warn(contents.decisions[i].line, "ColorCorrectionRef \"\(id)\" names no ColorCorrection in this "
                     + "file: resolve it against its .ccc")
            }
        }
    }

    private mutating func decision(_ element: MarkupElement, corrections: inout [CDLCorrection])
        throws(LookFormatsError) -> CDLDecision {
        var decision = CDLDecision(correction: nil, reference: nil, mediaRef: nil, descriptions: [],
                                   inputDescription: nil, viewingDescription: nil, line: element.line)
        for child in element.children {
            if Self.metadata(child, descriptions: &decision.descriptions, input: &decision.inputDescription,
                             viewing: &decision.viewingDescription) { continue }
            switch child.localName {
            case "MediaRef":
                decision.mediaRef = child.attribute("ref")
            case "ColorCorrection", "ColorCorrectionRef":
                guard decision.correction == nil, decision.reference == nil else {
                    throw fail(child, "<\(element.name)> (line \(element.line)) holds a second correction")
                }
                if child.localName == "ColorCorrectionRef" {
                    guard let ref = child.attribute("ref") else {
                        throw fail(child, "<\(child.name)> has no ref attribute naming the correction")
                    }
                    decision.reference = ref
                } else {
                    try append(try correction(child), to: &corrections)
                    decision.correction = corrections.count - 1
                }
            default:
                unknown(child, in: element)
            }
        }
        guard decision.correction != nil || decision.reference != nil else {
            throw fail(element, "<\(element.name)> holds no <ColorCorrection> or <ColorCorrectionRef>")
        }
        return decision
    }

    mutating func correction(_ element: MarkupElement) throws(LookFormatsError) -> CDLCorrection {
        var correction = CDLCorrection(id: element.attribute("id"), line: element.line)
        var seen: [String: Int] = [:]
        for child in element.children {
            if Self.metadata(child, descriptions: &correction.descriptions, input: &correction.inputDescription,
                             viewing: &correction.viewingDescription) { continue }
            let node: String
            switch child.localName {
            case "SOPNode": node = "SOPNode"
            case "SatNode", "SATNode": node = "SatNode"
            case "ASC_SOP", "ASC_SAT":
                node = child.localName == "ASC_SOP" ? "SOPNode" : "SatNode"
                warn(child.line, "<\(child.name)> is the EDL comment's name; read as <\(node)> (OpenColorIO "
                     + "ignores it)")
            default:
                unknown(child, in: element)
                continue
            }
            if let first = seen[node] {
                throw fail(child, "<\(element.name)> has a second <\(node)> (the first is at line \(first))")
            }
            seen[node] = child.line
            if node == "SOPNode" {
                try sop(child, into: &correction)
            } else {
                try sat(child, into: &correction)
            }
        }
        if seen.isEmpty {
            warn(element.line, "<\(element.name)> has neither <SOPNode> nor <SatNode>: it changes nothing")
        }
        return correction
    }

    private mutating func sop(_ node: MarkupElement, into correction: inout CDLCorrection) throws(LookFormatsError) {
        var values: [String: SIMD3<Float>] = [:]
        for child in node.children {
            let name = String(child.localName)
            switch name {
            case "Description":
                correction.sopDescriptions.append(Self.trimmed(child.text))
            case "Slope", "Offset", "Power":
                guard values[name] == nil else { throw fail(child, "<\(node.name)> has a second <\(child.name)>") }
                let n = try numbers(child, count: 3)
                values[name] = SIMD3(n[0], n[1], n[2])
            default:
                unknown(child, in: node)
            }
        }
        for name in ["Slope", "Offset", "Power"] where values[name] == nil {
            throw fail(node, "<\(node.name)> has no <\(name)> (ASC CDL 1.2 requires Slope, Offset and Power)")
        }
        correction.slope = values["Slope"]!
        correction.offset = values["Offset"]!
        correction.power = values["Power"]!
        if let bad = [correction.slope.x, correction.slope.y, correction.slope.z].first(where: { $0 < 0 }) {
            throw fail(node, "slope \(bad) is negative: ASC CDL 1.2 requires slope ≥ 0")
        }
        if let bad = [correction.power.x, correction.power.y, correction.power.z].first(where: { !($0 > 0) }) {
            throw fail(node, "power \(bad) is not above 0: ASC CDL 1.2 requires power > 0")
        }
    }

    private mutating func sat(_ node: MarkupElement, into correction: inout CDLCorrection) throws(LookFormatsError) {
        var saturation: Float?
        for child in node.children {
            switch child.localName {
            case "Description":
                correction.satDescriptions.append(Self.trimmed(child.text))
            case "Saturation":
                guard saturation == nil else { throw fail(child, "<\(node.name)> has a second <\(child.name)>") }
                saturation = try numbers(child, count: 1)[0]
            default:
                unknown(child, in: node)
            }
        }
        guard let saturation else { throw fail(node, "<\(node.name)> has no <Saturation>") }
        guard saturation >= 0 else {
            throw fail(node, "saturation \(saturation) is negative: ASC CDL 1.2 requires saturation ≥ 0")
        }
        correction.saturation = saturation
    }

    /// Exactly `count` decimal numbers separated by whitespace or commas.
    private func numbers(_ element: MarkupElement, count: Int) throws(LookFormatsError) -> [Float] {
        let tokens = element.text.split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "," }
        guard tokens.count == count else {
            let shown = tokens.count <= 8 ? " (\"\(tokens.joined(separator: " "))\")" : ""
            throw fail(element, "<\(element.name)> has \(tokens.count) number\(tokens.count == 1 ? "" : "s"), "
                       + "expected \(count)\(shown)")
        }
        var values: [Float] = []
        for token in tokens {
            guard Self.isDecimal(token) else {
                throw fail(element, "<\(element.name)> holds \"\(token.prefix(40))\", which is not a decimal number")
            }
            guard let value = Float(token), value.isFinite else {
                throw fail(element, "<\(element.name)> holds \(token.prefix(40)), too large for a 32-bit float")
            }
            values.append(value)
        }
        return values
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?` — what Float(_:) would also take as
    /// "inf", "nan" or hexadecimal is refused.
    static func isDecimal(_ token: Substring) -> Bool {
        var chars = token.utf8[...]
        if let c = chars.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { chars = chars.dropFirst() }
        let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        let whole = chars.prefix(while: isDigit)
        chars = chars.dropFirst(whole.count)
        var fraction = chars.prefix(0)
        if chars.first == UInt8(ascii: ".") {
            chars = chars.dropFirst()
            fraction = chars.prefix(while: isDigit)
            chars = chars.dropFirst(fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return false }
        if let c = chars.first, c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            chars = chars.dropFirst()
            if let s = chars.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { chars = chars.dropFirst() }
            let exponent = chars.prefix(while: isDigit)
            guard !exponent.isEmpty else { return false }
            chars = chars.dropFirst(exponent.count)
        }
        return chars.isEmpty
    }
}
