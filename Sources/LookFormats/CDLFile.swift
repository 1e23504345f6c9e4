import Foundation
import Pixels

/// One ASC CDL colour correction (`<ColorCorrection>`): slope, offset and power per channel, saturation, and the
/// descriptions a colourist left at each level.
public struct CDLCorrection: Sendable, Equatable {
    /// The `id` attribute: nil when absent, possibly empty.
    public var id: String?
    /// Per-channel multiplier (ASC CDL 1.2: ≥ 0).
    public var slope: SIMD3<Float>
    /// Per-channel value added after the slope.
    public var offset: SIMD3<Float>
    /// Per-channel exponent (ASC CDL 1.2: > 0).
    public var power: SIMD3<Float>
    /// Distance from Rec. 709 luma (ASC CDL 1.2: ≥ 0).
    public var saturation: Float
    /// `<Description>`s of the correction itself, in order.
    public var descriptions: [String]
    /// `<InputDescription>`: the colour space the correction expects.
    public var inputDescription: String?
    /// `<ViewingDescription>`: how it was viewed.
    public var viewingDescription: String?
    /// `<Description>`s inside `<SOPNode>`.
    public var sopDescriptions: [String]
    /// `<Description>`s inside `<SatNode>`.
    public var satDescriptions: [String]
    /// The line its `<ColorCorrection>` starts on, for a correction read from a file.
    public var line: Int?

    /// A correction; every value defaults to the identity.
    public init(id: String? = nil, slope: SIMD3<Float> = .one, offset: SIMD3<Float> = .zero,
                power: SIMD3<Float> = .one, saturation: Float = 1, descriptions: [String] = [],
                inputDescription: String? = nil, viewingDescription: String? = nil, sopDescriptions: [String] = [],
                satDescriptions: [String] = [], line: Int? = nil) {
        self.id = id
        self.slope = slope
        self.offset = offset
        self.power = power
        self.saturation = saturation
        self.descriptions = descriptions
        self.inputDescription = inputDescription
        self.viewingDescription = viewingDescription
        self.sopDescriptions = sopDescriptions
        self.satDescriptions = satDescriptions
        self.line = line
    }

    /// True when slope, offset, power and saturation leave every colour as it is.
    public var isIdentity: Bool { slope == .one && offset == .zero && power == .one && saturation == 1 }
}

/// A `<ColorDecision>` of a `.cdl`: the correction it applies (held inline or named by a `<ColorCorrectionRef>`)
/// and the footage it applies to.
public struct CDLDecision: Sendable, Equatable {
    /// Index into ``CDLContents/corrections``; nil when a reference names no correction in this file.
    public var correction: Int?
    /// The id a `<ColorCorrectionRef ref="…">` names, when the decision refers to a correction instead of holding it
    /// (resolve it against the `.ccc` it comes from when ``correction`` is nil).
    public var reference: String?
    /// `<MediaRef ref="…">`: the footage.
    public var mediaRef: String?
    /// `<Description>`s of the decision.
    public var descriptions: [String]
    /// The decision's `<InputDescription>`.
    public var inputDescription: String?
    /// The decision's `<ViewingDescription>`.
    public var viewingDescription: String?
    /// The line its `<ColorDecision>` starts on.
    public var line: Int
}

/// Which of the three ASC CDL files a document is, by its root element.
public enum CDLFileKind: String, Sendable, CaseIterable {
    /// `<ColorCorrection>`: one correction.
    case cc
    /// `<ColorCorrectionCollection>`: corrections by id.
    case ccc
    /// `<ColorDecisionList>`: decisions, each a correction (or a reference to one) for some footage.
    case cdl

    /// The root element's local name.
    public var rootElement: String {
        switch self {
        case .cc: return "ColorCorrection"
        case .ccc: return "ColorCorrectionCollection"
        case .cdl: return "ColorDecisionList"
        }
    }

    /// The usual file extension.
    public var fileExtension: String { rawValue }
}

/// An ASC CDL file as read: its corrections in document order, its decisions (`.cdl`), descriptions and warnings.
/// Which correction to use, by id or by position, is the caller's choice.
public struct CDLContents: Sendable, Equatable {
    /// The root element's kind.
    public var kind: CDLFileKind
    /// Every `<ColorCorrection>`, in document order (a `.cc` holds exactly one).
    public var corrections: [CDLCorrection]
    /// A `.cdl`'s `<ColorDecision>`s, in order; empty for `.cc` and `.ccc`.
    public var decisions: [CDLDecision]
    /// Top-level `<Description>`s (a `.cc`'s are its correction's).
    public var descriptions: [String]
    /// Top-level `<InputDescription>`.
    public var inputDescription: String?
    /// Top-level `<ViewingDescription>`.
    public var viewingDescription: String?
    /// What was tolerated: unknown elements, old element names, duplicate ids, unresolved references.
    public var warnings: [FormatWarning]

    /// Position in ``corrections`` of the first correction whose id is `id`.
    public func index(of id: String) -> Int? { corrections.firstIndex { $0.id == id } }

    /// The first correction whose id is `id`.
    public func correction(id: String) -> CDLCorrection? { index(of: id).map { corrections[$0] } }
}

/// Reads and writes the ASC Color Decision List 1.2 files: `.cc` (ColorCorrection), `.ccc`
/// (ColorCorrectionCollection) and `.cdl` (ColorDecisionList with ColorDecisions holding a ColorCorrection or a
/// ColorCorrectionRef).
///
/// Read: `SOPNode` (Slope, Offset, Power: three numbers each) and `SatNode` (also the old `SATNode`; the EDL
/// comment names `ASC_SOP`/`ASC_SAT` with a warning), ids missing or empty, any namespace or prefix (`cdl:Slope`),
/// Description / InputDescription / ViewingDescription at every level, numbers such as `-.03`, `1e0`, `+1.0`,
/// separated by spaces, newlines or commas. A correction without a SOPNode or SatNode has the identity there.
/// Values outside ASC CDL's ranges (slope < 0, power ≤ 0, saturation < 0) are refused. Bytes are checked to be
/// UTF-8 without control characters before any parsing (see ``MarkupReader``), files over ``maxBytes`` and
/// collections over ``maxCorrections`` are refused. Write: a `.cc` whose numbers read back as the same Floats.
public enum CDLFile {
    /// The namespace of ASC CDL 1.2, which the writer declares.
    public static let namespace = "urn:ASC:CDL:v1.2"
    /// Largest file read: a `.ccc` of 10,000 corrections with descriptions is about 6 MB.
    public static let maxBytes = 8 << 20
    /// Most corrections (or decisions) one file may hold.
    public static let maxCorrections = 10_000
    /// The extensions of the three files.
    public static let fileExtensions: Set<String> = ["cc", "ccc", "cdl"]

    /// Reads the CDL file at `path` (any of the three kinds, told apart by its root element).
    public static func read(path: String) throws(LookFormatsError) -> CDLContents {
        try LUTFormat.requireLUTFile(path)
        let name = FileBytes.displayName(path)
        return try parse(try FileBytes.load(path: path, name: name, maxBytes: maxBytes), fileName: name)
    }

    /// Parses CDL XML bytes; `fileName` names the file in errors and warnings.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(LookFormatsError) -> CDLContents {
        guard bytes.count <= maxBytes else {
            throw LookFormatsError(file: fileName, "is \(bytes.count) bytes, more than the \(maxBytes) LookStudio "
                                   + "reads for a CDL file")
        }
        let root = try MarkupReader.read(bytes, file: fileName)
        var reader = CDLReader(file: fileName)
        return try reader.contents(of: root)
    }

    /// The correction as a `.cc`: `<ColorCorrection>` in the ASC CDL 1.2 namespace with its id (when it has one),
    /// descriptions, SOPNode and SatNode. Every number is written so that it reads back as the same Float.
    public static func serialize(_ correction: CDLCorrection) throws(LookFormatsError) -> String {
        let values = [correction.slope, correction.offset, correction.power].flatMap { [$0.x, $0.y, $0.z] }
        guard (values + [correction.saturation]).allSatisfy(\.isFinite) else {
            throw LookFormatsError(file: correction.id ?? "correction", "a CDL holds finite numbers only")
        }
        func triple(_ v: SIMD3<Float>) -> String { [v.x, v.y, v.z].map(number).joined(separator: " ") }
        func element(_ name: String, _ text: String, _ indent: String) -> String {
            "\(indent)<\(name)>\(CLFFile.xml(printable(text)))</\(name)>\n"
        }
        let id = correction.id.map { " id=\"\(CLFFile.xml(printable($0)))\"" } ?? ""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<ColorCorrection\(id) xmlns=\"\(namespace)\">\n"
        for text in correction.descriptions { out += element("Description", text, "    ") }
        if let text = correction.inputDescription { out += element("InputDescription", text, "    ") }
        if let text = correction.viewingDescription { out += element("ViewingDescription", text, "    ") }
        out += "    <SOPNode>\n"
        for text in correction.sopDescriptions { out += element("Description", text, "        ") }
        out += element("Slope", triple(correction.slope), "        ")
        out += element("Offset", triple(correction.offset), "        ")
        out += element("Power", triple(correction.power), "        ")
        out += "    </SOPNode>\n    <SatNode>\n"
        for text in correction.satDescriptions { out += element("Description", text, "        ") }
        out += element("Saturation", number(correction.saturation), "        ")
        out += "    </SatNode>\n</ColorCorrection>\n"
        return out
    }

    /// Writes ``serialize(_:)`` to `path` atomically.
    public static func write(_ correction: CDLCorrection, to path: String) throws {
        try AtomicFile.write(Data(try serialize(correction).utf8), to: path)
    }

    /// `v` as a plain decimal (no exponent, which not every CDL reader takes) that reads back as the same Float:
    /// Swift's shortest round-trip digits, with an exponent moved into the decimal point.
    static func number(_ v: Float) -> String {
        let text = "\(v)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = String(text[..<e])
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa.removeFirst() }
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        let digits = mantissa.filter { $0 != "." }
        let shifted = point + exponent
        if shifted <= 0 { return sign + "0." + String(repeating: "0", count: -shifted) + digits }
        if shifted >= digits.count { return sign + digits + String(repeating: "0", count: shifted - digits.count) }
        let split = digits.index(digits.startIndex, offsetBy: shifted)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// Control characters, which a reader refuses, become spaces.
    private static func printable(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { TextCheck.isControl($0) ? " " : $0 }))
    }
}
