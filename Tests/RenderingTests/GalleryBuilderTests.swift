import Foundation
import ImageIO
import LookCore
import LookGallery
import Rendering
import Testing

/// FNV-1a from two seeds: a stand-in for the catalog's SHA-256 (the engine does not link the catalog).
private let testHasher: GalleryBuilder.Hasher = { data in
    var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
    for byte in data {
        a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
        b = (b ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return String(format: "%016llx%016llx", a, b)
}

/// Counts cube loads across the builder's worker threads; guarded by `lock`.
private final class LoadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func hit() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A temporary gallery with two synthetic photos and looks made from colour functions.
private struct Fixture {
    let dir: String
    let photos: [String]
    let loads = LoadCounter()

    init() throws {
        dir = NSTemporaryDirectory() + "gallery-builder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        photos = [dir + "/wide.png", dir + "/tall.png"]
        try ImageFormat.write(Self.gradient(width: 64, height: 40), to: photos[0])
        try ImageFormat.write(Self.gradient(width: 30, height: 50), to: photos[1])
    }

    static func gradient(width: Int, height: Int) throws -> PixelBuffer {
        var s = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                s += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x + y) * 127 / (width + height))]
            }
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(s))
    }

    func look(_ name: String, _ transform: @escaping @Sendable (SIMD3<Float>) -> SIMD3<Float>) throws
        -> GalleryBuilder.Look {
        let cube = try ColorCube(size: 9, transform: transform)
        let info = GalleryLookInfo(id: "GUID-\(name)", guid: "GUID-\(name)", name: name, cubeSize: 9, source: "png")
        let counter = loads
        return GalleryBuilder.Look(info: info, contentHash: testHasher(Data(name.utf8)),
                                   loadCube: { counter.hit(); return cube })
    }

    func build(_ looks: [GalleryBuilder.Look], into folder: String? = nil, size: Int = 32) throws
        -> GalleryBuilder.Report {
        try GalleryBuilder(hasher: testHasher).build(photos: photos, looks: looks, into: folder ?? dir + "/out",
                                                     options: .init(size: size))
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    func remove() { try? FileManager.default.removeItem(atPath: dir) }
}

private let invert: @Sendable (SIMD3<Float>) -> SIMD3<Float> = { SIMD3(repeating: 1) - $0 }
private let warm: @Sendable (SIMD3<Float>) -> SIMD3<Float> = { SIMD3(min(1, $0.x * 1.1), $0.y, $0.z * 0.9) }

@Suite("Gallery builder")
struct GalleryBuilderTests {
    @Test("the first build renders every preview; a rerun renders nothing, decodes nothing, loads no cube")
    func rerunHitsTheCache() throws {
        let f = try Fixture()
        defer { f.remove() }
        let looks = [try f.look("Invert", invert), try f.look("Warm", warm)]
        let first = try f.build(looks)
        #expect(first.previewsRendered == 4 && first.previewsReused == 0)
        #expect(first.photosDecoded == 2 && first.cubesLoaded == 2)
        let index = try f.text(f.dir + "/out/index.html")
        let second = try f.build(looks)
        #expect(second.previewsRendered == 0 && second.previewsReused == 4)
        #expect(second.photosDecoded == 0 && second.cubesLoaded == 0)
        #expect(f.loads.value == 2)
        #expect(try f.text(f.dir + "/out/index.html") == index)
    }

    @Test("a look added renders only its own previews")
    func addedLookRendersOnlyItself() throws {
        let f = try Fixture()
        defer { f.remove() }
        let looks = [try f.look("Invert", invert), try f.look("Warm", warm)]
        _ = try f.build(looks)
        let grown = try f.build(looks + [try f.look("Cool", { SIMD3($0.x * 0.9, $0.y, min(1, $0.z * 1.1)) })])
        #expect(grown.previewsRendered == 2 && grown.previewsReused == 4)
        #expect(grown.cubesLoaded == 1 && f.loads.value == 3)
        #expect(try f.text(f.dir + "/out/index.html").contains("GUID-Cool"))
    }

    @Test("a look removed takes its previews and page with it")
    func removedLookIsPruned() throws {
        let f = try Fixture()
        defer { f.remove() }
        let looks = [try f.look("Invert", invert), try f.look("Warm", warm)]
        _ = try f.build(looks)
        let shrunk = try f.build([looks[0]])
        #expect(shrunk.previewsRendered == 0)
        #expect(shrunk.filesRemoved >= 4 + 1)
        let previews = try FileManager.default.contentsOfDirectory(atPath: f.dir + "/out/previews")
        #expect(previews.filter { $0.hasPrefix("p-") }.count == 2 * 2)
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/out/looks/GUID-Warm.html"))
    }

    @Test("the same inputs in two folders give the same pages, byte for byte")
    func stableOutput() throws {
        let f = try Fixture()
        defer { f.remove() }
        let looks = [try f.look("Invert", invert), try f.look("Warm", warm)]
        _ = try f.build(looks, into: f.dir + "/a")
        _ = try f.build(looks, into: f.dir + "/b")
        #expect(try f.text(f.dir + "/a/index.html") == f.text(f.dir + "/b/index.html"))
        #expect(try f.text(f.dir + "/a/looks/GUID-Warm.html") == f.text(f.dir + "/b/looks/GUID-Warm.html"))
    }

    @Test("before and after previews are pixel-aligned, fitted to the size, and the after is the look applied")
    func previewsAreAlignedAndApplied() throws {
        let f = try Fixture()
        defer { f.remove() }
        _ = try f.build([try f.look("Invert", invert)], size: 32)
        let folder = f.dir + "/out/previews/"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        let befores = try files.filter { $0.hasPrefix("b-") }.map { try ImageFormat.read(path: folder + $0).pixels }
        let afters = try files.filter { $0.hasPrefix("p-") }.map { try ImageFormat.read(path: folder + $0).pixels }
        #expect(Set(befores.map { "\($0.width)x\($0.height)" }) == ["32x20", "19x32"])
        #expect(Set(afters.map { "\($0.width)x\($0.height)" }) == ["32x20", "19x32"])
        // Pair each after with the before of its size: the inverted photo, within JPEG error.
        for after in afters {
            let before = try #require(befores.first { $0.width == after.width })
            var worst: Float = 0
            for y in 0..<after.height {
                for x in 0..<after.width {
                    for c in 0..<3 {
                        worst = max(worst, abs(after.normalized(x: x, y: y, channel: c)
                                               - (1 - before.normalized(x: x, y: y, channel: c))))
                    }
                }
            }
            #expect(worst * 255 < 24)
        }
    }

    @Test("a photo's ICC profile travels with its before and after previews")
    func profileTravels() throws {
        let f = try Fixture()
        defer { f.remove() }
        let profile = ImagePipelineTests.profile(tint: 7)
        try ImageFormat.write(try Fixture.gradient(width: 40, height: 30), to: f.photos[0], iccProfile: profile)
        _ = try f.build([try f.look("Warm", warm)])
        let folder = f.dir + "/out/previews/"
        let jpegs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }
        let profiles = try jpegs.map { try ImageFormat.read(path: folder + $0).iccProfile }
        #expect(profiles.count == 4)
        #expect(profiles.filter { $0 == profile }.count == 2)
        #expect(profiles.filter { $0 == nil }.count == 2)
    }

    @Test("a changed photo re-renders its previews only")
    func changedPhotoRerenders() throws {
        let f = try Fixture()
        defer { f.remove() }
        let looks = [try f.look("Invert", invert), try f.look("Warm", warm)]
        _ = try f.build(looks)
        try ImageFormat.write(try Fixture.gradient(width: 30, height: 52), to: f.photos[1])
        let report = try f.build(looks)
        #expect(report.previewsRendered == 2 && report.photosDecoded == 1)
    }

    @Test("a cube that cannot be loaded is an error naming the look")
    func failingCube() throws {
        let f = try Fixture()
        defer { f.remove() }
        struct Broken: Error, CustomStringConvertible { var description: String { "blob is corrupt" } }
        let info = GalleryLookInfo(id: "GUID-B", guid: "GUID-B", name: "Broken", cubeSize: 9, source: "png")
        let broken = GalleryBuilder.Look(info: info, contentHash: "x", loadCube: { throw Broken() })
        #expect {
            try f.build([broken])
        } throws: { error in
            "\(error)".contains("Broken (GUID-B)") && "\(error)".contains("blob is corrupt")
        }
    }

    @Test func buildRefusesAFolderWithFilesItDidNotMakeAndLeavesThem() throws {
        let f = try Fixture()
        defer { f.remove() }
        let out = f.dir + "/mine"
        try FileManager.default.createDirectory(atPath: out + "/looks", withIntermediateDirectories: true)
        try "mine".write(toFile: out + "/looks/mine.html", atomically: true, encoding: .utf8)
        try "mine".write(toFile: out + "/index.html", atomically: true, encoding: .utf8)
        #expect {
            _ = try f.build([try f.look("Invert", invert)], into: out)
        } throws: { error in
            "\(error)".contains("\(out) is not empty and was not made by a LookStudio gallery")
        }
        #expect(try f.text(out + "/looks/mine.html") == "mine" && f.text(out + "/index.html") == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["index.html", "looks"])
        // A folder the builder made is its own from the start, so a build that failed half-way can be rerun there.
        #expect(throws: (any Error).self) {
            try GalleryBuilder(hasher: testHasher).build(photos: [f.dir + "/missing.png"],
                                                         looks: [try f.look("Invert", invert)], into: f.dir + "/out")
        }
        #expect(try f.build([try f.look("Invert", invert)]).previewsRendered == 2)
    }

    @Test func rebuildRemovesOnlyFilesTheCacheSaysItWrote() throws {
        let f = try Fixture()
        defer { f.remove() }
        let looks = [try f.look("Invert", invert), try f.look("Warm", warm)]
        _ = try f.build(looks)
        // Named the way the builder names its own files, but put there by someone else.
        for file in ["looks/mine.html", "previews/p-mine.jpg", "cubes/slice-mine.png"] {
            try "mine".write(toFile: f.dir + "/out/" + file, atomically: true, encoding: .utf8)
        }
        let shrunk = try f.build([looks[0]])
        #expect(shrunk.filesRemoved == 2 * 2 + 3 + 1)
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/out/looks/GUID-Warm.html"))
        for file in ["looks/mine.html", "previews/p-mine.jpg", "cubes/slice-mine.png"] {
            #expect(try f.text(f.dir + "/out/" + file) == "mine", "\(file)")
        }
    }

    @Test func aBuildThatFailedHalfWayIsCleanedUpByTheNext() throws {
        let f = try Fixture()
        defer { f.remove() }
        struct Broken: Error {}
        let info = GalleryLookInfo(id: "GUID-B", guid: "GUID-B", name: "Broken", cubeSize: 9, source: "png")
        let broken = GalleryBuilder.Look(info: info, contentHash: "broken", loadCube: { throw Broken() })
        // Warm's previews and slices are written before Broken stops the build; its page never is.
        #expect(throws: (any Error).self) { try f.build([try f.look("Warm", warm), broken]) }
        let out = f.dir + "/out/"
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "previews").filter { $0.hasPrefix("p-") }
            .count == 2 * 2)
        let rebuilt = try f.build([try f.look("Invert", invert)])
        #expect(rebuilt.filesRemoved == 2 * 2 + 3, "Warm's previews with their scripts, and its slices")
        // What is left is exactly the gallery shown, all of it listed in the cache for the next build.
        let left = try ["previews", "cubes", "looks"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: out + folder).map { folder + "/" + $0 }
        }
        #expect(left.count == 2 * 2 * 2 + 3 + 3 + 1, "\(left.sorted())")
        let cache = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out
            + GalleryBuilder.cacheFile))) as? [String: Any]
        #expect(Set(cache?["files"] as? [String] ?? []) == Set(left))
    }

    @Test func buildIntoAFileSaysTheGalleryFolderCannotBeMade() throws {
        let f = try Fixture()
        defer { f.remove() }
        #expect {
            _ = try f.build([try f.look("Invert", invert)], into: f.photos[0])
        } throws: { error in
            "\(error)" == "gallery: \(f.photos[0]): cannot create the gallery folder (it is a regular file)"
        }
    }

    @Test("the slider's premise: blending before and after pixels by s is the cube scaled to s, within one code")
    func strengthIsLinearInPixels() throws {
        let photo = try PreviewScaler.downscale(try Fixture.gradient(width: 64, height: 40), longSide: 64)
        let look = try ColorCube(size: 17) { c -> SIMD3<Float> in
            SIMD3(Float(pow(Double(c.x), 0.7)), c.y * c.y, min(1, c.z * 0.5 + 0.3))
        }
        func applied(_ cube: ColorCube) throws -> [UInt8] {
            guard case .eight(var s) = photo.samples else { return [] }
            try s.withUnsafeMutableBufferPointer { try CubeApplier(cube: cube).apply(to: $0, channels: 3) }
            return s
        }
        guard case .eight(let before) = photo.samples else { Issue.record("not 8-bit"); return }
        let after = try applied(look)
        for s: Float in [0, 0.25, 0.5, 0.8, 1] {
            let scaled = try applied(try look.scaled(strength: s))
            var worst: Float = 0
            for i in before.indices {
                let b = Float(before[i]), a = Float(after[i])
                let blended = (b + s * (a - b)).rounded()
                worst = max(worst, abs(blended - Float(scaled[i])))
            }
            #expect(worst <= 1, "strength \(s): \(worst) codes")
        }
    }
}
