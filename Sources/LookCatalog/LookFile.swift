import Foundation
import ImageIO
import LookCore
import LookFormats

/// File-format dispatch for import and export: the one place the catalog reaches the LookFormats readers and
/// writers (through `LUTFormat`, which picks by extension, then content).
public enum LookFile {
    /// A cube read from a file, with what it was and what was tolerated on the way.
    public struct Loaded: Sendable, Equatable {
        /// The cube (a .cube/.3dl with a 1D shaper or input ranges is baked into a plain cube).
        public var cube: ColorCube
        /// png, cube or 3dl.
        public var format: String
        /// For PNGs, the layout found or given.
        public var layout: CubeLayout?
        /// Deviations reported by the reader, and notes about baking, each naming the file.
        public var warnings: [String]
    }

    /// Reads a cube from a PNG (any layout; nil detects), `.cube` or `.3dl` file.
    public static func read(path: String, layout: CubeLayout?) throws -> Loaded {
        let name = URL(fileURLWithPath: path).lastPathComponent
        // A plain cube is stored on the grid its author chose. A shaper's or input range's 3D table sits in the
        // shaper's space, so its own size over plain 0…1 inputs can be far too coarse (a 3³ table behind a log
        // shaper came out up to 80 codes from `apply --lut` of the same file): those are baked on at least 64
        // points, which store as a tiled PNG (not the standard 65).
        let read = try LUTFormat.readCube(path: path, layout: layout, bakeSize: .atLeast(64))
        var warnings = read.file.warnings.map { "\(name) \($0)" }
        if let size = read.bakedSize {
            warnings.append("\(name): shaper or input range baked into a \(size)³ cube "
                            + "(the catalog stores plain cubes)")
        }
        return Loaded(cube: read.cube, format: read.file.format.rawValue, layout: read.file.layout, warnings: warnings)
    }

    /// Writes `cube` to a PNG (layout, bits), `.cube` or `.3dl` file, chosen by extension; returns warnings.
    @discardableResult
    public static func write(_ cube: ColorCube, to path: String, layout: CubeLayout?, bits: Int?, size: Int?,
                             title: String?) throws -> [String] {
        let options = LUTFormat.WriteOptions(layout: layout, bits: bits, size: size)
        return try LUTFormat.write(LUT(cube: cube, title: title), to: path, options: options).map { "\($0)" }
    }
}
