import ArgumentParser
import LookBench
import Foundation
import PluginHost

/// `lookstudio bench compose`: how long composing a ten-step chain takes, and what composing saves on an image.
struct BenchComposeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Time composing a ten-step recipe, and applying it composed vs step by step to a large image.",
        discussion: """
        The recipe mixes adjustments from every built-in plugin with two generated looks (printed below). \
        Composing is timed on one core (thread CPU time, best of --repeat). On an image of --megapixels, one \
        pass of the composed cube is compared with one pass per step: each step baked into its own cube, and \
        each step evaluated exactly in Float (plugins on every pixel). All on one thread. Last, the cost of \
        plugin isolation: the recipe composed at 33³ and 64³ with plugins in this process and in a plugin-host \
        child (wall time), and the child's start-up.
        Example: lookstudio bench compose --megapixels 24
        """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Image size in megapixels for the apply comparison (0 skips it).")
    var megapixels: Double = 24

    @Option(help: "Cube size to compose at.")
    var size: Int = 64

    @Option(help: "Timed runs; the best is reported.")
    var `repeat`: Int = 5

    func validate() throws {
        try BenchLimits.checkMegapixels(megapixels, zeroSkips: true)
        try checkCubeSize(size)
        try BenchLimits.checkRepeat(`repeat`)
    }

    func run() throws {
        let searchPaths = PluginSearchPath.standard(pluginDirs: global.pluginDir)
        let registry = PluginRegistry.load(searchPaths: searchPaths)
        print(try ComposeBenchmark.run(registry: registry, size: size, megapixels: megapixels,
                                       repeats: `repeat`))
        let host = try PluginHostConfiguration.standard(environment: ProcessInfo.processInfo.environment,
                                                        timeout: global.pluginTimeout)
        print(try PluginIsolationBenchmark.run(searchPaths: searchPaths, configuration: host,
                                               repeats: `repeat`))
    }
}
