import ArgumentParser
import ColorManagement
import Foundation
import LookBench
import LookCore
import LookFormats

/// `lookstudio bench color`: colour-management accuracy on real photos re-encoded in Display P3 and Adobe RGB.
struct BenchColorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "color",
        abstract: "CIEDE2000 of the colour-managed pipeline against converting every pixel in Float.",
        discussion: """
        Each sRGB photo is re-encoded (Float, rounded to 8 bits) in Display P3 and Adobe RGB and tagged; an sRGB \
        look is applied through the pipeline and compared, pixel by pixel in the tagged space, with the ideal \
        convert → apply → convert answer. Printed per photo and space: managed (the pipeline), unmanaged (the look \
        on raw codes, as before colour management) and floor (the ideal answer rounded to 8 bits): mean, p95, max.

        Example: lookstudio bench color --look "Warm Film" photos/*.png
        """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Catalog look to apply (GUID, prefix or name).", valueName: "look"))
    var look: String?

    @Option(help: ArgumentHelp("LUT file to apply instead of a catalog look.", valueName: "file"))
    var lut: String?

    @Argument(help: ArgumentHelp("sRGB photos (any format LookStudio reads).", valueName: "photo"))
    var photos: [String]

    func run() throws {
        let cube: ColorCube
        if let lut {
            cube = try LUTFormat.readCube(path: lut).cube
        } else {
            cube = try global.workspace.cube(of: look ?? "Warm Film")
        }
        let scratch = NSTemporaryDirectory() + "lookstudio-bench-color-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        print("photo                      space        managed mean/p95/max   unmanaged mean/p95/max   floor mean/p95")
        for photo in photos {
            for space in [ColorProfile.Named.displayP3, .adobeRGB] {
                let r = try ColorEvaluation.measure(photo: photo, space: space, look: cube, scratch: scratch)
                let name = URL(fileURLWithPath: photo).lastPathComponent
                let label = name.padding(toLength: 26, withPad: " ", startingAt: 0) + " "
                    + space.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                print(label + String(format: " %5.2f %5.2f %5.2f      %5.2f %5.2f %5.2f        %5.2f %5.2f",
                             r.managed.mean, r.managed.p95,
                             r.managed.max, r.unmanaged.mean, r.unmanaged.p95, r.unmanaged.max, r.floor.mean,
                             r.floor.p95))
            }
        }
    }
}
