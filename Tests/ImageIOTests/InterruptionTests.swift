import Foundation
import ImageIO
import Testing

/// A held section defers SIGINT and SIGTERM until its work is done. The handler is installed in `.exit` mode, the
/// mode of every command but `correct`: were the signal not held, it would end this test process.
@Suite struct InterruptionTests {
    @Test("an interrupt in a held section removes nothing, ends nothing, and is handed back when the section ends")
    func heldSection() throws {
        try Interruption.install(.exit)
        let dir = NSTemporaryDirectory() + "lookstudio-held-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let temporary = dir + "/in-flight.tmp"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data([1])))
        let slot = TemporaryFiles.register(temporary)
        defer { TemporaryFiles.forget(slot) }

        let (value, signal) = Interruption.deferring { () -> Int in
            raise(SIGINT)
            #expect(FileManager.default.fileExists(atPath: temporary), "held: the handler removed nothing")
            return 7
        }
        #expect(value == 7 && signal == SIGINT)
        #expect(FileManager.default.fileExists(atPath: temporary))
        #expect(Interruption.signal == nil, "in .exit mode the held signal is the caller's, not recorded")

        let (inner, outer) = Interruption.deferring { () -> Int32? in
            Interruption.deferring { raise(SIGTERM) }.heldSignal
        }
        #expect(inner == nil && outer == SIGTERM, "nested sections: the outermost end takes the signal")
        #expect(Interruption.deferring { 1 }.heldSignal == nil, "a section without an interrupt holds none")
    }
}
