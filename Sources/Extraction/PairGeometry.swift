import Foundation

/// Checks that an after image is the before image with colours changed only, and brings the two to one size.
///
/// Structure is compared on small luma thumbnails through their gradient magnitude: a colour look changes tones
/// but keeps edges where they are, so the edge maps of a true pair correlate strongly whatever the look, while a
/// turned, mirrored, cropped or different photo puts its edges elsewhere.
public enum PairGeometry {
    /// Correlation of edge maps above which two thumbnails show the same picture. Measured on generated pairs, a
    /// strong look plus JPEG q85 keeps a true pair above 0.8 and unrelated photos stay below 0.3; 0.5 sits between.
    public static let samePhotoThreshold = 0.5
    /// Thumbnail width for the comparisons: enough for edges of a photo's main shapes, small enough that the crop
    /// search (every scale and offset) costs milliseconds.
    static let thumbWidth = 64
    /// Aspect ratios this close (relative) are the same: a 1-pixel rounding difference after an editor's resize.
    static let aspectTolerance = 0.01
    /// How much better a transformed match must score than the untransformed one to be called that transform.
    static let margin = 0.1

    /// Returns the pair at one size (the larger resized to the smaller with a box filter) or refuses it with the
    /// geometric change found: rotation, flip, crop, or no match at all.
    public static func aligned(before fullBefore: PairImage, after fullAfter: PairImage, beforeName: String,
                               afterName: String) throws(ExtractionError) -> (before: PairImage, after: PairImage) {
        // Every comparison works on thumbnails; shrinking each image once to a few times their width keeps the
        // crop search from re-reading 12 MP sixteen times (1.6 s of a 12 MP extraction before this).
        let before = workingCopy(fullBefore), after = workingCopy(fullAfter)
        let aspectB = Double(before.width) / Double(before.height)
        let aspectA = Double(after.width) / Double(after.height)
        let thumbB = thumbnail(before)
        let sameAspect = abs(aspectB / aspectA - 1) <= aspectTolerance
        // Two pictures with no edges to compare (a few pixels, or one flat colour each) cannot be told turned,
        // cropped or another photo; with the same proportions they are taken as the pair they were given as.
        if sameAspect && !hasStructure(thumbB) && !hasStructure(thumbnail(after)) {
            return resizedToSmaller(before: fullBefore, after: fullAfter)
        }
        if !sameAspect {
            if abs(aspectB * aspectA - 1) <= aspectTolerance {
                // A quarter turn swaps the sides: turn the after thumbnail back both ways and see which fits.
                let thumbA = Thumb(after.boxResized(width: thumbB.height, height: thumbB.width))
                let cw = correlation(thumbB.edges, thumbA.rotated90(clockwise: false).edges)
                let ccw = correlation(thumbB.edges, thumbA.rotated90(clockwise: true).edges)
                if max(cw, ccw) >= samePhotoThreshold {
                    throw .rotated(before: beforeName, after: afterName, degrees: cw >= ccw ? 90 : 270)
                }
            }
            // The whole frame resized to other proportions keeps every edge, only moved a little: compare the
            // after image squeezed back onto the before image's thumbnail.
            let stretched = correlation(thumbB.edges,
                                        Thumb(after.boxResized(width: thumbB.width, height: thumbB.height)).edges)
            if let crop = cropMatch(before: before, after: after,
                                    beating: max(samePhotoThreshold, stretched + margin)) {
                throw .cropped(before: beforeName, after: afterName, detail: crop)
            }
            if stretched >= samePhotoThreshold {
                let sx = Double(fullAfter.width) / Double(fullBefore.width)
                let sy = Double(fullAfter.height) / Double(fullBefore.height)
                throw .stretched(before: beforeName, after: afterName, detail: String(
                    format: "%d×%d → %d×%d: width × %.3f, height × %.3f", fullBefore.width, fullBefore.height,
                    fullAfter.width, fullAfter.height, sx, sy))
            }
            throw .notSamePhoto(before: beforeName, after: afterName, score: max(0, stretched))
        }
        let thumbA = Thumb(after.boxResized(width: thumbB.width, height: thumbB.height))
        let straight = correlation(thumbB.edges, thumbA.edges)
        var candidates: [(score: Double, error: ExtractionError)] = [
            (correlation(thumbB.edges, thumbA.rotated180.edges), .rotated(before: beforeName, after: afterName,
                                                                          degrees: 180)),
            (correlation(thumbB.edges, thumbA.mirrored(horizontally: true).edges),
             .flipped(before: beforeName, after: afterName, axis: "horizontally")),
            (correlation(thumbB.edges, thumbA.mirrored(horizontally: false).edges),
             .flipped(before: beforeName, after: afterName, axis: "vertically")),
        ]
        if thumbB.width == thumbB.height {
            candidates.append((correlation(thumbB.edges, thumbA.rotated90(clockwise: false).edges),
                               .rotated(before: beforeName, after: afterName, degrees: 90)))
            candidates.append((correlation(thumbB.edges, thumbA.rotated90(clockwise: true).edges),
                               .rotated(before: beforeName, after: afterName, degrees: 270)))
        }
        if let best = candidates.max(by: { $0.score < $1.score }),
           best.score >= samePhotoThreshold, best.score > straight + margin {
            throw best.error
        }
        if let crop = cropMatch(before: before, after: after, beating: max(samePhotoThreshold, straight + margin)) {
            throw .cropped(before: beforeName, after: afterName, detail: crop)
        }
        guard straight >= samePhotoThreshold else {
            throw .notSamePhoto(before: beforeName, after: afterName, score: straight)
        }
        return resizedToSmaller(before: fullBefore, after: fullAfter)
    }

    /// The pair at one size: the image with more pixels box-resized to the other's size.
    static func resizedToSmaller(before: PairImage, after: PairImage) -> (before: PairImage, after: PairImage) {
        if after.width * after.height > before.width * before.height {
            return (before, after.boxResized(width: before.width, height: before.height))
        }
        return (before.boxResized(width: after.width, height: after.height), after)
    }

    /// Whether a thumbnail has edges to compare: at least 3 × 3 pixels and an edge map that is not flat.
    static func hasStructure(_ thumb: Thumb) -> Bool {
        guard thumb.width >= 3, thumb.height >= 3 else { return false }
        let edges = thumb.edges
        guard let low = edges.min(), let high = edges.max() else { return false }
        return high - low > 1e-4
    }

    /// The image at most four thumbnails wide, for the structure comparisons.
    static func workingCopy(_ image: PairImage) -> PairImage {
        let w = min(image.width, 4 * thumbWidth)
        return image.boxResized(width: w, height: max(1, Int((Double(image.height) * Double(w)
                                                                / Double(image.width)).rounded())))
    }

    /// Whether `after` matches a window of `before` (or `before` a window of `after`) at 50–97 % of its size
    /// better than `beating`; returns a description of the crop when it does.
    static func cropMatch(before: PairImage, after: PairImage, beating: Double = samePhotoThreshold) -> String? {
        if let scale = windowMatch(whole: before, part: after, beating: beating) {
            return "the edit shows about \(Int((scale * 100).rounded())) % of the original's width"
        }
        if let scale = windowMatch(whole: after, part: before, beating: beating) {
            return "the original shows about \(Int((scale * 100).rounded())) % of the edit's width"
        }
        return nil
    }

    /// The window scale at which `part`'s edges best match a window of `whole`'s, if better than `beating`.
    private static func windowMatch(whole: PairImage, part: PairImage, beating: Double) -> Double? {
        let big = thumbnail(whole)
        let aspect = Double(part.width) / Double(part.height)
        // The largest window of `part`'s aspect that fits in `whole`'s thumbnail.
        var fullW = Double(big.width), fullH = fullW / aspect
        if fullH > Double(big.height) { (fullH, fullW) = (Double(big.height), Double(big.height) * aspect) }
        var best: (score: Double, scale: Double)?
        for step in stride(from: 0.97, through: 0.5, by: -0.03) {
            let w = Int((fullW * step).rounded()), h = Int((fullH * step).rounded())
            guard w >= 12, h >= 12, w <= big.width, h <= big.height else { continue }
            let small = Thumb(part.boxResized(width: w, height: h))
            for oy in 0...(big.height - h) {
                for ox in 0...(big.width - w) {
                    let score = correlation(big.edges, stride: big.width, ox: ox, oy: oy, small.edges, w, h)
                    if score > (best?.score ?? beating) { best = (score, Double(w) / Double(big.width)) }
                }
            }
        }
        return best.map { $0.scale }
    }

    static func thumbnail(_ image: PairImage) -> Thumb {
        let w = min(thumbWidth, image.width)
        let h = max(1, Int((Double(image.height) * Double(w) / Double(image.width)).rounded()))
        return Thumb(image.boxResized(width: w, height: h))
    }

    /// Pearson correlation of two equally sized maps.
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
        for i in a.indices {
            let x = Double(a[i]), y = Double(b[i])
            sa += x; sb += y; saa += x * x; sbb += y * y; sab += x * y
        }
        let n = Double(a.count)
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n
        guard va > 1e-12, vb > 1e-12 else { return 0 }
        return (sab - sa * sb / n) / (va * vb).squareRoot()
    }

    /// Correlation of the `w`×`h` window of `big` at (ox, oy) with `small`.
    static func correlation(_ big: [Float], stride: Int, ox: Int, oy: Int, _ small: [Float], _ w: Int, _ h: Int)
        -> Double {
        var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let p = Double(big[(oy + y) * stride + ox + x]), q = Double(small[y * w + x])
                sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q
            }
        }
        let n = Double(w * h)
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n
        guard va > 1e-12, vb > 1e-12 else { return 0 }
        return (sab - sa * sb / n) / (va * vb).squareRoot()
    }
}

/// A luma thumbnail and its gradient-magnitude (edge) map.
struct Thumb {
    let width: Int
    let height: Int
    let luma: [Float]

    init(_ image: PairImage) {
        self.init(width: image.width, height: image.height, luma: image.luma)
    }

    init(width: Int, height: Int, luma: [Float]) {
        self.width = width
        self.height = height
        self.luma = luma
    }

    /// Central-difference gradient magnitude (one-sided at the borders).
    var edges: [Float] {
        var out = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let l = luma[y * width + max(x - 1, 0)], r = luma[y * width + min(x + 1, width - 1)]
                let u = luma[max(y - 1, 0) * width + x], d = luma[min(y + 1, height - 1) * width + x]
                out[y * width + x] = ((r - l) * (r - l) + (d - u) * (d - u)).squareRoot()
            }
        }
        return out
    }

    var rotated180: Thumb { Thumb(width: width, height: height, luma: luma.reversed()) }

    func mirrored(horizontally: Bool) -> Thumb {
        var out = luma
        for y in 0..<height {
            for x in 0..<width {
                out[y * width + x] = horizontally ? luma[y * width + width - 1 - x] : luma[(height - 1 - y) * width + x]
            }
        }
        return Thumb(width: width, height: height, luma: out)
    }

    /// The thumbnail turned a quarter: clockwise maps stored (x, y) to (height − 1 − y, x).
    func rotated90(clockwise: Bool) -> Thumb {
        let w = height, h = width
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny) = clockwise ? (height - 1 - y, x) : (y, width - 1 - x)
                out[ny * w + nx] = luma[y * width + x]
            }
        }
        return Thumb(width: w, height: h, luma: out)
    }
}
