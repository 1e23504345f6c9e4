import Foundation
import ImageIO
import LookCatalog
import LookCore
import LookFormats

/// The measurements behind `lookstudio bench catalog`; prints as it goes (the whole run takes about a minute).
public struct CatalogBenchmark {
    var looks: Int
    var repeats: Int
    var keep: String?
    var pngSamples: [String]

    /// A run over `looks` generated looks, `repeats` timed start-ups, kept in `keep` when given, blob settings
    /// compared on `pngSamples` (default: the first generated looks).
    public init(looks: Int, repeats: Int, keep: String?, pngSamples: [String]) {
        self.looks = looks
        self.repeats = repeats
        self.keep = keep
        self.pngSamples = pngSamples
    }

    /// `apply --look` should spend at most this long before it touches the image.
    static let startupTargetMs = 20.0

    /// Runs every measurement, printing as it goes.
    public func run() throws {
        let fm = FileManager.default
        let dir: String
        if let keep {
            dir = keep
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for name in ["catalog.sqlite", "library.sqlite"] where fm.fileExists(atPath: "\(dir)/\(name)") {
                throw BenchError.failed("\(dir)/\(name) exists; --keep needs a folder without a benchmark catalog")
            }
        } else {
            dir = fm.temporaryDirectory.appendingPathComponent("lookstudio-bench-catalog-\(UUID().uuidString)").path
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        defer { if keep == nil { try? fm.removeItem(atPath: dir) } }
        print("folder: \(dir)\(keep == nil ? " (removed afterwards)" : "")")

        let files = try generate(into: "\(dir)/looks")
        try compareBlobSettings(samples: pngSamples.isEmpty ? Array(files.prefix(5)) : pngSamples)
        let catalogPath = "\(dir)/catalog.sqlite"
        try importWithCommand(files: files, catalogPath: catalogPath)
        try importWithLibrary(files: files, catalogPath: "\(dir)/library.sqlite")
        try applyStartup(catalogPath: catalogPath, lookName: Self.stem(looks / 2))
    }

    static func stem(_ index: Int) -> String { String(format: "look-%05d", index) }

    /// Look `index` of `count`: gamma, saturation, a warm/cool shift and a soft S-curve, each moved by the parameter.
    static func cube(index: Int, count: Int) throws -> ColorCube {
        let t = Float(index) / Float(max(count - 1, 1))
        let gamma = 0.75 + 0.5 * t
        let saturation = 0.7 + 0.6 * t
        let shift = 0.06 * (t - 0.5)
        let curve = 0.3 * (1 - t)
        return try ColorCube(size: 64) { c in
            let p = SIMD3(pow(c.x, gamma), pow(c.y, gamma), pow(c.z, gamma))
            let luma = ColorScience.luma(p)
            var o = SIMD3(repeating: luma) + (p - SIMD3(repeating: luma)) * saturation
            o += SIMD3(shift, 0, -shift) * SIMD3(repeating: 4 * luma * (1 - luma))
            let s = o * o * (3 - 2 * o)
            o = o + (s - o) * curve
            return o.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
        }
    }

    /// Writes the looks as 16-bit tiled PNGs, on every core (not timed: it is the set-up).
    func generate(into folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let count = looks
        let files = (0..<count).map { "\(folder)/\(Self.stem($0)).png" }
        let failure = Locked<(any Error)?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: count) { i in
            do {
                // Level 1: level 9 takes ~0.3 s per smooth 64³ look and this is only the set-up.
                let pixels = try CubeImage.render(try Self.cube(index: i, count: count), layout: .tiled, depth: .sixteen)
                try PNGImage.write(pixels, to: files[i], options: PNGWriteOptions(compressionLevel: 1, filter: .up))
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.current { throw error }
        print("generated \(count) looks (64³, 16-bit tiled PNG) in \(Self.seconds(since: start))")
        return files
    }

    /// Blob PNG settings on sample looks: render + compress time, size, and decode time per look.
    func compareBlobSettings(samples: [String]) throws {
        let cubes = try samples.map { try LookFile.read(path: $0, layout: nil).cube }
        let settings: [(String, PNGWriteOptions)] = [
            ("level 9, adaptive (.data)", .data),
            ("level 6, adaptive", PNGWriteOptions(compressionLevel: 6, filter: .adaptive)),
            ("level 3, adaptive", PNGWriteOptions(compressionLevel: 3, filter: .adaptive)),
            ("level 1, adaptive", PNGWriteOptions(compressionLevel: 1, filter: .adaptive, strategy: .standard)),
            ("level 1, up", PNGWriteOptions(compressionLevel: 1, filter: .up, strategy: .standard)),
            ("level 1, paeth", PNGWriteOptions(compressionLevel: 1, filter: .paeth, strategy: .standard)),
            ("level 3, up", PNGWriteOptions(compressionLevel: 3, filter: .up, strategy: .standard)),
            ("rle, up", PNGWriteOptions(compressionLevel: 1, filter: .up, strategy: .rle)),
        ]
        print("\nblob PNG settings on \(cubes.count) sample looks (render + compress, decode; per look):")
        for (name, options) in settings {
            var encodeNs: UInt64 = 0, decodeNs: UInt64 = 0, bytes = 0
            for cube in cubes {
                let side = Int(Double(cube.size).squareRoot().rounded())
                let layout: CubeLayout = side * side == cube.size ? .tiled : .strip
                let start = DispatchTime.now().uptimeNanoseconds
                let png = try PNGImage.encode(try CubeImage.render(cube, layout: layout, depth: .sixteen),
                                              options: options)
                let encoded = DispatchTime.now().uptimeNanoseconds
                _ = try CubeImage.decodePNG(png, name: "sample", layout: layout)
                decodeNs += DispatchTime.now().uptimeNanoseconds - encoded
                encodeNs += encoded - start
                bytes += png.count
            }
            let n = Double(cubes.count)
            print(String(format: "  %-26@ encode %6.1f ms  decode %5.1f ms  %7.1f kB", name,
                         Double(encodeNs) / 1e6 / n, Double(decodeNs) / 1e6 / n, Double(bytes) / 1e3 / n))
        }
    }

    /// Runs this binary's `import` once with every file into a new catalog; wall time, catalog size.
    func importWithCommand(files: [String], catalogPath: String) throws {
        // Create (migrate, seed) first, so the timed run imports the generated looks only.
        _ = try Catalog(path: catalogPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executablePath())
        process.arguments = ["import", "--catalog", catalogPath] + files
        let stdout = Pipe()
        process.standardOutput = stdout
        let errPath = catalogPath + ".import-stderr.txt"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let output = stdout.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        let ns = DispatchTime.now().uptimeNanoseconds - start
        let guids = String(decoding: output, as: UTF8.self).split(separator: "\n").count
        guard process.terminationStatus == 0, guids == files.count else {
            throw BenchError.failed("import exited with \(process.terminationStatus) and printed \(guids) GUIDs for "
                + "\(files.count) files; see \(errPath) (run with --keep to look at it)")
        }
        print("\n`lookstudio import` (this binary, one process, \(files.count) files, one transaction each):")
        print(String(format: "  total %.2f s, %.1f ms per look (process start and catalog open included)",
                     Double(ns) / 1e9, Double(ns) / 1e6 / Double(files.count)))
        let size = Self.fileSize(catalogPath), wal = Self.fileSize(catalogPath + "-wal")
        print(String(format: "  catalog on disk: %.1f MB (%.1f kB per look)%@", Double(size + wal) / 1e6,
                     Double(size + wal) / 1e3 / Double(files.count + 6),
                     wal > 0 ? String(format: ", of which WAL %.1f MB", Double(wal) / 1e6) : ""))
    }

    /// The same import through the library API, timing each stage.
    func importWithLibrary(files: [String], catalogPath: String) throws {
        let catalog = try Catalog(path: catalogPath)
        var timings = Catalog.AddLookTimings()
        var readNs: UInt64 = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for file in files {
            let readStart = DispatchTime.now().uptimeNanoseconds
            let loaded = try LookFile.read(path: file, layout: nil)
            readNs += DispatchTime.now().uptimeNanoseconds - readStart
            let url = URL(fileURLWithPath: file)
            let new = NewLook(cube: loaded.cube, name: url.deletingPathExtension().lastPathComponent,
                              sourceFormat: loaded.format, sourceFile: url.lastPathComponent)
            _ = try catalog.addLook(new, renameOnConflict: true, timings: &timings)
        }
        let total = DispatchTime.now().uptimeNanoseconds - start
        let n = Double(files.count)
        func ms(_ ns: UInt64) -> String { String(format: "%5.1f ms", Double(ns) / 1e6 / n) }
        print("\nlibrary API (LookFile.read + Catalog.addLook), per look, one thread:")
        print("  read + decode file  \(ms(readNs))")
        print("  encode blob PNG     \(ms(timings.encode))")
        print("  content hash        \(ms(timings.hash))")
        print("  insert (1 txn)      \(ms(timings.insert))")
        print("  total               \(ms(total))")
    }

    /// What `apply --look NAME` does before it touches the image, on the catalog the command filled.
    func applyStartup(catalogPath: String, lookName: String) throws {
        var open = UInt64.max, resolve = UInt64.max, decode = UInt64.max, total = UInt64.max
        for _ in 0...repeats {  // one run more than asked: the first may find a cold page cache
            let t0 = DispatchTime.now().uptimeNanoseconds
            let catalog = try Catalog(path: catalogPath)
            let t1 = DispatchTime.now().uptimeNanoseconds
            let record = try catalog.resolveLook(lookName)
            let blob = try catalog.storedBlob(guid: record.guid)
            let t2 = DispatchTime.now().uptimeNanoseconds
            let cube = try CubeImage.decodePNG(blob.png, name: record.name, layout: CubeLayout(rawValue: blob.layout))
            let t3 = DispatchTime.now().uptimeNanoseconds
            guard cube.size == record.cubeSize else {
                throw BenchError.failed("\(record.name): decoded a \(cube.size)³ cube, expected \(record.cubeSize)³")
            }
            open = min(open, t1 - t0)
            resolve = min(resolve, t2 - t1)
            decode = min(decode, t3 - t2)
            total = min(total, t3 - t0)
        }
        func ms(_ ns: UInt64) -> String { String(format: "%5.1f ms", Double(ns) / 1e6) }
        let totalMs = Double(total) / 1e6
        print("\n`apply --look \(lookName)` start-up, best of \(repeats + 1) (warm disk, \(looks + 6) looks):")
        print("  open catalog        \(ms(open))")
        print("  resolve + load blob \(ms(resolve))")
        print("  decode to cube      \(ms(decode))")
        print("  total               \(ms(total))  (target \(Int(Self.startupTargetMs)) ms: "
            + (totalMs <= Self.startupTargetMs ? "met)" : "missed by \(String(format: "%.1f", totalMs - Self.startupTargetMs)) ms)"))
    }

    static func executablePath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    static func seconds(since start: UInt64) -> String {
        String(format: "%.1f s", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
