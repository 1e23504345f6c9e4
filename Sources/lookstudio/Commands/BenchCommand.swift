import ArgumentParser
import Foundation
import ImageIO
import LookBench
import LookCore

/// `lookstudio bench`: speed figures, printed, never asserted. Without a subcommand it runs `bench all`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure LookStudio's speed (prints figures; peers: scripts/bench-peers.sh).",
        discussion: """
        `lookstudio bench` alone prints every headline figure (the LUT core, then PNG and JPEG end to end) and the \
        scripts/bench-peers.sh command that times ffmpeg on the same files, so the ratios can be measured in one \
        run. Example: lookstudio bench --keep /tmp/bench && sh scripts/bench-peers.sh …
        """,
        subcommands: [BenchAllCommand.self, BenchApplyCommand.self, BenchPipelineCommand.self,
                      BenchComposeCommand.self, BenchPNGCommand.self, BenchCatalogCommand.self,
                      BenchGalleryCommand.self, BenchColorCommand.self, BenchCorrectCommand.self,
                      BenchExtractCommand.self, BenchExtractEvalCommand.self],
        defaultSubcommand: BenchAllCommand.self
    )
}

/// Range checks for the bench subcommands' numbers, which size buffers and divide by them: out of range they
/// crashed (a division by zero at `--megapixels 0`, a 300 GB allocation at 100000) or were quietly replaced.
enum BenchLimits {
    /// A 0.01-megapixel image is 122×81 (the generators need a whole row); 250 is the pixel limit `apply` has, and
    /// `bench pipeline` runs `apply` on its images. At 250, `bench apply` holds about 6 GB (24 bytes a pixel).
    static let megapixels = 0.01...Double(PNGReader.defaultMaxPixels) / 1_000_000

    /// Throws unless `value` is in ``megapixels`` (or 0 where `zeroSkips`: that option's way to skip a stage).
    static func checkMegapixels(_ value: Double, option: String = "--megapixels", zeroSkips: Bool = false) throws {
        if zeroSkips && value == 0 { return }
        guard megapixels.contains(value) else {
            throw ValidationError(TextNumber.outOfRange(option, value, megapixels)
                + " megapixels (up to the pixel limit of apply)" + (zeroSkips ? ", or 0 to skip it" : ""))
        }
    }

    /// Throws unless at least one timed run is asked for.
    static func checkRepeat(_ value: Int) throws {
        guard value >= 1 else { throw ValidationError("--repeat \(value) is out of range: give 1 or more runs") }
    }
}

/// The generated image and cube that `bench apply`, `bench pipeline` and `bench all` measure.
struct BenchImageOptions: ParsableArguments {
    @Option(help: "Size of the generated images in megapixels.")
    var megapixels: Double = 24

    @Option(help: "Cube size (entries per axis).")
    var size: Int = 64

    func validate() throws {
        try BenchLimits.checkMegapixels(megapixels)
        try checkCubeSize(size)
    }
}

/// The LUT core's figures: `bench apply`, and the first half of `bench all`.
struct BenchCoreOptions: ParsableArguments {
    @OptionGroup var image: BenchImageOptions

    @Option(help: "Timed runs per LUT core configuration; the best is reported.")
    var `repeat`: Int = 3

    func validate() throws {
        try BenchLimits.checkRepeat(`repeat`)
    }

    /// The LUT core's figures as printed.
    func run() throws -> String {
        try ApplyBenchmark.run(megapixels: image.megapixels, cubeSize: image.size, repeats: `repeat`)
    }
}

/// The end-to-end figures' large JPEG and where their files are kept (`bench pipeline`, `bench all`).
struct BenchFilesOptions: ParsableArguments {
    @Option(help: "Size of the large JPEG for the memory figures, in megapixels (0 skips it).")
    var largeMegapixels: Double = 100

    @Option(help: ArgumentHelp("Keep the generated images, cube and outputs here (for scripts/bench-peers.sh).",
                               valueName: "dir"))
    var keep: String?

    func validate() throws {
        try BenchLimits.checkMegapixels(largeMegapixels, option: "--large-megapixels", zeroSkips: true)
    }

    /// The pipeline inputs these options and `image` ask for.
    func inputs(_ image: BenchImageOptions) -> PipelineBenchmark.Inputs {
        var inputs = PipelineBenchmark.Inputs()
        inputs.megapixels = image.megapixels
        inputs.largeMegapixels = largeMegapixels
        inputs.cubeSize = image.size
        inputs.keep = keep
        return inputs
    }
}
