import Correction
import Foundation
import ImageIO
import LookCore
import LookModel
import Testing

/// `--neutral` and `--grey-card` in the engine: a region the user says is neutral comes out grey, the rest of the
/// photo follows, and what cannot be measured is refused by name.
struct NeutralReferenceTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    /// A sample photo as 8-bit RGB (a grey-level file has its one channel repeated).
    static func sample(_ name: String) throws -> PixelBuffer {
        let image = try ImageFormat.read(path: samples.appendingPathComponent(name).path).pixels
        guard case .eight(let b) = image.samples, image.channels != 3 else { return image }
        let rgb = (0..<(image.width * image.height)).flatMap { i in
            Array(repeating: b[i * image.channels], count: 3)
        }
        return try PixelBuffer(width: image.width, height: image.height, channels: 3, samples: .eight(rgb))
    }

    /// Casts of the simulator's families, each scaled to keep a grey's luminance (so only colour changes): warm
    /// ≈ 3200 K, cool ≈ 9000 K, green and magenta tints, and a strong warm ≈ 2800 K.
    static let casts: [SIMD3<Double>] = [SIMD3(1.35, 1, 0.62), SIMD3(0.82, 1, 1.3), SIMD3(0.85, 1, 0.85),
                                        SIMD3(1.2, 0.88, 1.2), SIMD3(1.6, 1, 0.45)]
        .map { $0 / ColorScience.luma($0) }

    /// Mean 8-bit code of each channel in the rectangle `x0..<x1 × y0..<y1`.
    static func meanCodes(_ image: PixelBuffer, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> SIMD3<Double> {
        guard case .eight(let b) = image.samples else { return .zero }
        var sum = SIMD3<Double>()
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = (y * image.width + x) * 3
                sum += SIMD3(Double(b[i]), Double(b[i + 1]), Double(b[i + 2]))
            }
        }
        return sum / Double((x1 - x0) * (y1 - y0))
    }

    /// Largest difference between two channels' means: 0 for a neutral region.
    static func spread(_ codes: SIMD3<Double>) -> Double { codes.max() - codes.min() }

    /// Plans with a point reference on the image itself and applies the plan's cube.
    static func correct(_ image: PixelBuffer, at point: NeutralPoint, target: Double? = nil,
                        settings: CorrectionPreset = CorrectionPreset()) throws -> (PixelBuffer, AutoCorrection) {
        let measured = try NeutralMeasure.measure(point, in: image, sourceWidth: image.width,
                                                  sourceHeight: image.height, what: "test")
        let reference = NeutralReference(kind: .point, x: point.x, y: point.y,
                                         radius: point.radius(width: image.width, height: image.height),
                                         measured: measured, target: target)
        let plan = try AutoCorrection.plan(Scenes.analysis(image), settings: settings, neutral: reference)
        return (try Scenes.apply(try plan.cube(), to: image), plan)
    }

    @Test("a grey patch under each simulated cast comes out neutral within 1 code and the image within 1 dE00")
    func greyPatchUnderCasts() throws {
        // The still life's backdrop reaches 0.9 linear; at 0.7 of it no cast below clips a channel.
        let scene = Scenes.stillLife().map { $0 * 0.7 }
        let original = Scenes.encode(scene)
        for gains in Self.casts {
            let cast = Scenes.encode(Scenes.cast(scene, gains))
            let (out, plan) = try Self.correct(cast, at: NeutralPoint(x: 96, y: 52, radius: 12))
            let card = Self.meanCodes(out, 70, 122, 30, 74)
            #expect(Self.spread(card) <= 1, "cast \(gains): card \(card); \(plan.explanation.joined(separator: "\n"))")
            let d = Scenes.meanDeltaE(original, out)
            #expect(d <= 1.0, "cast \(gains): \(d) dE00 from the original")
        }
    }

    @Test("a grey level sets exposure too: an under-exposed, warm card brought to 18 % matches the original")
    func greyLevelSetsExposure() throws {
        let scene = Scenes.stillLife().map { $0 * 0.7 }
        let original = Scenes.encode(scene)
        // The card is 0.18 × 0.7 linear in the original; 1.2 stops under and warm.
        let cast = Scenes.encode(Scenes.cast(scene, Self.casts[0] * 0.45))
        let (out, plan) = try Self.correct(cast, at: NeutralPoint(x: 96, y: 52, radius: 12), target: 0.18 * 0.7)
        let card = Self.meanCodes(out, 70, 122, 30, 74)
        #expect(Self.spread(card) <= 1, "card \(card)")
        #expect(abs(card.y - 255 * ColorScience.srgb(fromLinear: 0.126)) <= 1.5, "card \(card)")
        #expect(plan.exposure.stops == 0, "the level is the reference's; the model's exposure is not added")
        let d = Scenes.meanDeltaE(original, out)
        #expect(d <= 1.0, "\(d) dE00 from the original")
    }

    @Test("a real grey-level photograph under casts: points on its sky and grass come out neutral within 1 code")
    func realPhotoNeutral() throws {
        // samples/camera.png is a black-and-white photograph: every region of it is neutral (R = G = B), which is
        // how we know. The points are on the bright sky and on the mid-grey grass.
        let photo = try Self.sample("camera.png")
        let linear = Scenes.decode(photo)
        for (x, y) in [(60, 60), (420, 380)] {
            for gains in Self.casts {
                let cast = Scenes.encode(linear.map { $0 * gains * 0.9 }, width: photo.width, height: photo.height)
                let (out, plan) = try Self.correct(cast, at: NeutralPoint(x: x, y: y, radius: 8))
                let region = Self.meanCodes(out, x - 5, x + 6, y - 5, y + 6)
                #expect(Self.spread(region) <= 1,
                        "(\(x), \(y)) cast \(gains): \(region); \(plan.explanation.joined(separator: "\n"))")
            }
        }
    }

    @Test("a grey card found on one photo of a shoot corrects another photo of it within 1 dE00")
    func cardFoundAndApplied() throws {
        // A real colour photograph (scikit-image's coffee, CC0) with an 18 % card held in front of its left part.
        let photo = try Self.sample("coffee.png")
        let linear = Scenes.decode(photo).map { $0 * 0.8 }
        var withCard = linear
        for y in 120..<260 {
            for x in 40..<200 { withCard[y * photo.width + x] = SIMD3(repeating: 0.18) }
        }
        let (w, h) = (photo.width, photo.height)
        for gains in Self.casts {
            let card = Scenes.encode(withCard.map { $0 * gains }, width: w, height: h)
            let (point, measured) = try GreyCardFinder.find(in: card, sourceWidth: w, sourceHeight: h, what: "card.png")
            #expect(abs(point.x - 120) < 20 && abs(point.y - 190) < 20, "found at \(point)")
            let reference = NeutralReference(kind: .card, file: "card.png", x: point.x, y: point.y, radius: 10,
                                             found: true, measured: measured)
            let shot = Scenes.encode(linear.map { $0 * gains }, width: w, height: h)
            let plan = try AutoCorrection.plan(Scenes.analysis(shot), neutral: reference)
            let out = try Scenes.apply(try plan.cube(), to: shot)
            let d = Scenes.meanDeltaE(Scenes.encode(linear, width: w, height: h), out)
            #expect(d <= 1.0, "cast \(gains): \(d) dE00 from the original")
        }
    }

    @Test("no card, a clipped card, a point off the photo and a clipped or black point are refused by name")
    func refusals() throws {
        // Colour noise: no uniform region at all.
        var state: UInt64 = 12345
        let noise = (0..<(160 * 120)).map { _ in
            SIMD3<Double>((0..<3).map { _ -> Double in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 40) / Double(1 << 24)
            })
        }
        let noisy = Scenes.encode(noise, width: 160, height: 120)
        #expect(throws: CorrectionError.self) {
            try GreyCardFinder.find(in: noisy, sourceWidth: 160, sourceHeight: 120, what: "card.jpg")
        }
        do {
            _ = try GreyCardFinder.find(in: noisy, sourceWidth: 160, sourceHeight: 120, what: "card.jpg")
        } catch {
            #expect(error.description.contains("no grey card found") && error.description.contains("card.jpg@X,Y"))
        }
        // A white card blown out on a mid-grey-green scene.
        var blown = noise.map { $0 * 0.3 }
        for y in 20..<100 { for x in 30..<130 { blown[y * 160 + x] = SIMD3(repeating: 1.5) } }
        do {
            _ = try GreyCardFinder.find(in: Scenes.encode(blown, width: 160, height: 120), sourceWidth: 160,
                                        sourceHeight: 120, what: "card.jpg")
            Issue.record("a clipped card was accepted")
        } catch {
            #expect(error.description.contains("clipped"), "\(error)")
        }
        // Black on the left half, white on the right.
        let scene = Scenes.encode((0..<(192 * 128)).map { SIMD3(repeating: $0 % 192 < 96 ? 0.001 : 1.2) })
        func refusal(_ point: NeutralPoint) -> String {
            do {
                _ = try NeutralMeasure.measure(point, in: scene, sourceWidth: scene.width, sourceHeight: scene.height,
                                               what: "photo.jpg")
                return ""
            } catch {
                return error.description
            }
        }
        #expect(refusal(NeutralPoint(x: 500, y: 10)).contains("outside the photo, which is 192 × 128"))
        #expect(refusal(NeutralPoint(x: 191, y: 2, radius: 3)).contains("is clipped"))
        #expect(refusal(NeutralPoint(x: 0, y: 2, radius: 2)).contains("too dark"))
    }

    @Test("X,Y[,RADIUS] is read; anything else is refused with an example")
    func parsing() throws {
        #expect(try NeutralPoint.parse("12,34", flag: "--neutral") == NeutralPoint(x: 12, y: 34))
        #expect(try NeutralPoint.parse(" 12, 34 ,5", flag: "--neutral") == NeutralPoint(x: 12, y: 34, radius: 5))
        for bad in ["12", "12,x", "1,2,3,4", "-1,2", "1,2,0", ""] {
            #expect(throws: CorrectionError.self, "\(bad)") { try NeutralPoint.parse(bad, flag: "--neutral") }
        }
        #expect(NeutralPoint(x: 1, y: 1).radius(width: 6000, height: 4000) == 60)
    }

    @Test("the illuminant locus passes through D65 (neutral) and runs warm below it, cool above")
    func locus() {
        #expect(GreyCardFinder.distanceToLocus(.neutral) < 0.03)
        #expect(GreyCardFinder.distanceToLocus(LogChroma(red: 0.3, blue: -0.5)) < 0.15)
        #expect(GreyCardFinder.distanceToLocus(LogChroma(red: -0.6, blue: -0.9)) > 0.4, "grass green is no grey")
    }
}
