import ArgumentParser
import Foundation
import ImageIO
import LookCatalog
import LookFormats

/// `lookstudio export GUID|NAME -o FILE`: writes a catalog look as a PNG, .cube or .3dl file.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a catalog look to a PNG, .cube or .3dl file (format from the extension).",
        discussion: """
        The look is found by GUID, unique GUID prefix (8+ characters) or name (ignoring case).

        Example:
          lookstudio export "Warm Film" -o warm.cube
          lookstudio export 7C7C394C -o warm-strip.png --layout strip --bits 8 --size 16
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("GUID, GUID prefix or name of the look.", valueName: "look"))
    var look: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file: .png, .cube or .3dl.", valueName: "file"))
    var output: String

    @Option(help: "PNG layout: tiled, strip or hald (default: tiled when the size is a square, else strip).")
    var layout: String?

    @Option(help: "PNG bits per sample: 8 or 16 (.3dl files are written with 12-bit output).")
    var bits: Int = 16

    @Option(help: "Resample the cube to N entries per axis before writing.")
    var size: Int?

    func validate() throws {
        if let layout, CubeLayout(rawValue: layout) == nil { throw ValidationError("--layout must be tiled, strip or hald") }
        if bits != 8 && bits != 16 { throw ValidationError("--bits must be 8 or 16") }
        if let size, !(2...256).contains(size) { throw ValidationError("--size must be 2…256") }
    }

    func run() throws {
        let catalog = try CatalogAccess.open(global)
        let record = try catalog.resolveLook(look)
        let cube = try catalog.cube(record)
        let isPNG = output.lowercased().hasSuffix(".png")
        let warnings = try LookFile.write(cube, to: output, layout: layout.flatMap(CubeLayout.init(rawValue:)),
                                          bits: isPNG ? bits : nil, size: size, title: record.name)
        for w in warnings { CatalogAccess.warn("warning: \(w)") }
        print(output)
    }
}
