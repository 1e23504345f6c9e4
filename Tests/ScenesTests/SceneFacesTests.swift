import Foundation
import ImageIO
import LookModel
import Scenes
import Testing

/// Scene rules that use faces, on the shipped portrait (samples/astronaut.png) and images built from it.
@Suite struct SceneFacesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/samples/"

    static func astronaut() throws -> (width: Int, height: Int, samples: [UInt8]) {
        let image = try PNGImage.read(path: root + "astronaut.png")
        guard case .eight(let s) = image.samples, image.channels == 3 else { throw ImageIOError.unsupportedChannels(image.channels) }
        return (image.width, image.height, s)
    }

    static func buffer(_ width: Int, _ height: Int, _ samples: [UInt8]) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(samples))
    }

    static func sRGBToLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func linearToSRGB(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    @Test("the shipped portrait has one face, inside the image, and is Auto — People (1)")
    func portrait() throws {
        let analysis = try SceneAnalysis(path: Self.root + "astronaut.png")
        #expect(analysis.faces.count == 1)
        for f in analysis.faces {
            #expect(f.x >= 0 && f.y >= 0 && f.x + f.width <= 512 && f.y + f.height <= 512)
        }
        #expect(analysis.statistics.faceMeanLuma > SceneDetector.Threshold.darkFaceLuma)
        #expect(SceneDetector.detect(analysis).label == .people)
    }

    @Test("an analysis made without faces, completed with them, is the analysis made with them")
    func facesAddedLater() throws {
        let without = try SceneAnalysis(path: Self.root + "astronaut.png", detectFaces: false)
        #expect(without.faces.isEmpty && without.statistics.faceMeanLuma == 0)
        let completed = without.withFaces()
        #expect(completed.faces.count == 1)
        #expect(completed == (try SceneAnalysis(path: Self.root + "astronaut.png")))
    }

    @Test("a large JPEG, analysed through its reduced decode, reports its face in the file's own pixels")
    func largeJPEGFaceInSourcePixels() throws {
        let small = try PNGImage.read(path: Self.root + "astronaut.png")
        let large = try Self.astronaut()
        // 8× nearest-neighbour: 4096 px, which the analysis decodes at 1/2 (any JPEG over 4095 px is reduced).
        let k = 8, side = large.width * k
        var samples = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let s = 3 * ((y / k) * large.width + x / k), o = 3 * (y * side + x)
                samples[o] = large.samples[s]
                samples[o + 1] = large.samples[s + 1]
                samples[o + 2] = large.samples[s + 2]
            }
        }
        let dir = NSTemporaryDirectory() + "lookstudio-faces-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try JPEGImage.write(try Self.buffer(side, side, samples), to: dir + "/big.jpg")
        let analysis = try SceneAnalysis(path: dir + "/big.jpg")
        #expect(analysis.statistics.sourceWidth == side && analysis.statistics.sourceHeight == side)
        let face = try #require(analysis.faces.first)
        let expected = try #require(try SceneAnalysis(image: small).faces.first)
        // The same face, k times larger: within 2 % of the side on every edge.
        let tolerance = side / 50
        #expect(abs(face.x - expected.x * k) <= tolerance && abs(face.y - expected.y * k) <= tolerance,
                "\(face) against \(expected) × \(k)")
        #expect(abs(face.width - expected.width * k) <= tolerance
                && abs(face.height - expected.height * k) <= tolerance)
    }

    @Test("no face and no people scene in the coffee cup and the cat; camera.png (a profile, grey) stays 100")
    func noPeople() throws {
        for name in ["coffee.png", "chelsea.png"] {
            let analysis = try SceneAnalysis(path: Self.root + name)
            #expect(analysis.faces.isEmpty, "\(name)")
            #expect(![.people, .groupPortraits].contains(SceneDetector.detect(analysis).label), "\(name)")
        }
        let camera = try SceneAnalysis(path: Self.root + "camera.png")
        #expect(camera.faces.isEmpty)
        #expect(SceneDetector.detect(camera).label == .blackAndWhite)
    }

    @Test("a collage of three portraits side by side is Group Portraits (7)")
    func collage() throws {
        let a = try Self.astronaut()
        var out = [UInt8](repeating: 0, count: a.width * 3 * a.height * 3)
        for y in 0..<a.height {
            for copy in 0..<3 {
                let dst = (y * a.width * 3 + copy * a.width) * 3
                out.replaceSubrange(dst..<dst + a.width * 3, with: a.samples[(y * a.width * 3)..<((y + 1) * a.width * 3)])
            }
        }
        let analysis = try SceneAnalysis(image: try Self.buffer(a.width * 3, a.height, out))
        #expect(analysis.faces.count == 3)
        let d = SceneDetector.detect(analysis)
        #expect(d.label == .groupPortraits)
        #expect(d.confidence >= 0.5)
    }

    @Test("the portrait darkened by 2.5 EV in linear light is People at Night (9), judged by its face")
    func darkened() throws {
        let a = try Self.astronaut()
        let factor = pow(2, -2.5)
        let table = (0..<256).map { UInt8((Self.linearToSRGB(Self.sRGBToLinear(Double($0) / 255) * factor) * 255)
            .rounded()) }
        let analysis = try SceneAnalysis(image: try Self.buffer(a.width, a.height, a.samples.map { table[Int($0)] }))
        #expect(analysis.faces.count == 1)
        // The frame alone is not dark by the median rule: the face is what says "night".
        #expect(analysis.statistics.medianLuma >= SceneDetector.Threshold.darkMedianLuma)
        #expect(analysis.statistics.faceMeanLuma < SceneDetector.Threshold.darkFaceLuma)
        #expect(SceneDetector.detect(analysis).label == .peopleAtNight)
    }

    @Test("the portrait converted to grey is still Black & White (100), face or not")
    func grey() throws {
        let a = try Self.astronaut()
        var out = a.samples
        for i in stride(from: 0, to: out.count, by: 3) {
            let r = 0.2126 * Double(out[i]), g = 0.7152 * Double(out[i + 1]), b = 0.0722 * Double(out[i + 2])
            let y = UInt8((r + g + b).rounded())
            out[i] = y
            out[i + 1] = y
            out[i + 2] = y
        }
        let analysis = try SceneAnalysis(image: try Self.buffer(a.width, a.height, out))
        #expect(analysis.faces.count == 1)
        #expect(SceneDetector.detect(analysis).label == .blackAndWhite)
    }

    @Test("faces narrower than 4 % of the long side do not count; three that do make a group")
    func meaningfulSize() {
        var s = SceneStatistics()
        s.sourceWidth = 4000
        s.sourceHeight = 3000
        s.meanLuma = 0.45
        s.medianLuma = 0.45
        s.faceMeanLuma = 0.6
        s.chromaP99 = 0.5
        s.meanChroma = 0.1
        let tiny = (0..<5).map { FaceRegion(x: $0 * 200, y: 100, width: 120, height: 120, score: 1.5) }
        #expect(SceneDetector.detect(s, faces: tiny).label == .landscape)
        let big = (0..<3).map { FaceRegion(x: $0 * 800, y: 100, width: 200, height: 200, score: 1.2) }
        #expect(SceneDetector.detect(s, faces: big).label == .groupPortraits)
        #expect(SceneDetector.detect(s, faces: Array(big.prefix(2))).label == .people)
    }

    @Test("a dark frame with a well-lit face is people, not night; without faces it is night")
    func darkFrameBrightFace() {
        var s = SceneStatistics()
        s.sourceWidth = 1000
        s.sourceHeight = 1000
        s.meanLuma = 0.12
        s.medianLuma = 0.08
        s.chromaP99 = 0.5
        s.meanChroma = 0.1
        s.faceMeanLuma = 0.55
        let face = [FaceRegion(x: 400, y: 300, width: 200, height: 200, score: 1.4)]
        #expect(SceneDetector.detect(s, faces: face).label == .people)
        #expect(SceneDetector.detect(s).label == .peopleAtNight)
        s.faceMeanLuma = 0.2
        #expect(SceneDetector.detect(s, faces: face).label == .peopleAtNight)
    }
}
