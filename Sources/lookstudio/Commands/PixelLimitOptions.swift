import ArgumentParser
import ImageIO

/// `--max-pixels` for commands that read images, so every "raise it with --max-pixels" message names an option the
/// command has.
struct PixelLimitOptions: ParsableArguments {
    @Option(help: "Refuse images with more pixels than this (protects memory from hostile headers).")
    var maxPixels: Int = PNGReader.defaultMaxPixels

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
    }
}
