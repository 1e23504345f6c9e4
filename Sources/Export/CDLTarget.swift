import LookFormats

/// ASC CDL 1.2 `.cc` (one `<ColorCorrection>`): slope, offset and power per channel and saturation, which Resolve,
/// Baselight, Nuke, OpenColorIO and on-set tools read. It holds no table: a cube cannot become ten numbers, so only a
/// look that is one CDL (``ExportLook/cdl``, e.g. imported from a `.cc`) goes there, with the Floats it came with.
enum CDLTarget {
    static let target = ExportTarget(
        // A CDL holds no table: the sizes are never consulted (`content: .cdl` refuses any size given).
        id: "cdl", format: "ASC CDL 1.2 ColorCorrection for Resolve, Baselight, Nuke, OpenColorIO",
        fileExtension: "cc", defaultSize: 0, sizes: 0...0,
        valueRange: "slope, offset, power per channel and saturation, decimals that read back as the same Floats",
        cannotCarry: "any look but a CDL (one imported from a .cc, .ccc or .cdl), strength, the clamping style",
        content: .cdl,
        write: { look, _, path in try write(look, to: path) })

    /// Writes the look's correction as a `.cc`; a look in another working space than sRGB names it in the
    /// correction's `InputDescription`, the field ASC CDL gives for the input's colour space.
    static func write(_ look: ExportLook, to path: String) throws -> ExportResult {
        guard var correction = look.cdl else {
            throw ExportError(target: "cdl", "look \"\(look.name)\" is a table, not an ASC CDL: a .cc carries only "
                              + "slope, offset, power and saturation; export it for resolve (a .cube) instead")
        }
        guard look.strength == 1 else {
            let percent = Int((look.strength * 100).rounded())
            throw ExportError(target: "cdl", "strength \(percent) %: a CDL has no strength, and a blend toward a CDL "
                              + "is rarely one; export it at 100 %")
        }
        var warnings: [String] = []
        if !look.isSRGB, correction.inputDescription == nil {
            correction.inputDescription = look.workingSpace.description
            warnings.append("cdl: the numbers apply to values encoded in \"\(look.workingSpace.description)\", "
                            + "which the .cc names as its InputDescription (a reader does not convert)")
        }
        try CDLFile.write(correction, to: path)
        return ExportResult(files: [path], warnings: warnings)
    }
}
