import ArgumentParser
import Foundation
import LookFormats
import Workflows

/// `lookstudio export GUID|NAME -o FILE`: writes a catalog look as a PNG, .cube or .3dl file.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a catalog look to a file, or for an application with --for (see --list-targets).",
        discussion: """
        The look is found by GUID, unique GUID prefix (8+ characters) or name (ignoring case).

        --for cdl writes an ASC CDL .cc (slope, offset, power, saturation) for a look that is one CDL: imported \
        from a .cc, .ccc or .cdl, or composed from a recipe of one grade.cdl step at strength 100. Any other look \
        is refused (a table cannot become ten numbers), as are --strength and --size.

        Example:
          lookstudio export "Warm Film" -o warm.cube
          lookstudio export 7C7C394C -o warm-strip.png --layout strip --bits 8 --size 16
          lookstudio export "Warm Film" --for lightroom --strength 80 -o WarmFilm.xmp
          lookstudio export "Warm Film" --for ocio -o ocio/config.ocio      # writes ocio/config.warm-film.clf too
          lookstudio export shot_020 --for cdl -o shot_020.cc     # a look imported from a CDL: its numbers back
          lookstudio export --list-targets
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("GUID, GUID prefix or name of the look.", valueName: "look"))
    var look: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file: .png, .cube, .3dl or .clf (or the --for target's).",
                                                    valueName: "file"))
    var output: String?

    @Option(name: .customLong("for"), help: ArgumentHelp("Application target: resolve, lightroom, ocio, icc, cdl, … "
                                                         + "(--list-targets shows all).", valueName: "target"))
    var target: String?

    @Flag(help: "Print every --for target: format, size, value range and what it cannot carry.")
    var listTargets = false

    @Option(help: "With --for: look strength in percent, 0…200 (carried where the format can, else baked).")
    var strength: Double = 100

    @Option(help: "PNG layout: tiled, strip or hald (default: tiled when the size is a square, else strip).")
    var layout: String?

    @Option(help: "PNG bits per sample: 8 or 16 (.3dl files are written with 12-bit output).")
    var bits: Int = 16

    @Option(help: "Resample the cube to N entries per axis before writing.")
    var size: Int?

    func validate() throws {
        if listTargets { return }
        if look == nil || output == nil { throw ValidationError("give the look and -o FILE (or --list-targets)") }
        if let target {
            // Exporter's own errors, as argument errors (exit 64) before the catalog is opened.
            do {
                try ExportJob.checkTarget(target, size: size)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if !(0...200).contains(strength) { throw ValidationError("--strength must be 0…200") }
        if target == nil && strength != 100 { throw ValidationError("--strength needs --for TARGET") }
        if let layout, CubeLayout(rawValue: layout) == nil { throw ValidationError("--layout must be tiled, strip or hald") }
        if bits != 8 && bits != 16 { throw ValidationError("--bits must be 8 or 16") }
        if target == nil, let size, !(2...256).contains(size) { throw ValidationError("--size must be 2…256") }
    }

    func run() throws {
        if listTargets {
            ExportJob.listing().forEach { print($0) }
            return
        }
        guard let look, let output else { return }
        let destination: ExportJob.Destination
        if let target {
            destination = .target(target, strength: strength, size: size)
        } else {
            let isPNG = output.lowercased().hasSuffix(".png")
            destination = .file(layout: layout.flatMap(CubeLayout.init(rawValue:)), bits: isPNG ? bits : nil,
                                size: size)
        }
        let written = try ExportJob(.init(look: look, output: output, destination: destination))
            .run(in: global.workspace)
        for w in written.warnings { printError("warning: \(w)") }
        (written.files + written.notes).forEach { print($0) }
    }
}
