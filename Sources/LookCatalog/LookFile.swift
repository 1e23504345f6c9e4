import Foundation
import ImageIO
import LookCore
import LookFormats

/// File-format dispatch for import and export: the one place the catalog calls the LookFormats readers and
/// writers, picking by extension (.png, .cube, .3dl).
public enum LookFile {
    /// A cube read from a file, with what it was and what was tolerated on the way.
    public struct Loaded: Sendable, Equatable {
        /// The cube (a .cube/.3dl with a 1D shaper or input ranges is baked into a plain cube).
        public var cube: ColorCube
        /// png, cube or 3dl.
        public var format: String
        /// For PNGs, the layout found or given.
        public var layout: CubeLayout?
        /// Deviations reported by the reader, and notes about baking.
        public var warnings: [String]
    }

    /// The grid a LUT with a shaper or input ranges is baked on: 64 stores as a tiled PNG.
    static let bakeSize = 64

    /// Reads a cube from a PNG (any layout; nil detects), `.cube` or `.3dl` file.
    public static func read(path: String, layout: CubeLayout?) throws -> Loaded {
        let name = URL(fileURLWithPath: path).lastPathComponent
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png":
            let image = try CubeImage.read(path: path, layout: layout)
            return Loaded(cube: image.cube, format: "png", layout: image.layout, warnings: [])
        case "cube":
            let contents = try CubeFile.read(path: path)
            let (cube, note) = try plainCube(contents.lut, name: name)
            return Loaded(cube: cube, format: "cube", layout: nil,
                          warnings: contents.warnings.map { "\(name) \($0)" } + note)
        case "3dl":
            let contents = try ThreeDLFile.read(path: path)
            let (cube, note) = try plainCube(contents.lut, name: name)
            return Loaded(cube: cube, format: "3dl", layout: nil,
                          warnings: contents.warnings.map { "\(name) \($0)" } + note)
        default:
            throw LookFormatsError(file: name, "unknown file type: use .png, .cube or .3dl")
        }
    }

    /// Writes `cube` to a PNG (layout, bits), `.cube` or `.3dl` file, chosen by extension.
    public static func write(_ cube: ColorCube, to path: String, layout: CubeLayout?, depth: PixelBuffer.Depth,
                             title: String?) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png":
            try CubeImage.write(cube, to: path, layout: layout ?? LookBlob.layout(forSize: cube.size), depth: depth)
        case "cube":
            try CubeFile.write(LUT(cube: cube, title: title), to: path)
        case "3dl":
            try ThreeDLFile.write(cube, to: path)
        default:
            throw LookFormatsError(file: name, "unknown output type: use .png, .cube or .3dl")
        }
    }

    private static func plainCube(_ lut: LUT, name: String) throws -> (ColorCube, [String]) {
        if lut.isPlainCube, let cube = lut.cube { return (cube, []) }
        let size = lut.cube?.size ?? bakeSize
        return (try lut.bakedCube(size: size),
                ["\(name): shaper or input range baked into a \(size)³ cube (the catalog stores plain cubes)"])
    }
}
