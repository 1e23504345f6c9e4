import ArgumentParser
import LookBench

/// `lookstudio bench all`: the LUT core figures, then the end-to-end figures.
struct BenchAllCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Every headline figure: LUT core (scalar vs vector, photo-like and random, 8/16-bit), then PNG "
            + "and JPEG end to end with peak memory.",
        discussion: "Example: lookstudio bench all --megapixels 24 --large-megapixels 100 --keep /tmp/bench"
    )

    @Option(help: "Image size in megapixels.")
    var megapixels: Double = 24

    @Option(help: "Size of the large JPEG for the memory figures, in megapixels (0 skips it).")
    var largeMegapixels: Double = 100

    @Option(help: "Cube size (entries per axis).")
    var size: Int = 64

    @Option(help: "Timed runs per LUT core configuration; the best is reported.")
    var `repeat`: Int = 3

    @Option(help: ArgumentHelp("Keep the generated images and cube here, for scripts/bench-peers.sh.",
                               valueName: "dir"))
    var keep: String?

    func validate() throws {
        try BenchLimits.checkMegapixels(megapixels)
        try BenchLimits.checkMegapixels(largeMegapixels, option: "--large-megapixels", zeroSkips: true)
        try checkCubeSize(size)
        try BenchLimits.checkRepeat(`repeat`)
    }

    func run() throws {
        print(try ApplyBenchmark.run(megapixels: megapixels, cubeSize: size, repeats: `repeat`))
        var inputs = PipelineBenchmark.Inputs()
        inputs.megapixels = megapixels
        inputs.largeMegapixels = largeMegapixels
        inputs.cubeSize = size
        inputs.keep = keep
        print(try PipelineBenchmark.run(inputs))
    }
}
