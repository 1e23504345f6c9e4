import Foundation
import LookCore

/// One machine's share of a batch: shard `index` of `count`, chosen by a stable hash of each input's relative path.
///
/// The partition depends only on the relative path's UTF-8 bytes (FNV-1a, 64-bit — a published, fixed function,
/// unlike Swift's per-process seeded `Hasher`), so every machine, run and toolchain assigns each input to the same
/// shard, and the N shards together cover every input exactly once.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// K, counted from 0.
    public let index: Int
    /// N, the number of shards.
    public let count: Int

    /// The whole batch as one shard.
    public static let all = Shard(validIndex: 0, count: 1)

    private init(validIndex: Int, count: Int) {
        self.index = validIndex
        self.count = count
    }

    /// Shard `index` of `count`; refused unless 0 ≤ index < count.
    public init(index: Int, count: Int) throws(WorkflowError) {
        guard count >= 1, (0..<count).contains(index) else { throw .invalidShard("\(index)/\(count)") }
        self.init(validIndex: index, count: count)
    }

    /// Parses `K/N`, as `--shard` takes it (e.g. `3/16`, or `$SLURM_ARRAY_TASK_ID/16` once the shell expands it).
    public init(parsing text: String) throws(WorkflowError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { throw .invalidShard(text) }
        do {
            try self.init(index: k, count: n)
        } catch {
            throw .invalidShard(text)
        }
    }

    public var description: String { "\(index)/\(count)" }

    /// FNV-1a 64-bit of the UTF-8 bytes: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
    public static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// True when the input with this relative path belongs to this shard.
    public func contains(relativePath: String) -> Bool {
        Int(Shard.stableHash(relativePath) % UInt64(count)) == index
    }

    /// `file`'s path relative to the input folder it was found in (`inputs` as given on the command line), or its
    /// file name when it was given directly: the key every machine agrees on whatever its mount point.
    public static func relativePath(of file: String, inputs: [String]) -> String {
        let standardFile = URL(fileURLWithPath: file).standardizedFileURL.path
        for input in inputs {
            var folder = URL(fileURLWithPath: input).standardizedFileURL.path
            if !folder.hasSuffix("/") { folder += "/" }
            if standardFile.hasPrefix(folder), standardFile.count > folder.count {
                return String(standardFile.dropFirst(folder.count))
            }
        }
        return URL(fileURLWithPath: file).lastPathComponent
    }

    /// The files of `files` that belong to this shard, in their original order.
    public func select(_ files: [String], inputs: [String]) -> [String] {
        guard count > 1 else { return files }
        return files.filter { contains(relativePath: Shard.relativePath(of: $0, inputs: inputs)) }
    }
}

/// The outputs a batch will write, checked before anything is read or written.
public enum PlannedOutputs {
    /// Throws when two of `planned` (each an input file and one of its outputs, in input order) name one output
    /// file, compared as standardized absolute paths: the later write would replace the earlier one without a
    /// word. Names the inputs as messages show them; one file given twice (by the same path, another spelling or
    /// a link) is reported as such.
    public static func checkDistinct(_ planned: [(input: String, output: String)]) throws(WorkflowError) {
        var first: [String: String] = [:]
        for (input, output) in planned {
            let key = URL(fileURLWithPath: output).standardizedFileURL.path
            guard let earlier = first[key] else {
                first[key] = input
                continue
            }
            let (a, b) = (ImageFiles.displayPath(of: earlier), ImageFiles.displayPath(of: input))
            if sameFile(earlier, input) { throw .duplicateInput(first: a, second: b, output: output) }
            throw .outputCollision(first: a, second: b, output: output)
        }
    }

    /// The same path once standardized, or the same device and inode.
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        if URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path {
            return true
        }
        var x = stat(), y = stat()
        return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}

/// Decisions that make a batch resumable: which inputs are already done, and the debris a killed run left.
public enum BatchResume {
    /// True when every output exists as a regular file. Outputs are written to a hidden temporary file and renamed
    /// into place only once complete (`AtomicFile`), so an existing output is a complete one.
    public static func isComplete(outputs: [String]) -> Bool {
        !outputs.isEmpty && outputs.allSatisfy { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Removes temporary files a killed writer left beside `output` and returns their paths: `AtomicFile`'s
    /// `.NAME.PID.RANDOM.tmp`, the metadata carrier's `.NAME.PID.RANDOM.tmp.EXT` (it keeps the extension so the
    /// writer picks the format), and the writer's own temporary of that one. Only the process that owns `output`
    /// (its shard) may call this; temporaries of this very process are in use by its other workers, never stale.
    @discardableResult
    public static func removeStaleTemporaries(for output: String) -> [String] {
        let url = URL(fileURLWithPath: output)
        let folder = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let name = NSRegularExpression.escapedPattern(for: url.lastPathComponent)
        let ext = NSRegularExpression.escapedPattern(for: url.pathExtension)
        let temporary = #"\.(\d+)\.\d+\.tmp"#
        guard let pattern = try? NSRegularExpression(
            pattern: "^\\.\\.?\(name)\(temporary)(\\.\(ext))?(\(temporary))?$") else { return [] }
        let ownPID = "\(getpid())"
        var removed: [String] = []
        for candidate in names {
            let range = NSRange(candidate.startIndex..., in: candidate)
            guard let match = pattern.firstMatch(in: candidate, range: range),
                  let pid = Range(match.range(at: 1), in: candidate), candidate[pid] != ownPID else { continue }
            let path = folder + "/" + candidate
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }
}

/// One line of a batch manifest (JSON Lines): what happened to one input. Every key is written, null when empty,
/// so each line has the same shape for jq and spreadsheets.
public struct ManifestRecord: Codable, Sendable, Equatable {
    /// What became of the input.
    public enum Status: String, Codable, Sendable {
        /// Corrected now: every output written.
        case done
        /// Every output already existed (`--skip-existing`): nothing written.
        case skipped
        /// The input could not be corrected; `error` says why, `outputs` lists what was written before.
        case failed
        /// SIGINT or SIGTERM came while the input was in flight: its unfinished output was discarded (`outputs`
        /// lists those complete before), so a `--skip-existing` rerun corrects it again.
        case interrupted
    }

    /// Seconds spent on the input (wall clock, this process).
    public struct Timings: Codable, Sendable, Equatable {
        /// From starting the input to its last output renamed into place (or the failure).
        public var total: Double

        public init(total: Double) { self.total = total }

        // To the millisecond: a manifest line carries no clock noise.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode((total * 1000).rounded() / 1000, forKey: .total)
        }
    }

    /// The input as the batch found it.
    public var file: String
    /// Its outputs (all of them for `done` and `skipped`; those written before the failure for `failed`).
    public var outputs: [String]
    public var status: Status
    /// The scene label used (detected or given), nil when unknown (skipped, or failed before detection).
    @NullEncoded public var scene: Int? = nil
    /// The failure message for `failed` (the signal for `interrupted`), else nil.
    @NullEncoded public var error: String? = nil
    public var timings: Timings
    /// The shard that processed the input, `K/N`.
    public var shard: String

    public init(file: String, outputs: [String], status: Status, scene: Int?, error: String?, timings: Timings,
                shard: String) {
        self.file = file
        self.outputs = outputs
        self.status = status
        self.scene = scene
        self.error = error
        self.timings = timings
        self.shard = shard
    }

    /// The record as one line of JSON (keys sorted), newline included.
    public func jsonLine() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings, numbers and arrays cannot fail.
        var data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        data.append(0x0A)
        return data
    }

    /// Parses a manifest's text: one record per non-empty line, later lines after earlier ones.
    public static func parse(_ text: String) throws -> [ManifestRecord] {
        let decoder = JSONDecoder()
        return try text.split(whereSeparator: \.isNewline).map { line in
            try decoder.decode(ManifestRecord.self, from: Data(line.utf8))
        }
    }
}

/// Appends manifest records to a JSON Lines file, one `write(2)` per record on an `O_APPEND` descriptor.
///
/// Each line reaches the kernel before `append` returns, so a process killed at any moment leaves a manifest that is
/// valid up to its last line, and several processes may append to one file without interleaving their lines.
public final class ManifestWriter: @unchecked Sendable {
    /// Path of the manifest file.
    public let path: String
    private let descriptor: Int32
    // Serialises this process's workers; the file itself is shared through O_APPEND.
    private let lock = NSLock()

    /// Opens `path` for appending, creating it (and nothing else) if needed.
    public init(path: String) throws(WorkflowError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .manifest(path: path, reason: String(cString: strerror(errno))) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Writes `record` as one line.
    public func append(_ record: ManifestRecord) throws(WorkflowError) {
        let line = record.jsonLine()
        lock.lock()
        defer { lock.unlock() }
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            let reason = written < 0 ? String(cString: strerror(errno))
                : "short write (\(written) of \(line.count) bytes)"
            throw .manifest(path: path, reason: reason)
        }
    }
}
