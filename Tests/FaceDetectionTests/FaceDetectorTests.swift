import Dispatch
import FaceDetection
import Foundation
import ImageIO
import LookModel
import Testing

/// Shared helpers: the shipped samples as grey images.
enum Samples {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/samples/"

    static func grey(_ name: String) throws -> GreyImage {
        let image = try PNGImage.read(path: root + name)
        guard case .eight(let samples) = image.samples else { throw FaceDetectionError.invalidImage(reason: name) }
        return try samples.withUnsafeBufferPointer {
            try GreyImage(interleaved: $0, width: image.width, height: image.height, channels: image.channels)
        }
    }

    static func faces(_ name: String) throws -> [FaceRegion] {
        let image = try grey(name)
        return try FaceDetector.shared.get().faces(in: image, sourceWidth: image.width, sourceHeight: image.height)
    }

    /// Intersection over union of two boxes.
    static func iou(_ a: FaceRegion, _ b: (x: Int, y: Int, width: Int, height: Int)) -> Double {
        let w = max(0, min(a.x + a.width, b.x + b.width) - max(a.x, b.x))
        let h = max(0, min(a.y + a.height, b.y + b.height) - max(a.y, b.y))
        let inter = Double(w * h)
        return inter / (Double(a.width * a.height + b.width * b.height) - inter)
    }
}

@Suite struct FaceDetectorTests {
    /// The astronaut's face as marked by hand (brow to chin, ear to ear) in samples/astronaut.png.
    static let astronautFace = (x: 176, y: 78, width: 92, height: 106)

    @Test("the serialized model fd_create reads is dlib's compiled-in model, byte for byte, and finds the same faces")
    func serializedDetectorIsDlibs() throws {
        let compiled = try FaceDetector(compiled: true), shipped = try FaceDetector()
        let expected = compiled.serialized()
        #expect(expected.count > 100_000)
        #expect(shipped.serialized() == expected, "libdlib's model changed: regenerate serialized_model.cpp")
        let grey = try Samples.grey("astronaut.png")
        #expect(try shipped.detect(grey) == compiled.detect(grey))
    }

    @Test("the astronaut portrait has one face, where a person sees it, scoring above the threshold")
    func astronaut() throws {
        let faces = try Samples.faces("astronaut.png")
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        #expect(Samples.iou(face, Self.astronautFace) >= 0.5)
        #expect(face.score >= FaceDetector.scoreThreshold)
    }

    @Test("no face in the coffee cup or the cat")
    func noFaces() throws {
        #expect(try Samples.faces("coffee.png").isEmpty)
        #expect(try Samples.faces("chelsea.png").isEmpty)
    }

    @Test("the photographer in profile (camera.png) is not a frontal face: nothing above the threshold")
    func profile() throws {
        #expect(try Samples.faces("camera.png").isEmpty)
        // The profile is what the detector sees weakest: it is there below the threshold.
        let image = try Samples.grey("camera.png")
        let weak = try FaceDetector.shared.get().faces(in: image, sourceWidth: 512, sourceHeight: 512, threshold: -0.5)
        #expect(weak.contains { $0.x < 300 && $0.x + $0.width > 220 && $0.y < 200 })
    }

    @Test("boxes are mapped to the source's pixels and clipped to it")
    func mappedAndClipped() throws {
        let image = try Samples.grey("astronaut.png")
        // Pretend the 512² image is a preview of a 2048×2048 original: the box scales by 4.
        let big = try FaceDetector.shared.get().faces(in: image, sourceWidth: 2048, sourceHeight: 2048)
        let small = try Samples.faces("astronaut.png")
        let b = try #require(big.first), s = try #require(small.first)
        #expect(abs(b.x - 4 * s.x) <= 4 && abs(b.width - 4 * s.width) <= 4)
        let all = try FaceDetector.shared.get().faces(in: image, sourceWidth: 512, sourceHeight: 512, threshold: -1)
        #expect(all.count > 1)
        for f in all {
            #expect(f.x >= 0 && f.y >= 0 && f.width > 0 && f.height > 0)
            #expect(f.x + f.width <= 512 && f.y + f.height <= 512)
        }
    }

    @Test("upsampling finds a face smaller than the detector's window")
    func upsample() throws {
        let small = try Samples.grey("astronaut.png").resized(longSide: 256)  // face ≈ 46 px, under the ~65 px floor
        let detector = try FaceDetector.shared.get()
        #expect(try detector.detect(small, upsample: 0).isEmpty)
        let found = try detector.detect(small, upsample: 1)
        #expect(found.count == 1)
        #expect(found.first.map { $0.x > 80 && $0.x < 100 } == true)
    }

    @Test("one shared detector gives the same answer to many threads at once")
    func concurrent() throws {
        let image = try Samples.grey("astronaut.png")
        let detector = try FaceDetector.shared.get()
        let expected = try detector.detect(image, threshold: -1)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            results.set(i, (try? detector.detect(image, threshold: -1)) ?? [])
        }
        #expect(results.all(4).allSatisfy { $0 == expected })
    }

    @Test("detection shared between threads finds exactly what dlib's own detector finds, weak boxes included",
          arguments: ["astronaut.png", "camera.png", "chelsea.png", "coffee.png"])
    func threadsGiveDlibsAnswer(name: String) throws {
        let detector = try FaceDetector.shared.get()
        let photo = try Samples.grey(name)
        // Several sizes give pyramids of different depths; a threshold of -2 keeps many weak, overlapping boxes, so
        // the suppression between them is compared too.
        for side in [photo.width, 700, 1100] {
            let image = photo.resized(longSide: side)
            let dlib = try detector.detect(image, threshold: -2, threads: 0)
            #expect(dlib.count >= 2, "\(name) at \(side): too few boxes to compare")
            for threads in [1, 2, 3] {
                let shared = try detector.detect(image, threshold: -2, threads: threads)
                #expect(shared == dlib, "\(name) at \(side) px, \(threads) threads: \(shared) vs dlib's \(dlib)")
            }
        }
    }

    @Test("the AVX2 build finds the baseline build's faces, weak ones included, scores within 1e-5; picked where the processor has AVX2",
          arguments: ["astronaut.png", "camera.png", "chelsea.png", "coffee.png"])
    func avx2FindsTheBaselinesFaces(name: String) throws {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let hasAVX2 = cpuinfo.split(separator: "\n").contains {
            $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx2")
        }
        let baseline = try FaceDetector(instructions: .baseline)
        #expect(baseline.instructions == .baseline)
        #expect(try FaceDetector().instructions == (hasAVX2 ? .avx2 : .baseline))
        guard hasAVX2 else {
            #expect(throws: FaceDetectionError.self) { try FaceDetector(instructions: .avx2) }
            return
        }
        let avx2 = try FaceDetector(instructions: .avx2)
        #expect(avx2.instructions == .avx2 && avx2.serialized() == baseline.serialized())
        let photo = try Samples.grey(name)
        for side in [photo.width, 700, 1100] {
            let image = photo.resized(longSide: side)
            for threads in [0, 2] {
                let expected = try baseline.detect(image, threshold: -2, threads: threads)
                let found = try avx2.detect(image, threshold: -2, threads: threads)
                #expect(expected.count >= 2, "\(name) at \(side): too few boxes to compare")
                let boxes = { (faces: [FaceRegion]) in faces.map { [$0.x, $0.y, $0.width, $0.height] } }
                #expect(boxes(found) == boxes(expected), "\(name) at \(side) px, \(threads) threads")
                for (a, b) in zip(found, expected) {
                    #expect(abs(a.score - b.score) <= 1e-5, "\(name) at \(side) px: \(a.score) vs \(b.score)")
                }
            }
        }
    }

    @Test("a grey image with the wrong pixel count is refused with its size")
    func invalidImage() {
        #expect(throws: FaceDetectionError.invalidImage(reason: "3×2 grey image needs 6 pixels, got 5")) {
            try GreyImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5])
        }
    }

    @Test("resizing keeps the aspect ratio and hits the long side")
    func resize() throws {
        let image = try GreyImage(width: 300, height: 200, pixels: (0..<60_000).map { UInt8($0 % 256) })
        let up = image.resized(longSide: 1600), down = image.resized(longSide: 90)
        #expect(up.width == 1600 && up.height == 1067)
        #expect(down.width == 90 && down.height == 60)
        let flat = try GreyImage(width: 40, height: 30, pixels: Array(repeating: 77, count: 1200))
        #expect(flat.resized(longSide: 7).pixels.allSatisfy { $0 == 77 })
        #expect(flat.resized(longSide: 100).pixels.allSatisfy { $0 == 77 })
    }
}

/// Per-thread result slots; guarded by `lock`.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Int: [FaceRegion]] = [:]

    func set(_ i: Int, _ faces: [FaceRegion]) {
        lock.lock()
        slots[i] = faces
        lock.unlock()
    }

    func all(_ count: Int) -> [[FaceRegion]] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<count).map { slots[$0] ?? [] }
    }
}
