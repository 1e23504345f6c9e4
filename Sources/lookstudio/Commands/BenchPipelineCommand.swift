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

    @OptionGroup var image: BenchImageOptions
    @OptionGroup var files: BenchFilesOptions

    @Option(help: ArgumentHelp("Use this 8-bit PNG instead of a generated one.", valueName: "png"))
    var png: String?

    @Option(help: ArgumentHelp("Use this JPEG instead of a generated one.", valueName: "jpg"))
    var jpeg: String?

    func run() throws {
        var inputs = files.inputs(image)
        inputs.png = png
        inputs.jpeg = jpeg
        print(try PipelineBenchmark.run(inputs))
    }
}
