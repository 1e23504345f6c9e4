import ArgumentParser
import LookCore
import LookFormats

/// How a LUT file is written: the PNG layout and the bits, for `convert` and `compose -o`.
struct LUTFileOptions: ParsableArguments {
    @Option(help: "Layout of a PNG output: tiled, strip or hald (default: tiled for square sizes, else strip).")
    var layout: CubeLayout?

    @Option(help: "PNG bits per sample (8 or 16, default 16), or .3dl output bits (10, 12, 16; default 12).")
    var bits: Int?

    /// Throws unless the bits suit `output`'s format.
    func check(output: String) throws {
        try checkLUTBits(bits, output: output)
    }

    /// The write settings, resampled to `size` when given.
    func options(size: Int? = nil) -> LUTFormat.WriteOptions {
        LUTFormat.WriteOptions(layout: layout, bits: bits, size: size)
    }
}
