import ArgumentParser
import Foundation
import LookBench
import LookCore
import Rendering
import Workflows

/// `lookstudio bench gallery`: how long a gallery takes cold, unchanged, and with one look added.
struct BenchGalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Time building a gallery of generated looks on your photos: cold, rerun unchanged, one look added.",
        discussion: """
        --looks generated cubes (64³ by default; smooth colour functions, so the applier does a photograph's work) are shown \
        on the photos in a temporary folder through the same builder as `lookstudio gallery`, without the catalog \
        (its cube decoding is timed by `bench catalog`). Wall-clock seconds: they depend on the machine's load.
        Examples:
          lookstudio bench gallery samples/coffee.png samples/chelsea.png --looks 6
          lookstudio bench gallery photo.jpg --looks 100
        """
    )

    @Argument(help: ArgumentHelp("Photos (PNG or JPEG).", valueName: "photo"))
    var photos: [String]

    @Option(help: "Number of generated looks.")
    var looks: Int = 6

    @Option(help: "Long side of the previews, in pixels.")
    var size: Int = 768

    @Option(name: .customLong("cube-size"), help: "Entries per axis of the generated cubes.")
    var cubeSize: Int = 64

    func validate() throws {
        guard !photos.isEmpty else { throw ValidationError("give at least one photo") }
        guard (1...2000).contains(looks) else { throw ValidationError("--looks must be in 1…2000") }
        try checkGallerySize(size)
        try checkCubeSize(cubeSize, option: "--cube-size")
    }

    func run() throws {
        let all = try GalleryBenchmark.looks(count: looks + 1, size: cubeSize, hasher: GalleryCatalog.hasher)
        let folder = NSTemporaryDirectory() + "lookstudio-bench-gallery-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let builder = GalleryBuilder(hasher: GalleryCatalog.hasher)
        let options = GalleryBuilder.Options(size: size)
        let base = Array(all.prefix(looks))
        let cold = try builder.build(photos: photos, looks: base, into: folder, options: options)
        let rerun = try builder.build(photos: photos, looks: base, into: folder, options: options)
        let added = try builder.build(photos: photos, looks: all, into: folder, options: options)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("gallery of \(looks) looks × \(photos.count) photos at \(size) px, \(cores) cores:")
        for (label, report) in [("cold", cold), ("rerun unchanged", rerun), ("one look added", added)] {
            print("  " + label.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%7.2f s  (%d previews rendered, %d reused, %d photos decoded)", report.seconds,
                         report.previewsRendered, report.previewsReused, report.photosDecoded))
        }
    }
}
