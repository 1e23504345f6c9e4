import ArgumentParser
import LookBench
import Foundation

/// `lookstudio bench catalog`: how long importing looks takes, where the time goes, and the `apply --look` start-up.
struct BenchCatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Time importing generated 64³ looks into a temporary catalog, and opening a look as apply does.",
        discussion: """
        Generates --looks distinct 64³ looks (a family of smooth grades, one parameter per look) as 16-bit tiled \
        PNGs in a temporary folder, creates a temporary catalog there (never yours), and: compares PNG blob \
        settings on sample looks; runs this binary's `import` once with every file (the real command, wall \
        time); imports the same files again into a second catalog through the library API (`LookFile.read`, \
        `Catalog.addLook`) to split the time into read, encode, hash and insert; and times what `apply --look` \
        does before touching the image (open the catalog, resolve the name and load the blob, decode the cube), \
        best of --repeat. Everything is removed afterwards unless --keep.
        Example: lookstudio bench catalog --looks 500
        """
    )

    @Option(help: "Number of 64³ looks to generate and import.")
    var looks: Int = 500

    @Option(help: "Timed runs of the apply start-up; the best is reported.")
    var `repeat`: Int = 7

    @Option(help: ArgumentHelp("Keep the generated looks and catalogs in this folder (must not hold a catalog).",
                               valueName: "dir"))
    var keep: String?

    @Option(name: .customLong("png-sample"),
            help: ArgumentHelp("Look PNG/.cube/.3dl to compare blob PNG settings on (repeatable; default: the "
                + "first 5 generated looks).", valueName: "file"))
    var pngSamples: [String] = []

    func validate() throws {
        guard (1...100_000).contains(looks) else { throw ValidationError("--looks must be 1…100000") }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        try CatalogBenchmark(looks: looks, repeats: `repeat`, keep: keep, pngSamples: pngSamples).run()
    }
}
