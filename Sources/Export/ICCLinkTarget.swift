import ColorManagement
import Foundation
import ImageIO
import LookCore

/// An ICC v4 device link (RGB → RGB) built with LittleCMS 2, for colour-managed applications and `tificc -l`.
///
/// The link takes sRGB device values, converts them into the look's working space, applies the look and converts
/// back to sRGB (one CLUT, composed in Float), so the working space travels inside the link itself.
enum ICCLinkTarget {
    static let target = ExportTarget(
        id: "icc", format: "ICC v4 device link RGB → RGB (LittleCMS tificc/jpgicc -l, colour-managed apps)",
        fileExtension: "icc", defaultSize: 33, sizes: 2...255, valueRange: "16-bit CLUT 0…65535",
        cannotCarry: "strength (the working space is composed in: the link maps sRGB to sRGB)",
        write: write)

    static func write(_ look: ExportLook, size: Int, path: String) throws -> ExportResult {
        var (cube, warnings) = try look.table(size: size, target: "icc", keepSpace: true)
        if !look.isSRGB {
            let managed = ColorManagedLook(look: cube, workingSpace: look.workingSpace)
            cube = try managed.cube(input: ColorProfile(.sRGB), output: ColorProfile(.sRGB), gridSize: size)
                .resampled(to: size).clampedToUnitRange().cube
        }
        let description = "\(look.name) (LookStudio look; sRGB → \(look.workingSpace.description) → look → sRGB)"
        let bytes = try DeviceLink.build(cube: cube, description: description, copyright: "Made with LookStudio")
        try AtomicFile.write(Data(bytes), to: path)
        return ExportResult(files: [path], warnings: warnings,
                            notes: ["apply with LittleCMS: tificc -l \(path) in.tif out.tif (or jpgicc -l)"])
    }
}
