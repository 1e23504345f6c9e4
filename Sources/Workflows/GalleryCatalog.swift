import Foundation
import LookCatalog
import LookCore
import LookGallery
import Rendering

/// What `gallery` and `compose --preview` share: catalog records as card text, the hash, progress, the summary.
public enum GalleryCatalog {
    /// Cache keys are the catalog's SHA-256, the same hash that names look contents.
    public static let hasher: GalleryBuilder.Hasher = { SHA256.hex($0) }

    /// A look's card text from its catalog record and the scenes that apply it by default.
    public static func info(_ record: LookRecord, scenes: [SceneRecord]) -> GalleryLookInfo {
        GalleryLookInfo(
            id: record.guid, guid: record.guid, name: record.name, description: record.description,
            tags: record.tags, cubeSize: record.cubeSize, source: record.sourceFormat, sourceFile: record.sourceFile,
            createdAt: record.createdAt,
            scenes: scenes.filter { $0.defaultLookGuid == record.guid }.map {
                GalleryScene(label: $0.label, name: $0.name, strength: $0.defaultLookStrength)
            },
            recipeYAML: record.recipeYAML)
    }

    /// A progress bar on a terminal (stderr), nothing otherwise.
    public static func progress() -> LazyProgress? { isatty(2) != 0 ? LazyProgress() : nil }

    /// One line for people.
    public static func summary(_ report: GalleryBuilder.Report) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return "\(report.index): \(count(report.looks, "look")) × \(count(report.photos, "photo")), "
            + "\(count(report.previewsRendered, "preview")) rendered, \(report.previewsReused) reused, "
            + String(format: "%.2f s", report.seconds)
    }
}

/// Creates the progress bar when the first look finishes (the total is known only then).
public final class LazyProgress: @unchecked Sendable {
    private let progress = Locked<TerminalProgress?>(nil)

    /// A bar not drawn yet.
    public init() {}

    /// What the builder calls as each look finishes.
    public var callback: @Sendable (Int, Int, String) -> Void {
        { [self] _, total, line in bar(total: total).finished(line, failure: false) }
    }

    /// Clears the bar, if one was drawn.
    public func close() {
        _ = progress.current?.close()
    }

    private func bar(total: Int) -> TerminalProgress {
        progress.withLock { current in
            if let current { return current }
            let made = TerminalProgress(total: total)
            current = made
            return made
        }
    }
}
