import Foundation
import LookStudioTestSupport
import ImageIO
import Testing
import Workflows

/// `correct --shard/--skip-existing/--manifest` over real processes: the batch contract docs/SCALE.md relies on.
@Suite struct CorrectBatchTests {
    /// A folder `in/` of `count` small, different PNGs (in a sub-folder for some, to exercise relative paths), and a
    /// catalog created once so the shards only read it.
    static func setUp(count: Int, width: Int = 64, height: Int = 48) throws -> (dir: String, catalog: [String]) {
        let dir = try CLI.tempDir()
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for i in 0..<count {
            try PNGImage.write(try CorrectCommandTests.photo(i, width: width, height: height),
                               to: dir + "/in/img\(String(format: "%02d", i)).png")
        }
        let catalog = ["--catalog", dir + "/catalog.sqlite"]
        let created = try CLI.run(["looks", "list"] + catalog)
        #expect(created.status == 0, "\(created.stderr)")
        return (dir, catalog)
    }

    /// Starts `lookstudio` without waiting; output goes to files so a busy child never blocks on a pipe.
    static func start(_ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        guard FileManager.default.createFile(atPath: log, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    static func manifest(_ path: String) throws -> [ManifestRecord] {
        try ManifestRecord.parse(String(contentsOfFile: path, encoding: .utf8))
    }

    static func inputs(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir + "/in").sorted().map { dir + "/in/" + $0 }
    }

    @Test("40 images as 4 shards in 4 concurrent processes: every input in exactly one manifest, every output written")
    func fourShards() throws {
        let (dir, catalog) = try Self.setUp(count: 40)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let processes = try (0..<4).map { k in
            try Self.start(["correct", dir + "/in", "-o", dir + "/out", "--shard", "\(k)/4", "--jobs", "1",
                            "--manifest", dir + "/m\(k).jsonl"] + catalog, log: dir + "/log\(k).txt")
        }
        for (k, process) in processes.enumerated() {
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: dir + "/log\(k).txt", encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "shard \(k): \(log)")
        }
        var seen: [String: Int] = [:]
        for k in 0..<4 {
            let records = try Self.manifest(dir + "/m\(k).jsonl")
            #expect(!records.isEmpty, "shard \(k) got no inputs")
            for record in records {
                seen[record.file, default: 0] += 1
                #expect(record.status == .done && record.error == nil && record.shard == "\(k)/4")
                #expect(record.scene != nil)
                #expect(record.outputs.count == 1)
            }
        }
        let inputs = try Self.inputs(dir)
        #expect(inputs.count == 40)
        #expect(Set(seen.keys) == Set(inputs))
        #expect(seen.values.allSatisfy { $0 == 1 })
        let outputs = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(outputs == inputs.map { URL(fileURLWithPath: $0).lastPathComponent })
        for name in outputs { _ = try PNGImage.read(path: dir + "/out/" + name) }
    }

    @Test("a run SIGKILLed mid-way and restarted with --skip-existing completes every output, leaves no temporary file, and marks what was done as skipped")
    func killAndResume() throws {
        let (dir, catalog) = try Self.setUp(count: 40, width: 320, height: 240)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let arguments = ["correct", dir + "/in", "-o", dir + "/out", "--jobs", "2", "--skip-existing"] + catalog
        let first = try Self.start(arguments + ["--manifest", dir + "/first.jsonl"], log: dir + "/first.txt")
        // Kill once the first image is recorded, while the others are being written.
        let deadline = Date().addingTimeInterval(120)
        while first.isRunning && Date() < deadline {
            // stat, not a read: Foundation's read of an empty file leaks its buffer (LeakSanitizer, make test-asan).
            let size = (try? FileManager.default.attributesOfItem(atPath: dir + "/first.jsonl")[.size] as? Int) ?? 0
            if size > 0 { break }
            usleep(2_000)
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let before = try Self.manifest(dir + "/first.jsonl")
        #expect(!before.isEmpty)
        let finishedBefore = Set(try FileManager.default.contentsOfDirectory(atPath: dir + "/out")
            .filter { !$0.hasPrefix(".") })
        #expect(finishedBefore.count < 40, "the kill came after the whole batch; it proves nothing")

        let second = try CLI.run(arguments + ["--manifest", dir + "/second.jsonl"])
        #expect(second.status == 0, "\(second.stderr)")
        let counted = "\(40 - finishedBefore.count) of 40 images corrected, \(finishedBefore.count) skipped"
        #expect(second.stderr.contains(counted), "the summary counts skipped images apart: \(second.stderr)")
        let after = try Self.manifest(dir + "/second.jsonl")
        let inputs = try Self.inputs(dir)
        #expect(after.map(\.file).sorted() == inputs)
        for record in after {
            let name = URL(fileURLWithPath: record.file).lastPathComponent
            #expect(record.status == (finishedBefore.contains(name) ? .skipped : .done), "\(name)")
        }
        for record in before { #expect(after.first { $0.file == record.file }?.status == .skipped) }
        let outputs = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(outputs == inputs.map { URL(fileURLWithPath: $0).lastPathComponent }, "no temporary file is left")
        for name in outputs { _ = try PNGImage.read(path: dir + "/out/" + name) }
    }

    @Test("--shard is validated, and the catalog file is not written by correct")
    func shardValidationAndReadOnlyCatalog() throws {
        let (dir, catalog) = try Self.setUp(count: 2)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = try CLI.run(["correct", dir + "/in", "-o", dir + "/out", "--shard", "4/4"] + catalog)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--shard 4/4: expected K/N"))
        // A catalog whose file and folder are read-only still serves correct's reads.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: dir + "/catalog.sqlite")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir + "/catalog.sqlite") }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/catalog.sqlite"))
        let r = try CLI.run(["correct", dir + "/in", "-o", dir + "/out", "--scene", "8"] + catalog)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/catalog.sqlite")) == before)
    }
}
