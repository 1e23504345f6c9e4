import Foundation
import ImageIO
import LookFormats

/// The Academy / ASC Common LUT Format (SMPTE ST 2136-1): OpenColorIO 2 reads it, and through OCIO so do Nuke,
/// Blender, Maya, Houdini and Krita. One `LUT3D` node, 32-bit float, tetrahedral.
enum CLFTarget {
    static let target = ExportTarget(
        id: "clf", format: "Common LUT Format (SMPTE ST 2136-1) for OpenColorIO tools", fileExtension: "clf",
        defaultSize: 33, sizes: 2...129, valueRange: "float 32f (beyond 0…1 kept)",
        cannotCarry: "strength (the working space travels as InputDescriptor/OutputDescriptor)",
        write: { look, size, path in try write(look, size: size, to: path, target: "clf") })

    /// Writes the look as a CLF file, values in the look's working space, which the descriptors name.
    static func write(_ look: ExportLook, size: Int, to path: String, target: String) throws -> ExportResult {
        // `Exporter.export` checks the path it was given; `ocio` writes this file beside that one.
        try OutputSafety.checkDestination(path)
        let (cube, warnings) = try look.table(size: size, target: target, keepSpace: true, keepRange: true)
        let space = look.workingSpace.description
        try CLFFile.write(cube, to: path, id: "lookstudio-" + slug(look.name), name: look.name,
                          description: "LookStudio look \"\(look.name)\"",
                          inputDescriptor: space, outputDescriptor: space)
        return ExportResult(files: [path], warnings: warnings)
    }

    /// A file-name-safe form of a look's name: letters, digits and `-`.
    static func slug(_ name: String) -> String {
        let mapped = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let joined = String(mapped).split(separator: "-").joined(separator: "-")
        return joined.isEmpty ? "look" : joined
    }
}
