import ArgumentParser
import LookBench

/// `lookstudio bench png`: encode one image with several zlib settings, to choose `PNGWriteOptions.photo`.
struct BenchPNGCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "png",
        abstract: "Time PNG encoding of one image under several zlib levels, filters and strategies.",
        discussion: "Example: lookstudio bench png photo.png"
    )

    @Argument(help: ArgumentHelp("PNG to re-encode (decoded once, encoded in memory for each setting).", valueName: "png"))
    var image: String

    func run() throws {
        print(try EncodeBenchmark.run(image: image))
    }
}
