import Foundation
import ImageIO
import Testing
@testable import Export

/// Every file an export writes is checked before anything is written: a link to a device would otherwise be replaced
/// by a regular file when the temporary is renamed into place.
@Suite struct ExportDestinationTests {
    @Test func ocioRefusesACLFPathLinkedToADeviceAndWritesNothing() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clf = dir + "/config." + CLFTarget.slug("Test Look") + ".clf"
        try FileManager.default.createSymbolicLink(atPath: clf, withDestinationPath: "/dev/full")
        #expect(throws: OutputSafety.Refusal.self) {
            try Exporter.export(try Support.exportLook(), for: "ocio", to: dir + "/config.ocio")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: clf) == "/dev/full")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [(clf as NSString).lastPathComponent])
    }

    @Test func everyTargetRefusesAnOutputLinkedToADevice() throws {
        let dir = try Support.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for target in Exporter.targets {
            let path = dir + "/full." + target.fileExtension
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/full")
            #expect(throws: OutputSafety.Refusal.self, "\(target.id)") {
                try Exporter.export(try Support.exportLook(), for: target.id, to: path)
            }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/full", "\(target.id)")
        }
    }
}
