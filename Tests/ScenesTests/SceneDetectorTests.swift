import Foundation
import ImageIO
import Scenes
import Testing

@Suite struct SceneDetectorTests {
    /// An 8-bit RGB image whose pixel (x, y) is `colour(x, y)` in 0…255.
    static func image(width: Int = 200, height: Int = 150, _ colour: (Int, Int) -> (Int, Int, Int)) throws
        -> PixelBuffer {
        var s = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                let i = (y * width + x) * 3
                s[i] = UInt8(clamping: r)
                s[i + 1] = UInt8(clamping: g)
                s[i + 2] = UInt8(clamping: b)
            }
        }
        return try PixelBuffer(width: width, height: height, channels: 3, samples: .eight(s))
    }

    static func detect(_ image: PixelBuffer) throws -> SceneDetection {
        SceneDetector.detect(try SceneAnalysis(image: image))
    }

    @Test("a grey gradient with a little noise is black & white (100)")
    func blackAndWhite() throws {
        let d = try Self.detect(try Self.image { x, y in
            let v = (x + y) % 256, n = (x * 7 + y * 13) % 3 - 1
            return (v + n, v, v - n)
        })
        #expect(d.label == .blackAndWhite)
        #expect(d.statistics.chromaP99 <= SceneDetector.Threshold.monoChromaP99)
        #expect(d.confidence > 0.5)
    }

    @Test("a strongly blue-green scene is underwater (91)")
    func underwater() throws {
        let d = try Self.detect(try Self.image { x, y in (20 + x % 30, 110 + y % 60, 150 + (x + y) % 70) })
        #expect(d.label == .underwater)
        #expect(d.statistics.blueGreenFraction >= SceneDetector.Threshold.underwaterBlueGreenFraction)
    }

    @Test("a coloured product in the middle of a white frame is a white background (8)")
    func whiteBackground() throws {
        let d = try Self.detect(try Self.image { x, y in
            (60..<140).contains(x) && (45..<105).contains(y) ? (180, 40, 50) : (248, 247, 250)
        })
        #expect(d.label == .whiteBackgrounds)
        #expect(d.statistics.borderNearWhiteFraction > 0.9)
    }

    @Test("a dark scene with a few lights is low light (9)")
    func lowLight() throws {
        let d = try Self.detect(try Self.image { x, y in
            x % 50 == 0 && y % 40 == 0 ? (255, 220, 150) : (15 + x % 20, 12 + y % 15, 30)
        })
        #expect(d.label == .peopleAtNight)
        #expect(d.statistics.medianLuma < SceneDetector.Threshold.darkMedianLuma)
    }

    @Test("skin-coloured pixels without a face are not people: a wood-toned frame falls through to landscape")
    func skinIsNotPeople() throws {
        let d = try Self.detect(try Self.image { x, _ in x < 60 ? (224, 172, 140) : (90, 100, 95) })
        #expect(d.statistics.skinFraction > 0.2)
        #expect(d.label == .landscape)
    }

    @Test("green fields under a blue sky fall through to landscape (60) with low confidence")
    func landscapeDefault() throws {
        let d = try Self.detect(try Self.image { _, y in y < 60 ? (120, 170, 235) : (70, 140, 40) })
        #expect(d.label == .landscape)
        #expect(d.confidence < 0.5)
    }

    @Test("rules are tried in order: a grey image on white is black & white, not white background")
    func order() throws {
        let d = try Self.detect(try Self.image { x, _ in x < 30 ? (80, 80, 80) : (250, 250, 250) })
        #expect(d.label == .blackAndWhite)
    }

    @Test("the shipped camera.png (grey) is black & white")
    func shippedCamera() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let d = SceneDetector.detect(try SceneAnalysis(path: root + "/samples/camera.png"))
        #expect(d.label == .blackAndWhite)
        #expect(d.statistics.sourceWidth == 512)
    }
}
