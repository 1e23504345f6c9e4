import Foundation
import ImageIO
import LookCore
import LookFormats

/// The `.cube` family: Resolve, Premiere, Final Cut Pro and in-camera / monitor LUT slots.
///
/// All read Adobe's `.cube` with `LUT_3D_SIZE`, red fastest, on the unit domain; values 0…1 except for Resolve, whose
/// HDR LUTs reach beyond, so a look's values beyond are written as they are there. Cameras and monitors
/// (Sony, Fujifilm, Atomos, Blackmagic) take 33³ only and are strict, so the camera file has no TITLE line.
enum CubeTargets {
    static let all: [ExportTarget] = [
        cube(id: "resolve", format: "DaVinci Resolve .cube", sizes: 2...65, keepsRange: true),
        cube(id: "premiere", format: "Adobe Premiere Pro / After Effects (Lumetri) .cube", sizes: 2...65),
        cube(id: "fcpx", format: "Final Cut Pro (Custom LUT effect) .cube", sizes: 2...65),
        cube(id: "camera-33", format: "camera / monitor .cube (Sony, Fujifilm, Atomos, Blackmagic)", sizes: 33...33,
             titled: false),
    ]

    /// A `.cube` target; `keepsRange` for applications that read values beyond 0…1 (Resolve's HDR LUTs).
    static func cube(id: String, format: String, sizes: ClosedRange<Int>, titled: Bool = true, keepsRange: Bool = false)
        -> ExportTarget {
        ExportTarget(id: id, format: format, fileExtension: "cube", defaultSize: 33, sizes: sizes,
                     valueRange: keepsRange ? "float (beyond 0…1 kept)" : "float 0…1",
                     cannotCarry: "strength, a working space other than sRGB",
                     write: { look, size, path in
                         try write(look, size: size, to: path, target: id, titled: titled, keepRange: keepsRange)
                     })
    }

    /// Writes the look as a plain `.cube` (strength and working space baked in).
    static func write(_ look: ExportLook, size: Int, to path: String, target: String, titled: Bool = true,
                      keepRange: Bool = false) throws -> ExportResult {
        let (cube, warnings) = try look.table(size: size, target: target, keepRange: keepRange)
        let text = CubeFile.serialize(LUT(cube: cube, title: titled ? look.name : nil), dialect: .adobe)
        try AtomicFile.write(Data(text.utf8), to: path)
        return ExportResult(files: [path], warnings: warnings)
    }
}
