import Extraction
import Foundation
import LookStudioTestSupport
import Testing
@testable import Workflows

/// The checks `extract` makes before it decodes a pair: every file's header first, under the pixel limit.
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
}
