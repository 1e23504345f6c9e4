import ArgumentParser
import Foundation
import ImageIO
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
            throw ValidationError("\(option) \(TextNumber.format(value)) is out of range: use "
                + "\(TextNumber.format(megapixels.lowerBound))…\(TextNumber.format(megapixels.upperBound))"
                + " megapixels (up to the pixel limit of apply)" + (zeroSkips ? ", or 0 to skip it" : ""))
        }
    }

    /// Throws unless at least one timed run is asked for.
    static func checkRepeat(_ value: Int) throws {
        guard value >= 1 else { throw ValidationError("--repeat \(value) is out of range: give 1 or more runs") }
    }
}
