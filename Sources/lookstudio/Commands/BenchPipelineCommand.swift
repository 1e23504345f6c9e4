import ArgumentParser
import LookBench

/// `lookstudio bench pipeline`: file to file through `apply`, PNG and JPEG, with peak memory.
struct BenchPipelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Wall time, output size and peak memory of `apply` on PNG → PNG (8 and 16-bit), JPEG → JPEG and "
            + "JPEG → PNG, including a large JPEG; what `correct` adds over `apply`.",
        discussion: """
        Generates photo-like inputs band by band (or takes --png / --jpeg), runs this binary's `apply --timings` \
        on each in a child process and prints its stage timings and peak memory (VmHWM). Then `correct --timings` \
        against `apply` on the same JPEG (interleaved runs: the wall time the analysis adds) and `correct`'s peak \
        memory on the large JPEG. Ends with the \
        scripts/bench-peers.sh command for ffmpeg on the same files. \
        Example: lookstudio bench pipeline --keep /tmp/bench --large-megapixels 100
        """
    )

    @Option(help: "Size of the generated images in megapixels.")
    var megapixels: Double = 24

    @Option(help: "Size of the large JPEG in megapixels (0 skips it).")
    var largeMegapixels: Double = 100

    @Option(help: "Cube size (entries per axis).")
    var size: Int = 64

    @Option(help: ArgumentHelp("Use this 8-bit PNG instead of a generated one.", valueName: "png"))
    var png: String?

    @Option(help: ArgumentHelp("Use this JPEG instead of a generated one.", valueName: "jpg"))
    var jpeg: String?

    @Option(help: ArgumentHelp("Keep the generated images, cube and outputs here.", valueName: "dir"))
    var keep: String?

    func validate() throws {
        try BenchLimits.checkMegapixels(megapixels)
        try BenchLimits.checkMegapixels(largeMegapixels, option: "--large-megapixels", zeroSkips: true)
        try checkCubeSize(size)
    }

    func run() throws {
        var inputs = PipelineBenchmark.Inputs()
        inputs.megapixels = megapixels
        inputs.largeMegapixels = largeMegapixels
        inputs.cubeSize = size
        inputs.png = png
        inputs.jpeg = jpeg
        inputs.keep = keep
        print(try PipelineBenchmark.run(inputs))
    }
}
