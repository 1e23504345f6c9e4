import LookCore

/// A LUT file as the plain 0…1 cube images are looked up in, with the file as read.
public struct PlainCube: Sendable, Equatable {
    /// The cube over 0…1 inputs.
    public var cube: ColorCube
    /// The grid a shaper or a non-0…1 domain was baked on; nil when the file held a plain cube (returned as is).
    public var bakedSize: Int?
    /// The file as read: format, dialect, layout and tolerated deviations.
    public var file: LoadedLUT
}

extension LUTFormat {
    /// The grid a LUT with a 1D shaper or a non-0…1 input domain is baked on (a plain cube keeps its own size).
    public enum BakeSize: Sendable, Equatable {
        /// The default: the LUT's own cube size, at least `LUT.defaultBakeSize` (65), so baking loses no detail of
        /// the file's grid and a shaper-only LUT gets a fine one.
        case standard
        /// The LUT's own cube size, at least this many points a side.
        case atLeast(Int)
        /// Exactly this many points a side.
        case fixed(Int)
    }

    /// Reads any supported LUT file (`layout` forces a PNG layout) as the plain 0…1 cube images are looked up in:
    /// the one way from "a LUT file" to "a cube". A plain cube is returned as is; a shaper or an input domain is
    /// evaluated exactly at each point of a `bakeSize` grid.
    public static func readCube(path: String, layout: CubeLayout? = nil,
                                bakeSize: BakeSize = .standard) throws -> PlainCube {
        let file = try read(path: path, layout: layout)
        if file.lut.isPlainCube, let cube = file.lut.cube {
            return PlainCube(cube: cube, bakedSize: nil, file: file)
        }
        let size: Int? = switch bakeSize {
        case .standard: nil
        case .atLeast(let floor): max(file.lut.cube?.size ?? floor, floor)
        case .fixed(let size): size
        }
        let cube = try file.lut.bakedCube(size: size)
        return PlainCube(cube: cube, bakedSize: cube.size, file: file)
    }
}
