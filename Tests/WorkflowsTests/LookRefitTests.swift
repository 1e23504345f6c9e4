import Extraction
import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookFormats
import LookStudioTestSupport
import Testing
@testable import Workflows

/// `extract --refit`: an extracted look fitted again from its recorded photos, stored as its next version.
@Suite struct LookRefitTests {
    /// A catalog in a fresh folder, and a JPEG q85 after image of the warm reference look on chelsea.
    static func setUp() throws -> (dir: String, catalog: String, before: String, after: String) {
        let dir = try CLI.tempDir()
        let before = CLI.packageRoot + "/samples/chelsea.png"
        let photo = try PairImage.load(path: before)
        let look = try LUTFormat.readCube(path: CLI.fixtures + "/reference/warm33.cube").cube
        try ImageFormat.write(try photo.applying(look).quantized8.pixels8(), to: dir + "/after.jpg", jpegQuality: 85)
        return (dir, dir + "/catalog.sqlite", before, dir + "/after.jpg")
    }

    @Test func aLookFromAnOlderMethodIsRefittedAsItsNextVersionWithNewProvenance() throws {
        let (dir, path, before, after) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let open = { try Catalog(path: path, seedDirectory: CLI.packageRoot) }
        // The look as an earlier version made it: without the JPEG compression model.
        var old = LookExtraction.Request(pairs: [(before, after)], name: "Warm Edit")
        old.tags = ["client"]
        old.settings.jpegModel = false
        let stored = try LookExtraction.run(old, openCatalog: open)
        #expect(stored.provenance.contains("jpeg_model: {enabled: false"))

        let refit = try LookExtraction.refit(look: "warm edit", pairs: [(before, after)], openCatalog: open)
        #expect(refit.changed)
        #expect(refit.record.guid == stored.record.guid && refit.record.name == "Warm Edit")
        #expect(refit.record.tags == ["client"])
        #expect(refit.previousVersion == 1 && refit.record.version == 2)
        #expect(refit.record.description.contains("jpeg_model: {enabled: true"))
        // The refit is what a fresh extraction with today's method gives (to the catalog's 16-bit storage), and the
        // old cube stays readable.
        let fresh = try LookExtraction.fit(LookExtraction.Request(pairs: [(before, after)], name: "x"))
        let catalog = try open()
        let storedCube = try catalog.cube(refit.record)
        var largest: Float = 0
        let n = storedCube.size
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            let d = storedCube.entry(r: r, g: g, b: b) - fresh.cube.entry(r: r, g: g, b: b)
            largest = max(largest, abs(d.x), abs(d.y), abs(d.z))
        } } }
        #expect(largest <= 1 / 65535)
        let versions = try catalog.versions(guid: refit.record.guid)
        #expect(versions.count == 2)

        // Refitting again changes nothing and stores nothing.
        let again = try LookExtraction.refit(look: refit.record.guid, pairs: [(before, after)], openCatalog: open)
        #expect(!again.changed && again.record.version == 2)
        #expect(ExtractionSummary(again).status == "unchanged")
    }

    @Test func pairsGivenAfterTheRecordedOnesAreAddedAndFewerAreRefused() throws {
        let (dir, path, before, after) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let open = { try Catalog(path: path, seedDirectory: CLI.packageRoot) }
        let stored = try LookExtraction.run(LookExtraction.Request(pairs: [(before, after)], name: "Warm Edit"),
                                            openCatalog: open)
        // The same edit on a photo of other colours (the coffee cup's saturated reds and browns).
        let coffee = CLI.packageRoot + "/samples/coffee.png"
        let look = try LUTFormat.readCube(path: CLI.fixtures + "/reference/warm33.cube").cube
        try ImageFormat.write(try PairImage.load(path: coffee).applying(look).quantized8.pixels8(),
                              to: dir + "/coffee-after.png")
        let pairs = [(before, after), (coffee, dir + "/coffee-after.png")]
        let grown = try LookExtraction.refit(look: "Warm Edit", pairs: pairs, openCatalog: open)
        #expect(grown.changed && grown.pairsAdded == 1 && grown.record.version == 2)
        #expect(grown.record.guid == stored.record.guid)
        let provenance = try ExtractionProvenance(description: grown.record.description, look: "Warm Edit")
        #expect(provenance.pairs.map(\.before.name) == ["chelsea.png", "coffee.png"])
        #expect(abs((grown.previous.typicalCoverage ?? -1) - stored.fit.typicalCoverage) < 1e-4)
        #expect(grown.fit.typicalCoverage > stored.fit.typicalCoverage + 0.05)
        #expect(ExtractionSummary(grown).pairsAdded == 1)
        // A look of two pairs needs both again, first, in their order.
        #expect {
            try LookExtraction.refit(look: "Warm Edit", pairs: [(before, after)], openCatalog: open)
        } throws: { error in
            "\(error)".contains("it was extracted from 2 pair(s), chelsea.png after.jpg, coffee.png coffee-after.png; "
                + "1 were given (give them all, in that order, then any pairs to add)")
        }
        #expect {
            try LookExtraction.refit(look: "Warm Edit", pairs: [(coffee, dir + "/coffee-after.png"), (before, after)],
                                     openCatalog: open)
        } throws: { error in
            "\(error)".contains("is not the before image of pair 1, chelsea.png")
        }
    }

    @Test func otherPhotosOtherPairCountsAndImportedLooksAreRefused() throws {
        let (dir, path, before, after) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let open = { try Catalog(path: path, seedDirectory: CLI.packageRoot) }
        _ = try LookExtraction.run(LookExtraction.Request(pairs: [(before, after)], name: "Warm Edit"),
                                   openCatalog: open)
        let coffee = CLI.packageRoot + "/samples/coffee.png"
        #expect {
            try LookExtraction.refit(look: "Warm Edit", pairs: [(coffee, after)], openCatalog: open)
        } throws: { error in
            "\(error)".contains("is not the before image of pair 1, chelsea.png")
        }
        _ = try open().addLook(NewLook(cube: try ColorCube(size: 5) { $0 * 0.9 }, name: "Imported",
                                       sourceFormat: "cube"))
        #expect {
            try LookExtraction.refit(look: "Imported", pairs: [(before, after)], openCatalog: open)
        } throws: { error in
            "\(error)".contains("cannot be refitted: it was imported from cube")
        }
        #expect(throws: WorkflowError.self) { try ExtractionProvenance(description: "a: [", look: "x") }
        #expect(throws: WorkflowError.self) { try ExtractionProvenance(description: "note: hand-made", look: "x") }
    }
}

/// What `extract` shows on a terminal while it works comes from the library's progress reports.
@Suite struct ExtractionProgressTests {
    @Test func extractionAndRefitReportTheirStepsInOrder() throws {
        let (dir, path, before, after) = try LookRefitTests.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let open = { try Catalog(path: path, seedDirectory: CLI.packageRoot) }
        let lines = Locked<[String]>([])
        var request = LookExtraction.Request(pairs: [(before, after)], name: "Warm Edit")
        request.progress = { line in lines.withLock { $0.append(line) } }
        _ = try LookExtraction.run(request, openCatalog: open, report: dir + "/report")
        let told = lines.withLock { $0 }
        #expect(told.first == "reading pair 1 of 1")
        #expect(told.last == "storing the look")
        #expect(told.dropLast().last == "writing the report")
        // Rounds count up by one from 1, against one planned total; a JPEG pair's rounds reach at least it.
        let rounds = told.compactMap { line -> (Int, Int)? in
            let words = line.split(separator: " ")
            guard line.hasPrefix("fitting: round "), words.count == 5, let r = Int(words[2]), let p = Int(words[4])
            else { return nil }
            return (r, p)
        }
        #expect(rounds.map(\.0) == Array(1...max(1, rounds.count)))
        #expect(Set(rounds.map(\.1)).count == 1)
        #expect((rounds.last?.0 ?? 0) >= (rounds.first?.1 ?? .max))
        #expect(told.count == rounds.count + 3)

        let refitLines = Locked<[String]>([])
        _ = try LookExtraction.refit(look: "Warm Edit", pairs: [(before, after)], openCatalog: open,
                                     progress: { line in refitLines.withLock { $0.append(line) } })
        let refitTold = refitLines.withLock { $0 }
        #expect(refitTold.first == "reading pair 1 of 1" && refitTold.last == "storing the look")
        #expect(refitTold.contains { $0.hasPrefix("fitting: round ") })
    }
}
