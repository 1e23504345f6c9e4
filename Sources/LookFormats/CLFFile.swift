import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LookCore
import Pixels

/// A Common LUT Format file as read: the transform in LookStudio's LUT model, and what was tolerated or baked.
public struct CLFContents: Sendable, Equatable {
    /// The transform: a plain cube, a shaper + cube, a 1D table, or a chain baked into a cube.
    public var lut: LUT
    /// The ProcessList's node names in order (`LUT1D`, `LUT3D`, `Matrix`, `Range`).
    public var nodes: [String]
    /// The `InputDescriptor` text, if any (LookStudio writes the look's working space there).
    public var inputDescriptor: String?
    /// Notes about baking a chain the LUT model cannot hold as it is.
    public var warnings: [FormatWarning]
}

/// Reads and writes the Academy / ASC Common LUT Format (SMPTE ST 2136-1, CLF 3): an XML `ProcessList` of nodes.
///
/// Read: `LUT1D`, `LUT3D`, `Matrix` and `Range` nodes with integer (`8i`…`16i`) or float (`16f`, `32f`) bit depths;
/// any other node is refused by name. Values are normalised to 0…1 scale by each node's bit depths, as the
/// specification scales them. `[LUT3D]`, `[LUT1D]` and `[LUT1D, LUT3D]` map onto the LUT model exactly; other
/// chains are evaluated in Float and baked into a cube (warning). Write: one `LUT3D` with 32f values.
public enum CLFFile {
    /// Nodes this reader evaluates.
    public static let supportedNodes: Set<String> = ["LUT1D", "LUT3D", "Matrix", "Range"]

    /// Most nodes × lattice points one chain may cost to bake: every node is evaluated at every point of the cube
    /// it is baked into. The figure is recipes' compose budget (2²⁸, about 12 s of work): 977 nodes at the 65³
    /// bake, 16 at 256³. The probe's 470 kB file of 5,000 identity matrices (1.37 billion evaluations) took 70 s
    /// in `inspect` and 88 s in `apply` before this budget.
    public static let maxNodePoints = 1 << 28

    /// Reads the CLF file at `path`.
    public static func read(path: String) throws(LookFormatsError) -> CLFContents {
        let name = FileBytes.displayName(path)
        return try parse(try FileBytes.load(path: path, name: name), fileName: name)
    }

    /// Refuses `<?…?>` anywhere but the XML declaration at the start: CLF files have none, and Foundation's XML
    /// parser crashes on one without data (`<?x?>`: it hands a NULL string to strlen; found by the fuzz smoke).
    static func refuseProcessingInstructions(_ bytes: [UInt8], file: String) throws(LookFormatsError) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let declaration = Array("<?xml".utf8)
        var line = 1
        for i in bytes.indices {
            if bytes[i] == 0x0A { line += 1 }
            guard bytes[i] == 0x3C, i + 1 < bytes.count, bytes[i + 1] == 0x3F else { continue }
            let isDeclaration = i == start && bytes[i...].starts(with: declaration) && i + 5 < bytes.count
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5])
            if !isDeclaration {
                throw LookFormatsError(file: file, line: line, "a processing instruction (<?…?>) other than the XML "
                                       + "declaration at the start: a Common LUT Format file has none")
            }
        }
    }

    /// Parses CLF XML bytes; `fileName` names the file in errors.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(LookFormatsError) -> CLFContents {
        try TextCheck.requireUTF8(bytes, file: fileName, format: "CLF")
        try refuseProcessingInstructions(bytes, file: fileName)
        let collector = CLFCollector(file: fileName)
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = collector
        let ok = parser.parse()
        if let error = collector.error { throw error }
        guard ok else { throw LookFormatsError(file: fileName, line: parser.lineNumber, xmlProblem(parser)) }
        guard collector.sawProcessList else {
            throw LookFormatsError(file: fileName, "no ProcessList element: not a Common LUT Format file")
        }
        guard collector.closedProcessList else {
            throw LookFormatsError(file: fileName, "the file ends before </ProcessList>: it is cut short")
        }
        guard !collector.nodes.isEmpty else {
            throw LookFormatsError(file: fileName, "the ProcessList has no LUT1D, LUT3D, Matrix or Range node")
        }
        return try collector.contents()
    }

    /// Why libxml2 refused the XML, in words: Foundation on Linux passes libxml2's error number on, which alone
    /// ("NSXMLParserErrorDomain error 89") tells a user nothing. The numbers are libxml2's `xmlParserErrors`.
    static func xmlProblem(_ parser: XMLParser) -> String {
        guard let code = (parser.parserError as NSError?)?.code else { return "not well-formed XML" }
        switch code {
        case 21...30, 88...90:
            return "the XML declares or uses entities (a DTD), which a CLF file has no use for and LookStudio does "
                + "not expand (libxml2 error \(code))"
        case 4, 5, 77:
            return "the XML is empty or cut short (libxml2 error \(code))"
        default:
            return "not well-formed XML (libxml2 error \(code))"
        }
    }

    /// The cube as CLF XML: one `LUT3D` node, 32-bit float in and out, tetrahedral, blue fastest as CLF orders it.
    public static func serialize(_ cube: ColorCube, id: String, name: String, description: String? = nil,
                                 inputDescriptor: String? = nil, outputDescriptor: String? = nil) -> String {
        let n = cube.size
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<ProcessList id=\"\(xml(id))\" name=\"\(xml(name))\" compCLFversion=\"3\">\n"
        if let description { out += "    <Description>\(xml(description))</Description>\n" }
        if let inputDescriptor { out += "    <InputDescriptor>\(xml(inputDescriptor))</InputDescriptor>\n" }
        if let outputDescriptor { out += "    <OutputDescriptor>\(xml(outputDescriptor))</OutputDescriptor>\n" }
        out += "    <LUT3D id=\"\(xml(id))-lut\" name=\"\(xml(name))\" inBitDepth=\"32f\" outBitDepth=\"32f\" "
            + "interpolation=\"tetrahedral\">\n"
        out += "        <Array dim=\"\(n) \(n) \(n) 3\">\n"
        out.reserveCapacity(out.utf8.count + cube.entryCount * 36)
        for r in 0..<n {
            for g in 0..<n {
                for b in 0..<n {
                    let v = cube.entry(r: r, g: g, b: b)
                    out += "\(v.x) \(v.y) \(v.z)\n"
                }
            }
        }
        out += "        </Array>\n    </LUT3D>\n</ProcessList>\n"
        return out
    }

    /// Writes `serialize(...)` atomically.
    public static func write(_ cube: ColorCube, to path: String, id: String, name: String, description: String? = nil,
                             inputDescriptor: String? = nil, outputDescriptor: String? = nil) throws {
        let text = serialize(cube, id: id, name: name, description: description, inputDescriptor: inputDescriptor,
                             outputDescriptor: outputDescriptor)
        try AtomicFile.write(Data(text.utf8), to: path)
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// One evaluated CLF node, its values normalised to 0…1 scale.
enum CLFNode {
    case lut1D(Shaper)
    case lut3D(ColorCube, Interpolation)
    case matrix([Float], offset: SIMD3<Float>)
    case range(minIn: Float?, maxIn: Float?, minOut: Float?, maxOut: Float?, clamp: Bool)

    var name: String {
        switch self {
        case .lut1D: return "LUT1D"
        case .lut3D: return "LUT3D"
        case .matrix: return "Matrix"
        case .range: return "Range"
        }
    }

    func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .lut1D(let shaper):
            return shaper.apply(v)
        case .lut3D(let cube, let interpolation):
            return cube.sample(v, interpolation: interpolation)
        case .matrix(let m, let offset):
            return SIMD3(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
                         m[6] * v.x + m[7] * v.y + m[8] * v.z) + offset
        case .range(let minIn, let maxIn, let minOut, let maxOut, let clamp):
            var out = v
            if let minIn, let maxIn, let minOut, let maxOut {
                out = (v - minIn) * ((maxOut - minOut) / (maxIn - minIn)) + minOut
                if clamp {
                    out = out.clamped(lowerBound: SIMD3(repeating: minOut), upperBound: SIMD3(repeating: maxOut))
                }
            } else if let minIn, let minOut {
                out = simd_max(v - minIn + minOut, SIMD3(repeating: minOut))
            } else if let maxIn, let maxOut {
                out = simd_min(v - maxIn + maxOut, SIMD3(repeating: maxOut))
            }
            return out
        }
    }
}

@inline(__always) private func simd_max(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    a.replacing(with: b, where: a .< b)
}

@inline(__always) private func simd_min(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    a.replacing(with: b, where: a .> b)
}

/// SAX collector for a ProcessList: gathers each node's attributes, array and range values, then builds nodes.
private final class CLFCollector: NSObject, XMLParserDelegate {
    let file: String
    var error: LookFormatsError?
    var sawProcessList = false
    /// Whether `</ProcessList>` was read: libxml2 through XMLParser reports a file cut short as parsed.
    var closedProcessList = false
    var nodes: [CLFNode] = []
    var inputDescriptor: String?

    private var node: (name: String, attributes: [String: String], line: Int)?
    private var arrayDim: [Int] = []
    private var numbers: [Float] = []
    private var rangeValues: [String: Float] = [:]
    private var text = ""
    private var inArray = false
    private var depth = 0

    init(file: String) { self.file = file }

    private static let ignored: Set<String> = ["Description", "InputDescriptor", "OutputDescriptor", "Info"]
    private static let rangeFields: Set<String> = ["minInValue", "maxInValue", "minOutValue", "maxOutValue"]

    func fail(_ parser: XMLParser, _ message: String) {
        if error == nil { error = LookFormatsError(file: file, line: parser.lineNumber, message) }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        depth += 1
        text = ""
        if depth == 1 {
            guard name == "ProcessList" else { return fail(parser, "root element is <\(name)>, not <ProcessList>") }
            sawProcessList = true
            return
        }
        if depth == 2 {
            if CLFCollector.ignored.contains(name) { return }
            guard CLFFile.supportedNodes.contains(name) else {
                return fail(parser, "the \(name) node is not supported (LookStudio reads LUT1D, LUT3D, Matrix and "
                            + "Range; bake the chain with ociobakelut --format clf first)")
            }
            node = (name, attributes, parser.lineNumber)
            arrayDim = []
            numbers = []
            rangeValues = [:]
            return
        }
        if node != nil && name == "Array" {
            arrayDim = (attributes["dim"] ?? "").split(separator: " ").compactMap { Int($0) }
            // A hostile dim must not overflow or reserve gigabytes: the largest table read is a 256³ cube.
            let limit = 3 * 256 * 256 * 256
            var count = 1
            for d in arrayDim {
                let (product, overflow) = count.multipliedReportingOverflow(by: Swift.max(d, 0))
                guard !overflow, product <= limit else {
                    return fail(parser, "Array dim \"\(attributes["dim"] ?? "")\" is larger than LookStudio reads "
                                + "(at most 256³ entries)")
                }
                count = product
            }
            numbers.reserveCapacity(count)
            inArray = true
        } else if node != nil && name == "IndexMap" {
            fail(parser, "IndexMap (CLF 2) is not supported; write the LUT without an index map")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inArray { appendNumbers(string, parser) } else { text += string }
    }

    private var pending = ""

    /// Array text arrives in chunks that may split a number: keep the unfinished tail for the next chunk.
    private func appendNumbers(_ chunk: String, _ parser: XMLParser) {
        let all = pending + chunk
        var tokens = all.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        if let last = all.last, !(last == " " || last == "\n" || last == "\t" || last == "\r"), !tokens.isEmpty {
            pending = String(tokens.removeLast())
        } else {
            pending = ""
        }
        for t in tokens {
            guard let v = Float(t), v.isFinite else {
                return fail(parser, "\"\(t)\" in an Array is not a finite number")
            }
            numbers.append(v)
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { depth -= 1 }
        if depth == 1 { closedProcessList = true }
        if inArray && name == "Array" {
            if !pending.isEmpty { appendNumbers(" ", parser) }
            inArray = false
            return
        }
        if depth == 2 && name == "InputDescriptor" {
            inputDescriptor = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if depth == 3, CLFCollector.rangeFields.contains(name) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let v = Float(trimmed), v.isFinite else {
                return fail(parser, "\(name) \"\(trimmed)\" is not a number")
            }
            rangeValues[name] = v
        }
        if depth == 2, let current = node, current.name == name {
            do {
                nodes.append(try build(current.name, current.attributes, line: current.line))
            } catch let e as LookFormatsError {
                error = e
                parser.abortParsing()
            } catch {
                self.error = LookFormatsError(file: file, line: current.line, "\(name): \(error)")
                parser.abortParsing()
            }
            node = nil
        }
    }

    /// 1 for float depths, else the integer code maximum (`10i` → 1023).
    private func scale(_ depth: String?, _ line: Int) throws -> Float {
        switch depth ?? "32f" {
        case "16f", "32f": return 1
        case "8i": return 255
        case "10i": return 1023
        case "12i": return 4095
        case "16i": return 65535
        case let other: throw LookFormatsError(file: file, line: line, "unknown bit depth \"\(other)\"")
        }
    }

    private func build(_ name: String, _ attributes: [String: String], line: Int) throws -> CLFNode {
        let inScale = try scale(attributes["inBitDepth"], line)
        let outScale = try scale(attributes["outBitDepth"], line)
        func expect(_ count: Int, _ what: String) throws {
            guard numbers.count == count else {
                throw LookFormatsError(file: file, line: line,
                                       "\(name) Array dim \"\(arrayDim.map(String.init).joined(separator: " "))\" "
                                       + "needs \(count) values (\(what)), found \(numbers.count)")
            }
        }
        switch name {
        case "LUT3D":
            guard arrayDim.count == 4, arrayDim[3] == 3, arrayDim[0] == arrayDim[1], arrayDim[1] == arrayDim[2] else {
                throw LookFormatsError(file: file, line: line, "LUT3D Array dim must be \"N N N 3\"")
            }
            let n = arrayDim[0]
            try expect(3 * n * n * n, "N³ RGB triples")
            // CLF orders entries blue fastest; the cube model is red fastest.
            var values = [Float](repeating: 0, count: numbers.count)
            var i = 0
            for r in 0..<n { for g in 0..<n { for b in 0..<n {
                let dst = 3 * (r + n * (g + n * b))
                values[dst] = numbers[i] / outScale
                values[dst + 1] = numbers[i + 1] / outScale
                values[dst + 2] = numbers[i + 2] / outScale
                i += 3
            } } }
            let interpolation: Interpolation = attributes["interpolation"] == "tetrahedral" ? .tetrahedral : .trilinear
            return .lut3D(try ColorCube(size: n, values: values), interpolation)
        case "LUT1D":
            if attributes["halfDomain"] != nil || attributes["rawHalfs"] != nil {
                throw LookFormatsError(file: file, line: line, "LUT1D with halfDomain or rawHalfs is not supported")
            }
            guard arrayDim.count == 2, arrayDim[1] == 1 || arrayDim[1] == 3 else {
                throw LookFormatsError(file: file, line: line, "LUT1D Array dim must be \"N 1\" or \"N 3\"")
            }
            let n = arrayDim[0], channels = arrayDim[1]
            try expect(n * channels, "N entries of \(channels) channel(s)")
            var values = [Float](repeating: 0, count: 3 * n)
            for i in 0..<n { for c in 0..<3 { values[3 * i + c] = numbers[channels == 3 ? 3 * i + c : i] / outScale } }
            // The table's input runs over the input bit depth's code range, which normalises to 0…1.
            return .lut1D(try Shaper(size: n, values: values))
        case "Matrix":
            let columns = arrayDim.count >= 2 ? arrayDim[1] : 0
            guard arrayDim.count >= 2, arrayDim[0] == 3, columns == 3 || columns == 4 else {
                throw LookFormatsError(file: file, line: line, "Matrix Array dim must be \"3 3\" or \"3 4\"")
            }
            try expect(3 * columns, "a 3×\(columns) matrix")
            var m = [Float](repeating: 0, count: 9)
            var offset = SIMD3<Float>()
            for row in 0..<3 {
                for col in 0..<3 { m[3 * row + col] = numbers[columns * row + col] * inScale / outScale }
                if columns == 4 { offset[row] = numbers[columns * row + 3] / outScale }
            }
            return .matrix(m, offset: offset)
        default:
            let minIn = rangeValues["minInValue"].map { $0 / inScale }
            let maxIn = rangeValues["maxInValue"].map { $0 / inScale }
            let minOut = rangeValues["minOutValue"].map { $0 / outScale }
            let maxOut = rangeValues["maxOutValue"].map { $0 / outScale }
            guard (minIn == nil) == (minOut == nil), (maxIn == nil) == (maxOut == nil),
                  minIn != nil || maxIn != nil else {
                throw LookFormatsError(file: file, line: line,
                                       "Range needs minInValue with minOutValue and/or maxInValue with maxOutValue")
            }
            if let a = minIn, let b = maxIn, !(a < b) {
                throw LookFormatsError(file: file, line: line, "Range minInValue must be below maxInValue")
            }
            return .range(minIn: minIn, maxIn: maxIn, minOut: minOut, maxOut: maxOut,
                          clamp: (attributes["style"] ?? "Clamp").lowercased() != "noclamp")
        }
    }

    /// The nodes as a LUT: exact for `[LUT3D]`, `[LUT1D]`, `[LUT1D, LUT3D]`, else baked into a cube.
    func contents() throws(LookFormatsError) -> CLFContents {
        let names = nodes.map(\.name)
        do {
            switch (nodes.count, nodes.first, nodes.last) {
            case (1, .lut3D(let cube, _)?, _):
                return CLFContents(lut: LUT(cube: cube), nodes: names, inputDescriptor: inputDescriptor, warnings: [])
            case (1, .lut1D(let shaper)?, _):
                return CLFContents(lut: try LUT(shaper: shaper), nodes: names, inputDescriptor: inputDescriptor,
                                   warnings: [])
            case (2, .lut1D(let shaper)?, .lut3D(let cube, _)?):
                return CLFContents(lut: try LUT(shaper: shaper, cube: cube), nodes: names,
                                   inputDescriptor: inputDescriptor, warnings: [])
            default:
                var size = LUT.defaultBakeSize
                for case .lut3D(let cube, _) in nodes { size = Swift.max(size, cube.size) }
                try checkWork(nodes: nodes.count, size: size)
                let chain = nodes
                let cube = try ColorCube(size: size) { v in chain.reduce(v) { $1.apply($0) } }
                let warning = FormatWarning("the chain \(names.joined(separator: " → ")) was evaluated in Float and "
                                            + "baked into a \(size)³ cube")
                return CLFContents(lut: LUT(cube: cube), nodes: names, inputDescriptor: inputDescriptor,
                                   warnings: [warning])
            }
        } catch let error as LookFormatsError {
            throw error
        } catch {
            throw LookFormatsError(file: file, "\(error)")
        }
    }

    /// Refuses a chain whose bake would cost more than `CLFFile.maxNodePoints`, before any of it is done.
    private func checkWork(nodes: Int, size: Int) throws(LookFormatsError) {
        let points = size * size * size
        let work = nodes * points
        let budget = CLFFile.maxNodePoints
        let grouped = DecodeBudget.grouped
        guard work > budget else { return }
        throw LookFormatsError(file: file, "a chain of \(grouped(nodes)) nodes baked into a \(size)³ cube would "
            + "evaluate \(grouped(nodes)) × \(grouped(points)) = \(grouped(work)) lattice points, over the budget of "
            + "\(grouped(budget)) (about 12 s of work); at \(size)³ at most \(grouped(budget / points)) nodes fit. "
            + "Merge consecutive Matrix nodes, or bake the chain with ociobakelut first")
    }
}
