import Foundation
import LookCore

/// What `lookstudio inspect` reports about a LUT file; encodes to the documented `--json` shape (snake_case).
public struct LUTInspection: Sendable, Equatable, Codable {
    /// One tolerated deviation.
    public struct Warning: Sendable, Equatable, Codable {
        /// 1-based line, for text formats.
        public var line: Int?
        /// What was tolerated.
        public var message: String
    }

    /// File name.
    public var file: String
    /// `cube`, `3dl` or `png`.
    public var format: String
    /// The variant, e.g. "Resolve .cube", "tiled PNG 8-bit".
    public var dialect: String
    /// TITLE, if the file has one.
    public var title: String?
    /// 3D grid size, if there is a cube.
    public var cubeSize: Int?
    /// 1D table size, if there is a shaper.
    public var shaperSize: Int?
    /// Input range of the cube per channel (`DOMAIN_MIN` / `LUT_3D_INPUT_RANGE`).
    public var cubeDomainMin: [Float]?
    /// Upper end of the cube's input range per channel.
    public var cubeDomainMax: [Float]?
    /// Input range of the shaper per channel.
    public var shaperDomainMin: [Float]?
    /// Upper end of the shaper's input range per channel.
    public var shaperDomainMax: [Float]?
    /// Smallest output value in the tables.
    public var valueMin: Float
    /// Largest output value in the tables.
    public var valueMax: Float
    /// Mean |LUT(x) − x| over a 33³ grid of 0…1 inputs, in 8-bit code values.
    public var meanDistanceFromIdentity8bit: Double
    /// Largest |LUT(x) − x| over that grid, in 8-bit code values.
    public var maxDistanceFromIdentity8bit: Double
    /// PNG layout, when the file is a PNG.
    public var layout: String?
    /// PNG sample depth or `.3dl` output bits.
    public var bits: Int?
    /// Every tolerated deviation, with its line.
    public var warnings: [Warning]

    enum CodingKeys: String, CodingKey {
        case file, format, dialect, title, layout, bits, warnings
        case cubeSize = "cube_size", shaperSize = "shaper_size"
        case cubeDomainMin = "cube_domain_min", cubeDomainMax = "cube_domain_max"
        case shaperDomainMin = "shaper_domain_min", shaperDomainMax = "shaper_domain_max"
        case valueMin = "value_min", valueMax = "value_max"
        case meanDistanceFromIdentity8bit = "mean_distance_from_identity_8bit"
        case maxDistanceFromIdentity8bit = "max_distance_from_identity_8bit"
    }

    /// Reads and describes the LUT at `path`.
    public static func inspect(path: String, layout: CubeLayout? = nil) throws -> LUTInspection {
        let loaded = try LUTFormat.read(path: path, layout: layout)
        return LUTInspection(loaded, file: (path as NSString).lastPathComponent)
    }

    /// Describes an already-loaded LUT.
    public init(_ loaded: LoadedLUT, file: String) {
        let lut = loaded.lut
        self.file = file
        format = loaded.format.rawValue
        dialect = loaded.dialect
        title = lut.title
        cubeSize = lut.cube?.size
        shaperSize = lut.shaper?.size
        if lut.cube != nil {
            cubeDomainMin = [lut.cubeInputMin.x, lut.cubeInputMin.y, lut.cubeInputMin.z]
            cubeDomainMax = [lut.cubeInputMax.x, lut.cubeInputMax.y, lut.cubeInputMax.z]
        }
        if let shaper = lut.shaper {
            shaperDomainMin = [shaper.inputMin.x, shaper.inputMin.y, shaper.inputMin.z]
            shaperDomainMax = [shaper.inputMax.x, shaper.inputMax.y, shaper.inputMax.z]
        }
        let tables = (lut.cube?.values ?? []) + (lut.shaper?.values ?? [])
        valueMin = tables.min() ?? 0
        valueMax = tables.max() ?? 0
        // The distance is measured on the transform over 0…1 inputs, whatever the file's domain, so it answers
        // "how much does this LUT change an image" for every format alike.
        let n = 33
        var sum = 0.0, worst = 0.0
        let sampler = lut.isPlainCube ? lut.cube.map(CubeSampler.init) : nil
        for b in 0..<n {
            for g in 0..<n {
                for r in 0..<n {
                    let x = SIMD3(Float(r), Float(g), Float(b)) / Float(n - 1)
                    let y = sampler?.sample(x, interpolation: .tetrahedral) ?? lut.evaluate(x)
                    for c in 0..<3 {
                        let d = Double(Swift.abs(y[c] - x[c])) * 255
                        sum += d
                        worst = Swift.max(worst, d)
                    }
                }
            }
        }
        // Three decimals: more would only show Float noise in a report meant to be compared across runs.
        meanDistanceFromIdentity8bit = (sum / Double(3 * n * n * n) * 1000).rounded() / 1000
        maxDistanceFromIdentity8bit = (worst * 1000).rounded() / 1000
        layout = loaded.layout?.rawValue
        bits = loaded.bits
        warnings = loaded.warnings.map { Warning(line: $0.line, message: $0.message) }
    }

    /// The report as aligned `key: value` lines for a terminal.
    public var text: String {
        func triple(_ v: [Float]?) -> String { v.map { $0.map { "\($0)" }.joined(separator: " ") } ?? "" }
        var lines = ["file:       \(file)", "format:     \(dialect)"]
        if let title { lines.append("title:      \(MessageText.quote(title))") }
        if let layout { lines.append("layout:     \(layout)") }
        if let bits { lines.append("bits:       \(bits)") }
        if let cubeSize {
            lines.append("3D size:    \(cubeSize)³ (\(cubeSize * cubeSize * cubeSize) entries)")
            lines.append("3D domain:  \(triple(cubeDomainMin)) … \(triple(cubeDomainMax))")
        }
        if let shaperSize {
            lines.append("1D size:    \(shaperSize)")
            lines.append("1D domain:  \(triple(shaperDomainMin)) … \(triple(shaperDomainMax))")
        }
        lines.append("values:     \(valueMin) … \(valueMax)")
        lines.append(String(format: "identity:   mean %.2f, max %.2f 8-bit codes from identity",
                            meanDistanceFromIdentity8bit, maxDistanceFromIdentity8bit))
        if warnings.isEmpty {
            lines.append("warnings:   none")
        } else {
            lines.append("warnings:   \(warnings.count)")
            for w in warnings { lines.append("  " + (w.line.map { "line \($0): " } ?? "") + w.message) }
        }
        return lines.joined(separator: "\n")
    }
}
