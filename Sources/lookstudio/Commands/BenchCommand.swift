import ArgumentParser
import Foundation
import LookCore

/// `lookstudio bench`: speed figures, printed, never asserted.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure LookStudio's speed (prints figures; compare with ../shared/bench/peers.sh).",
        subcommands: [BenchApplyCommand.self, BenchComposeCommand.self, BenchPNGCommand.self, BenchCatalogCommand.self,
                      BenchCorrectCommand.self]
    )
}

/// `lookstudio bench apply`: cube application throughput and PNG→PNG end to end.
struct BenchApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Megapixels per second applying a cube to an in-memory image, 1 thread and all cores.",
        discussion: """
        Builds a smooth, photo-like 8-bit RGB image in memory (random pixels would measure branch mispredictions, \
        not the work a photograph costs) and a non-trivial 64³ cube, then times tetrahedral and trilinear \
        application. Example: lookstudio bench apply --megapixels 24 --repeat 3
        """
    )

    @Option(help: "Image size in megapixels.")
    var megapixels: Double = 24

    @Option(help: "Cube size (entries per axis).")
    var size: Int = 64

    @Option(help: "Timed runs per configuration; the best is reported.")
    var `repeat`: Int = 3

    @Option(help: ArgumentHelp("Use this PNG for the end-to-end run instead of a generated one.", valueName: "png"))
    var image: String?

    @Option(help: ArgumentHelp("Keep the generated image, the cube (.cube) and its Hald PNG here, for "
        + "../shared/bench/peers.sh.", valueName: "dir"))
    var keep: String?

    @Flag(help: "Skip the PNG→PNG end-to-end run.")
    var coreOnly = false

    func run() throws {
        print(try ApplyBenchmark.run(megapixels: megapixels, cubeSize: size, repeats: `repeat`))
        if !coreOnly {
            print(try ApplyBenchmark.endToEnd(megapixels: megapixels, cubeSize: size, image: image, keep: keep))
        }
    }
}
