import Foundation
import ImageIO
import LookCore
import LookFormats

/// Core Image's `CIColorCube` / `CIColorCubeWithColorSpace`: at most 64 points per axis.
///
/// A `.png` path gets the tiled reference image editors and GPUImage-style loaders read (N = T², 16-bit); any other
/// extension (`.bin`, `.f32`, `.data`) gets the filter's `inputCubeData` itself: N³ RGBA float32 entries,
/// little-endian (Apple platforms are), red fastest, then green, then blue, alpha 1.
enum CoreImageTarget {
    static let target = ExportTarget(
        id: "core-image", format: "Apple Core Image CIColorCube (tiled PNG or raw RGBA float32 cube data)",
        fileExtension: "png", defaultSize: 64, sizes: 2...64,
        valueRange: "PNG 16-bit 0…65535, or float32 0…1",
        cannotCarry: "strength, > 64 points, a working space other than sRGB (CIColorCubeWithColorSpace can take "
            + "one in code, not in the file)",
        write: write)

    static func write(_ look: ExportLook, size: Int, path: String) throws -> ExportResult {
        let (cube, warnings) = try look.table(size: size, target: "core-image")
        if path.lowercased().hasSuffix(".png") {
            guard LUTFormat.defaultLayout(size: size) == .tiled else {
                throw ExportError(target: "core-image", "a tiled PNG needs a square size (4, 9, 16, 25, 36, 49 or 64), "
                                  + "not \(size); or write raw cube data to a .bin file")
            }
            try CubeImage.write(cube, to: path, layout: .tiled, depth: .sixteen)
            return ExportResult(files: [path], warnings: warnings)
        }
        try AtomicFile.write(cubeData(cube), to: path)
        return ExportResult(files: [path], warnings: warnings,
                            notes: ["CIColorCube: inputCubeDimension \(size), inputCubeData = the file's "
                                    + "\(4 * 4 * cube.entryCount) bytes"])
    }

    /// The cube as `CIColorCube`'s `inputCubeData`: RGBA float32, little-endian, red fastest.
    static func cubeData(_ cube: ColorCube) -> Data {
        var floats = [Float](repeating: 1, count: 4 * cube.entryCount)
        for i in 0..<cube.entryCount {
            floats[4 * i] = cube.values[3 * i]
            floats[4 * i + 1] = cube.values[3 * i + 1]
            floats[4 * i + 2] = cube.values[3 * i + 2]
        }
        return floats.withUnsafeBytes { raw in
            Data(raw.bindMemory(to: UInt32.self).flatMap { v -> [UInt8] in
                let le = v.littleEndian
                return [UInt8(le & 0xFF), UInt8(le >> 8 & 0xFF), UInt8(le >> 16 & 0xFF), UInt8(le >> 24)]
            })
        }
    }
}
