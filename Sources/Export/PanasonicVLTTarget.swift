import Foundation
import ImageIO
import LookCore

/// Panasonic VariCam / LUMIX `.vlt` ("panasonic vlt file version 1.0"): 17³ rows of three 12-bit integers
/// (0…4095), red fastest, after a fixed three-line header and a blank line (the layout LUTCalc and Panasonic's
/// own files use). Strict firmware wants LF line ends and no title, so none is written.
enum PanasonicVLTTarget {
    static let target = ExportTarget(
        id: "panasonic", format: "Panasonic VariCam / LUMIX .vlt", fileExtension: "vlt", defaultSize: 17,
        sizes: 17...17, valueRange: "12-bit integers 0…4095",
        cannotCarry: "strength, a title, sizes other than 17, a working space other than sRGB",
        write: { look, size, path in
            let (cube, warnings) = try look.table(size: size, target: "panasonic")
            try AtomicFile.write(Data(serialize(cube).utf8), to: path)
            return ExportResult(files: [path], warnings: warnings)
        })

    /// The `.vlt` text of a 0…1 cube.
    static func serialize(_ cube: ColorCube) -> String {
        var out = "# panasonic vlt file version 1.0\n# source vlt file \"\"\nLUT_3D_SIZE \(cube.size)\n\n"
        out.reserveCapacity(out.utf8.count + cube.entryCount * 15)
        for i in 0..<cube.entryCount {
            let code = (0..<3).map { Int((cube.values[3 * i + $0] * 4095).rounded()) }
            out += "\(code[0]) \(code[1]) \(code[2])\n"
        }
        return out
    }
}
