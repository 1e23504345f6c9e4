import LookCatalog
import LookModel
import Rendering

/// `gallery`: a self-contained web page of catalog looks on photos, previews cached by content.
public struct GalleryJob: Sendable {
    /// Which looks on which photos, and where.
    public struct Request: Sendable, Equatable {
        /// The photos.
        public var photos: [String]
        /// The gallery folder (new, empty, or an earlier gallery).
        public var output: String
        /// Only these looks (GUID, prefix or name), in this order; empty: every look.
        public var looks: [String] = []
        /// Only looks with this tag.
        public var tag: String?
        /// Long side of the previews, in pixels.
        public var size = 768
        /// Photos with more pixels are refused.
        public var maxPixels = GalleryBuilder.Options().maxPixels
        /// Heading of the page.
        public var title = "LookStudio gallery"

        /// A request to show looks on `photos` in `output`.
        public init(photos: [String], output: String) {
            self.photos = photos
            self.output = output
        }
    }

    /// The request.
    public let request: Request

    /// A job for `request`.
    public init(_ request: Request) { self.request = request }

    /// Builds the page; `progress` (finished, total, line) is called as each look's previews are done.
    public func run(in workspace: Workspace, progress: (@Sendable (Int, Int, String) -> Void)? = nil) throws
        -> GalleryBuilder.Report {
        let catalog = try workspace.openCatalog()
        var records: [LookRecord]
        if request.looks.isEmpty {
            records = try catalog.looks(tag: request.tag)
        } else {
            records = try request.looks.map { try catalog.resolveLook($0) }
            if let tag = request.tag {
                records = records.filter { $0.tags.contains { $0.caseInsensitiveCompare(tag) == .orderedSame } }
            }
        }
        guard !records.isEmpty else { throw WorkflowError.noLooks(tag: request.tag) }
        let scenes = try catalog.scenes()
        let looks = records.map { record in
            GalleryBuilder.Look(info: GalleryCatalog.info(record, scenes: scenes), contentHash: record.contentHash,
                                loadCube: { try catalog.cube(record) })
        }
        return try GalleryBuilder(hasher: GalleryCatalog.hasher).build(
            photos: request.photos, looks: looks, into: request.output,
            options: .init(size: request.size, title: request.title, maxPixels: request.maxPixels),
            progress: progress)
    }
}
