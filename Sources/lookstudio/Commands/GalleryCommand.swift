import ArgumentParser
import Foundation
import Workflows

/// `lookstudio gallery`: the catalog's looks on your photos, as a static web page with exact strength sliders.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Write a self-contained web page showing catalog looks on photos (open DIR/index.html).",
        discussion: """
        One card per look: its preview on each photo, name, GUID (with a copy button), tags, description, cube \
        size, source and the scenes that use it by default; search, tag filter and sort by name or date. Each card \
        has a strength slider 0–200 % that is exact (before + s·(after − before) per pixel, computed in the \
        browser) and a split before/after view; each look has a page with its grey-axis curves, hue × saturation \
        slices of its cube and its recipe. No server, no network: the folder opens from file:// in any browser.

        Previews are JPEGs of --size pixels on the long side, each photo decoded once. They are cached in DIR by \
        look content, photo content and size, so a rerun renders only what changed and removes only files it \
        wrote. DIR must be new, empty or an earlier gallery (it holds gallery-cache.json); other folders are \
        refused, so no file of yours is replaced. Open DIR/index.html?selftest to run the page's own checks (the title says selftest: pass or fail: WHAT).

        Examples:
          lookstudio gallery photo.jpg portrait.png -o gallery
          lookstudio gallery photo.jpg -o gallery --tag bw --size 512
          lookstudio gallery photo.jpg -o gallery --looks "Warm Film" 3F2A…
        """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Photos to show the looks on (PNG or JPEG).", valueName: "photo"))
    var photos: [String]

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Gallery folder (created if missing).",
                                                                      valueName: "dir"))
    var output: String

    @Option(name: .customLong("looks"), parsing: .upToNextOption,
            help: ArgumentHelp("Only these looks (GUID, GUID prefix or name), in this order.", valueName: "look"))
    var looks: [String] = []

    @Option(help: ArgumentHelp("Only looks with this tag.", valueName: "tag"))
    var tag: String?

    @Option(help: "Long side of the previews, in pixels (photos are never enlarged).")
    var size: Int = 768

    @OptionGroup var limit: PixelLimitOptions

    @Option(help: "Heading of the page.")
    var title: String = "LookStudio gallery"

    @Flag(help: ArgumentHelp("Print what was rendered and reused as one JSON object (keys: looks, photos, "
          + "previews_rendered, previews_reused, photos_decoded, cubes_loaded, files_removed, seconds, index)."))
    var json = false

    func validate() throws {
        guard !photos.isEmpty else { throw ValidationError("give at least one photo") }
        try checkGallerySize(size)
    }

    func run() throws {
        var request = GalleryJob.Request(photos: photos, output: output)
        request.looks = looks
        request.tag = tag
        request.size = size
        request.maxPixels = limit.maxPixels
        request.title = title
        let bar = galleryProgress()
        defer { bar?.close() }  // also on failure, so `error:` starts its own line
        let report = try GalleryJob(request).run(in: global.workspace, progress: bar?.callback)
        bar?.close()
        print(json ? try jsonString(report) : gallerySummary(report))
    }
}
