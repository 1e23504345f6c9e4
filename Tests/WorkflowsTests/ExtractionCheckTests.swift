import Extraction
import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookFormats
import LookStudioTestSupport
import Testing
@testable import Workflows

/// The checks `extract` makes around the fit: files, the pixel limit, the name, the report folder, and warnings
/// about the files themselves.
@Suite struct ExtractionCheckTests {
    static let photo = CLI.packageRoot + "/samples/chelsea.png"

    /// Progress messages, gathered across threads.
    final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ s: String) { lock.withLock { list.append(s) } }
        var all: [String] { lock.withLock { list } }
    }

    @Test func aMissingFileInALaterPairIsNamedBeforeAnyPairIsDecoded() throws {
        let missing = "/nonexistent/edit.png"
        var request = LookExtraction.Request(pairs: [(Self.photo, Self.photo), (Self.photo, missing)], name: "M")
        let messages = Messages()
        request.progress = { messages.add($0) }
        do {
            _ = try LookExtraction.check(request)
            Issue.record("a missing after image was accepted")
        } catch {
            #expect("\(error)".contains(missing))
        }
        #expect(messages.all.isEmpty, "decoding began before every file was found: \(messages.all)")
    }

    @Test func thePixelLimitRefusesAnImageBeforeItIsDecoded() throws {
        var request = LookExtraction.Request(pairs: [(Self.photo, Self.photo)], name: "L")
        request.maxPixels = 451 * 300 - 1
        let messages = Messages()
        request.progress = { messages.add($0) }
        #expect(throws: ExtractionError.self) { try LookExtraction.check(request) }
        #expect(messages.all.isEmpty)
        request.maxPixels = 451 * 300
        let checked = try LookExtraction.check(request)
        #expect(checked.pairs.count == 1 && checked.pairs[0].before.width == 451)
        #expect(messages.all == ["reading pair 1 of 1"])
    }

    /// A small pair (chelsea at 90×60 and the warm reference look applied to it) in `dir`, as PNG files.
    static func smallPair(in dir: String) throws -> (before: String, after: String) {
        let photo = try PairImage.load(path: Self.photo).boxResized(width: 90, height: 60)
        let look = try LUTFormat.readCube(path: CLI.fixtures + "/reference/warm33.cube").cube
        try ImageFormat.write(try photo.quantized8.pixels8(), to: dir + "/before.png")
        try ImageFormat.write(try photo.applying(look).quantized8.pixels8(), to: dir + "/after.png")
        return (dir + "/before.png", dir + "/after.png")
    }

    @Test func aTakenNameOrAnUnusableReportFolderFailsBeforeTheFit() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (before, after) = try Self.smallPair(in: dir)
        let open = { try Catalog(path: dir + "/catalog.sqlite", seedDirectory: CLI.packageRoot) }
        _ = try open().addLook(NewLook(cube: try ColorCube(size: 5) { $0 * 0.9 }, name: "Taken", sourceFormat: "cube"))
        let messages = Messages()
        var request = LookExtraction.Request(pairs: [(before, after)], name: "taken")
        request.settings.size = 9
        request.progress = { messages.add($0) }
        #expect(throws: CatalogError.duplicateName("taken")) { try LookExtraction.run(request, openCatalog: open) }

        request.name = "Fresh"
        _ = FileManager.default.createFile(atPath: dir + "/afile", contents: Data("x".utf8))
        #expect(throws: WorkflowError.reportFolder(path: dir + "/afile", reason: "it is a file")) {
            try LookExtraction.run(request, openCatalog: open, report: dir + "/afile")
        }
        do {
            _ = try LookExtraction.run(request, openCatalog: open, report: dir + "/afile/sub")
            Issue.record("a report folder under a file was accepted")
        } catch {
            #expect("\(error)".contains("cannot create the folder (Not a directory)"))
        }
        // A report file that links to a device would be replaced by a regular file: refused, the link kept.
        try FileManager.default.createDirectory(atPath: dir + "/report", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir + "/report/coverage.png", withDestinationPath: "/dev/null")
        #expect(throws: OutputSafety.Refusal.self) {
            try LookExtraction.run(request, openCatalog: open, report: dir + "/report")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/report/coverage.png") == "/dev/null")
        #expect(!messages.all.contains { $0.hasPrefix("fitting") }, "a refusal came after the fit: \(messages.all)")
        #expect(throws: (any Error).self) { try open().resolveLook("Fresh") }
    }

    @Test func anExistingCubeGetsTheNewTagsAndTheFilesAreWarnedAbout() throws {
        let dir = try CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (before, after) = try Self.smallPair(in: dir)
        let open = { try Catalog(path: dir + "/catalog.sqlite", seedDirectory: CLI.packageRoot) }
        var request = LookExtraction.Request(pairs: [(before, after)], name: "First")
        request.settings.size = 9
        let first = try LookExtraction.run(request, openCatalog: open)
        #expect(first.added && first.fit.warnings.allSatisfy { !$0.contains("same file") })
        request.name = "Second"
        request.tags = ["film"]
        let second = try LookExtraction.run(request, openCatalog: open)
        #expect(!second.added && second.record.guid == first.record.guid && second.record.name == "First")
        #expect(second.tagsAdded == ["film"] && second.record.tags == ["film"])

        // The same file twice, and lossy codecs other than JPEG, are named.
        var same = LookExtraction.Request(pairs: [(before, before)], name: "Same")
        same.settings.size = 9
        let identity = try LookExtraction.fit(same)
        #expect(identity.warnings.contains { $0.contains("the after image is the same file as the before image") })
        let pixels = try PairImage.load(path: after).pixels8()
        try WebPImage.write(pixels, to: dir + "/lossy.webp", lossless: false, quality: 90)
        try WebPImage.write(pixels, to: dir + "/exact.webp", lossless: true)
        #expect(LossyCodec.of(path: dir + "/lossy.webp") == .webp)
        #expect(LossyCodec.of(path: dir + "/exact.webp") == nil)
        #expect(LossyCodec.of(path: after) == nil)
        var webp = LookExtraction.Request(pairs: [(before, dir + "/lossy.webp")], name: "Web")
        webp.settings.size = 9
        let warnings = try LookExtraction.fit(webp).warnings
        #expect(warnings.contains { $0.hasPrefix("lossy.webp: the edited image is a lossy WebP") })
    }
}
