import Foundation
import Testing

@testable import Workflows

@Suite struct BatchPlanTests {
    @Test("K/N parses; K outside 0..<N, N < 1 and other text are refused with the flag's message")
    func parsing() throws {
        #expect(try Shard(parsing: "3/16") == Shard(index: 3, count: 16))
        #expect(try Shard(parsing: "0/1") == .all)
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", "", "/4"] {
            #expect(throws: WorkflowError.invalidShard(bad)) { try Shard(parsing: bad) }
        }
        #expect(WorkflowError.invalidShard("4/4").description.hasPrefix("--shard 4/4: expected K/N"))
    }

    @Test("the hash is FNV-1a 64: the published test vectors")
    func fnvVectors() {
        #expect(Shard.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.stableHash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("N shards partition the inputs: each exactly once, and roughly evenly")
    func partition() throws {
        let names = (0..<1000).map { "shoot\($0 % 7)/IMG_\($0).jpg" }
        let shards = try (0..<8).map { try Shard(index: $0, count: 8) }
        for name in names { #expect(shards.filter { $0.contains(relativePath: name) }.count == 1) }
        for shard in shards {
            let n = shard.select(names, inputs: []).count
            // Binomial(1000, 1/8): mean 125, sd ≈ 10.5; 5 sd either side.
            #expect((72...178).contains(n), "shard \(shard) got \(n)")
        }
    }

    @Test("the relative path is taken from the input folder, so two mount points agree; a lone file uses its name")
    func relativePaths() throws {
        #expect(Shard.relativePath(of: "/mnt/a/shoot/x/1.jpg", inputs: ["/mnt/a/shoot"]) == "x/1.jpg")
        #expect(Shard.relativePath(of: "/srv/data/shoot/x/1.jpg", inputs: ["/srv/data/shoot/"]) == "x/1.jpg")
        #expect(Shard.relativePath(of: "shoot/2.png", inputs: ["other", "shoot"]) == "2.png")
        #expect(Shard.relativePath(of: "/tmp/one.png", inputs: ["/tmp/one.png"]) == "one.png")
        let shard = try Shard(index: 1, count: 3)
        #expect(shard.select(["/mnt/a/s/1.jpg", "/mnt/a/s/2.jpg", "/mnt/a/s/3.jpg"], inputs: ["/mnt/a/s"])
                == shard.select(["/b/s/1.jpg", "/b/s/2.jpg", "/b/s/3.jpg"], inputs: ["/b/s"]).map { "/mnt/a" + $0.dropFirst(2) })
    }

    @Test("an input counts as done only when every output exists as a file; stale temporaries of other processes are removed")
    func resume() throws {
        let dir = NSTemporaryDirectory() + "lookstudio-batch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = dir + "/a.png", b = dir + "/b.png"
        #expect(!BatchResume.isComplete(outputs: [a, b]))
        #expect(FileManager.default.createFile(atPath: a, contents: Data([1])))
        #expect(!BatchResume.isComplete(outputs: [a, b]))
        try FileManager.default.createDirectory(atPath: b, withIntermediateDirectories: true)
        #expect(!BatchResume.isComplete(outputs: [a, b]), "a folder is not an output")
        try FileManager.default.removeItem(atPath: b)
        #expect(FileManager.default.createFile(atPath: b, contents: Data([1])))
        #expect(BatchResume.isComplete(outputs: [a, b]))
        #expect(!BatchResume.isComplete(outputs: []))

        let stale = dir + "/.a.png.999999.12345.tmp", mine = dir + "/.a.png.\(getpid()).7.tmp"
        let other = dir + "/.ab.png.999999.1.tmp"
        for path in [stale, mine, other] { #expect(FileManager.default.createFile(atPath: path, contents: nil)) }
        #expect(BatchResume.removeStaleTemporaries(for: a) == [stale])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir))
                == [".a.png.\(getpid()).7.tmp", ".ab.png.999999.1.tmp", "a.png", "b.png"])
    }

    @Test("manifest lines are appended one per record, with every key, and parse back")
    func manifest() throws {
        let path = NSTemporaryDirectory() + "lookstudio-manifest-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let done = ManifestRecord(file: "in/a.png", outputs: ["out/a.png"], status: .done, scene: 8, error: nil,
                                  timings: .init(total: 0.5), shard: "0/2")
        let failed = ManifestRecord(file: "in/b.png", outputs: [], status: .failed, scene: nil,
                                    error: "in/b.png: not a PNG", timings: .init(total: 0.25), shard: "0/2")
        try ManifestWriter(path: path).append(done)
        let writer = try ManifestWriter(path: path)
        try writer.append(failed)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2 && text.hasSuffix("\n"))
        #expect(text.hasPrefix(#"{"error":null,"file":"in/a.png","outputs":["out/a.png"],"scene":8,"shard":"0/2","status":"done","timings":{"total":0.5}}"#))
        #expect(try ManifestRecord.parse(text) == [done, failed])
        #expect(throws: WorkflowError.self) { try ManifestWriter(path: "/nonexistent-folder/m.jsonl") }
    }

    @Test("two planned outputs that are one file are refused, naming both inputs; one input given twice is said to be")
    func distinctOutputs() throws {
        try PlannedOutputs.checkDistinct([("o1/x.png", "out/x.png"), ("o2/y.png", "out/y.png")])
        #expect(throws: WorkflowError.outputCollision(first: "o1/x.png", second: "o2/x.png", output: "out/./x.png")) {
            try PlannedOutputs.checkDistinct([("o1/x.png", "out/x.png"), ("o2/x.png", "out/./x.png")])
        }
        let cwd = FileManager.default.currentDirectoryPath
        #expect(throws: WorkflowError.duplicateInput(first: "a.png", second: cwd + "/a.png", output: "out/a.png")) {
            try PlannedOutputs.checkDistinct([("a.png", cwd + "/out/a.png"), (cwd + "/a.png", "out/a.png")])
        }
        #expect(WorkflowError.outputCollision(first: "o1/x.png", second: "o2/x.png", output: "c/x.png").description
                == "o1/x.png and o2/x.png would both be written to c/x.png; give them different names or separate runs")
    }
}
