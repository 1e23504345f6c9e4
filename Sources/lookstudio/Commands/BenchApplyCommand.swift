import ArgumentParser
import LookBench

/// `lookstudio bench apply`: the LUT core on an in-memory image.
struct BenchApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Megapixels per second applying a cube in memory: scalar and vector kernels, photo-like and "
            + "random pixels, 8 and 16 bits, 1 thread and all cores.",
        discussion: """
        Photo-like pixels are smooth gradients with mild texture (the branch and cache behaviour of a photograph); \
        random pixels hit a different cube cell every time (the worst case). One-thread figures are thread CPU \
        time, so other load on the machine does not count against them. LOOKSTUDIO_LUT_KERNEL=scalar makes every \
        other command use the scalar loop too. Example: lookstudio bench apply --megapixels 24 --repeat 5
        """
    )

    @OptionGroup var core: BenchCoreOptions

    func run() throws {
        print(try core.run())
    }
}
