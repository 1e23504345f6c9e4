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

    @OptionGroup var core: BenchCoreOptions
    @OptionGroup var files: BenchFilesOptions

    func run() throws {
        print(try core.run())
        print(try PipelineBenchmark.run(files.inputs(core.image)))
    }
}
