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
        if let moved = whiteFixupWarning(cube) { warnings.append(moved) }
        let description = "\(look.name) (LookStudio look; sRGB → \(look.workingSpace.description) → look → sRGB)"
        let bytes = try DeviceLink.build(cube: cube, description: description, copyright: "Made with LookStudio")
        try AtomicFile.write(Data(bytes), to: path)
        return ExportResult(files: [path], warnings: warnings,
                            notes: ["apply with LittleCMS: tificc -l \(path) in.tif out.tif (or jpgicc -l)"])
    }

    /// A look that moves white further than the 2 codes the link promises meets LittleCMS's "white on white fixup":
    /// every optimised 8- or 16-bit RGB transform (tificc's and jpgicc's default) patches the node at white back to
    /// white, whatever the link holds, and interpolates the colours near it towards that. No construction of the
    /// link avoids it. LittleCMS skips the patch only when, in channel order, the first channel whose white differs
    /// at 16 bits differs by more than 0xF000 (a white sent to near-black, as in Hot Black Infrared); that test is
    /// mirrored here so the warning comes exactly when the consumer moves the look.
    static func whiteFixupWarning(_ cube: ColorCube) -> String? {
        let white = cube.values.suffix(3).map { min(max($0, 0), 1) }
        for channel in white.map({ 65535 - Int(($0 * 65535).rounded()) }) where channel != 0 {
            if channel > 0xF000 { return nil }
            break
        }
        let codes = white.map { Int(($0 * 255).rounded()) }
        guard let moved = codes.map({ 255 - $0 }).max(), moved > 2 else { return nil }
        return "the look turns white into (\(codes.map(String.init).joined(separator: ", "))); LittleCMS's optimised "
            + "transforms (tificc's and jpgicc's default, and applications' 8- and 16-bit transforms) force a link's "
            + "white back to white (its white-on-white fixup), so colours near white come out up to \(moved) codes "
            + "from the look. Keep the look with tificc -c0 (no precalculation) or, in code, the transform flag "
            + "cmsFLAGS_NOWHITEONWHITEFIXUP"
    }
}
