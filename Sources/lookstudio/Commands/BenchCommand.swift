import ArgumentParser
import Foundation

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
