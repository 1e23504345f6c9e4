import Foundation
import Testing
@testable import Extraction

@Suite struct PairGeometryTests {
    static func edited(_ name: String) throws -> (PairImage, PairImage) {
        let before = try ExtractionFixtures.photo(name)
        return (before, ExtractionFixtures.applied(try ExtractionFixtures.creativeLook(), to: before))
    }

    static func refusal(_ before: PairImage, _ after: PairImage) -> ExtractionError? {
        do {
            _ = try PairGeometry.aligned(before: before, after: after, beforeName: "b.png", afterName: "a.png")
            return nil
        } catch {
            return error
        }
    }

    static func transformed(_ image: PairImage, _ map: (Int, Int) -> (Int, Int), width: Int, height: Int)
        -> PairImage {
        var out = [Float](repeating: 0, count: 3 * width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = map(x, y)
                for c in 0..<3 { out[3 * (y * width + x) + c] = image.rgb[3 * (sy * image.width + sx) + c] }
            }
        }
        return try! PairImage(width: width, height: height, rgb: out)
    }

    @Test func anEditedPairOfTheSameFrameIsAccepted() throws {
        let (b, a) = try Self.edited("chelsea")
        #expect(Self.refusal(b, a) == nil)
    }

    @Test func aLargerAfterImageOfTheSameAspectIsBoxResizedToTheSmaller() throws {
        let (b, a) = try Self.edited("coffee")
        let big = a.boxResized(width: 2 * a.width, height: 2 * a.height)
        let pair = try PairGeometry.aligned(before: b, after: big, beforeName: "b", afterName: "a")
        #expect(pair.after.width == b.width && pair.after.height == b.height)
        let largest = zip(pair.after.rgb, a.rgb).map { abs($0 - $1) }.max()!
        #expect(largest < 1e-5)
    }

    @Test func aCropIsRefusedAsACrop() throws {
        let (b, a) = try Self.edited("coffee")
        let w = a.width * 3 / 4, h = a.height * 3 / 4
        let crop = Self.transformed(a, { ($0 + a.width / 8, $1 + a.height / 8) }, width: w, height: h)
            .boxResized(width: a.width, height: a.height)
        guard case .cropped = Self.refusal(b, crop) else {
            Issue.record("expected a crop refusal, got \(String(describing: Self.refusal(b, crop)))")
            return
        }
        // A crop to another aspect is refused as a crop too.
        let strip = Self.transformed(a, { ($0, $1 + a.height / 4) }, width: a.width, height: a.height / 2)
        guard case .cropped = Self.refusal(b, strip) else {
            Issue.record("expected a crop refusal, got \(String(describing: Self.refusal(b, strip)))")
            return
        }
    }

    @Test func quarterAndHalfTurnsAreRefusedWithTheirAngle() throws {
        let (b, a) = try Self.edited("coffee")
        let clockwise = Self.transformed(a, { x, y in (y, a.height - 1 - x) }, width: a.height, height: a.width)
        #expect(Self.refusal(b, clockwise) == .rotated(before: "b.png", after: "a.png", degrees: 90))
        let counter = Self.transformed(a, { x, y in (a.width - 1 - y, x) }, width: a.height, height: a.width)
        #expect(Self.refusal(b, counter) == .rotated(before: "b.png", after: "a.png", degrees: 270))
        let half = Self.transformed(a, { x, y in (a.width - 1 - x, a.height - 1 - y) }, width: a.width,
                                    height: a.height)
        #expect(Self.refusal(b, half) == .rotated(before: "b.png", after: "a.png", degrees: 180))
        #expect(Self.refusal(b, half)!.description.contains("rotated by 180°"))
    }

    @Test func mirrorsAreRefusedNamingTheAxis() throws {
        let (b, a) = try Self.edited("chelsea")
        let h = Self.transformed(a, { x, y in (a.width - 1 - x, y) }, width: a.width, height: a.height)
        #expect(Self.refusal(b, h) == .flipped(before: "b.png", after: "a.png", axis: "horizontally"))
        let v = Self.transformed(a, { x, y in (x, a.height - 1 - y) }, width: a.width, height: a.height)
        #expect(Self.refusal(b, v) == .flipped(before: "b.png", after: "a.png", axis: "vertically"))
    }

    @Test func aDifferentPhotoIsRefused() throws {
        let (b, _) = try Self.edited("chelsea")
        let other = try ExtractionFixtures.photo("coffee").boxResized(width: b.width, height: b.height)
        let refusal = Self.refusal(b, other)
        guard case .notSamePhoto = refusal else {
            Issue.record("expected not-the-same-photo, got \(String(describing: refusal))")
            return
        }
        #expect(refusal!.description.contains("does not look like an edit of b.png"))
    }

    @Test func theWholeFrameResizedToOtherProportionsIsNamedAsSuchNotAsACrop() throws {
        let (b, a) = try Self.edited("chelsea")
        for height in [b.height * 98 / 100, b.height * 2 / 3] {
            let squeezed = a.boxResized(width: a.width, height: height)
            guard case .stretched(_, _, let detail) = Self.refusal(b, squeezed) else {
                let got = String(describing: Self.refusal(b, squeezed))
                Issue.record("height \(height): expected a proportions refusal, got \(got)")
                continue
            }
            #expect(detail.hasPrefix("\(b.width)×\(b.height) → \(b.width)×\(height)"))
        }
        // A real crop to another aspect is still a crop.
        let strip = Self.transformed(a, { ($0, $1 + a.height / 4) }, width: a.width, height: a.height / 2)
        guard case .cropped = Self.refusal(b, strip) else {
            Issue.record("expected a crop refusal, got \(String(describing: Self.refusal(b, strip)))")
            return
        }
    }

    @Test func picturesWithNoEdgesToCompareAreTakenAsThePairGiven() throws {
        let one = try PairImage(width: 1, height: 1, rgb: [0.2, 0.4, 0.6])
        let edited = try PairImage(width: 1, height: 1, rgb: [0.3, 0.4, 0.5])
        #expect(Self.refusal(one, edited) == nil)
        let flat = try PairImage(width: 40, height: 30, rgb: [Float](repeating: 0.5, count: 3 * 40 * 30))
        let flatEdit = try PairImage(width: 80, height: 60, rgb: [Float](repeating: 0.6, count: 3 * 80 * 60))
        let pair = try PairGeometry.aligned(before: flat, after: flatEdit, beforeName: "b", afterName: "a")
        #expect(pair.after.width == 40 && pair.after.height == 30)
        // A flat before image against a photo is still no pair.
        let (photo, _) = try Self.edited("chelsea")
        let grey = try PairImage(width: photo.width, height: photo.height,
                                 rgb: [Float](repeating: 0.5, count: photo.rgb.count))
        guard case .notSamePhoto = Self.refusal(grey, photo) else {
            Issue.record("expected a different-photo refusal, got \(String(describing: Self.refusal(grey, photo)))")
            return
        }
    }
}
