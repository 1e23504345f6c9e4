import Foundation
import ImageIO
import LookCore

/// A disc on a photo as displayed (after its EXIF orientation), in the photo's own pixels: what `--neutral X,Y,R`
/// and `--grey-card CARD@X,Y,R` point at.
public struct NeutralPoint: Sendable, Equatable, Codable {
    /// Column and row of the centre, from the top-left corner.
    public var x: Int, y: Int
    /// Radius in pixels; nil: 1 % of the photo's long side (at least 4), read where the photo's size is known.
    public var radius: Int?

    /// A point from its coordinates.
    public init(x: Int, y: Int, radius: Int? = nil) {
        self.x = x
        self.y = y
        self.radius = radius
    }

    /// Reads `X,Y[,RADIUS]` (whole pixels); `flag` names the option in the message.
    public static func parse(_ text: String, flag: String) throws(CorrectionError) -> NeutralPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
            throw .neutral("\(flag) \(MessageText.quote(text)): expected X,Y or X,Y,RADIUS in whole pixels of the "
                           + "photo as displayed, e.g. 1200,800 or 1200,800,25")
        }
        let values = parts.compactMap { $0 }
        guard values[0] >= 0, values[1] >= 0 else {
            throw .neutral("\(flag) \(text): X and Y count from the top-left corner, so neither is negative")
        }
        if values.count == 3, values[2] < 1 {
            throw .neutral("\(flag) \(text): the radius is at least 1 pixel")
        }
        return NeutralPoint(x: values[0], y: values[1], radius: values.count == 3 ? values[2] : nil)
    }

    /// The radius used on a photo of this size.
    public func radius(width: Int, height: Int) -> Int { radius ?? max(4, max(width, height) / 100) }

    /// `X,Y,R` as a user types it.
    public func text(width: Int, height: Int) -> String { "\(x),\(y),\(radius(width: width, height: height))" }
}

/// A surface the user says is neutral, measured in linear light: the white balance that makes it grey, and, with a
/// target level, the exposure that brings it there. Either a point on the photo itself (`--neutral`) or a grey card
/// shot once for the whole shoot (`--grey-card`).
public struct NeutralReference: Sendable, Equatable, Codable {
    /// Where the reference came from.
    public enum Kind: String, Sendable, Codable {
        /// A point on the photo being corrected.
        case point
        /// A grey card on another photo of the shoot.
        case card
    }

    enum CodingKeys: String, CodingKey { case kind, file, x, y, radius, found, measured, target }

    /// Point or card.
    public var kind: Kind
    /// The card's photo (nil for a point).
    @NullEncoded public var file: String? = nil
    /// The region's centre and radius, in pixels of its photo as displayed (for a found card: its centroid and the
    /// radius of a disc of its area).
    public var x: Int, y: Int, radius: Int
    /// True when the card was found by looking for it rather than pointed at.
    public var found = false
    /// The region's mean colour, linear sRGB.
    public var measured: SIMD3<Double>
    /// Linear luminance the region is brought to (`--grey-level`); nil keeps its luminance.
    @NullEncoded public var target: Double? = nil

    /// A reference measured at `region` (centre and radius in its photo's pixels).
    public init(kind: Kind, file: String? = nil, x: Int, y: Int, radius: Int, found: Bool = false,
                measured: SIMD3<Double>, target: Double? = nil) {
        self.kind = kind
        self.file = file
        self.x = x
        self.y = y
        self.radius = radius
        self.found = found
        self.measured = measured
        self.target = target
    }

    /// Channel gains that turn `colour` (the region as the photo's other stages leave it) grey at `target`, or at
    /// its own luminance: scaling the channels so they meet at the luminance keeps the region's brightness, so the
    /// reference changes only colour unless a level is asked for.
    public func gains(for colour: SIMD3<Double>) -> SIMD3<Double> {
        let level = target ?? ColorScience.luma(colour)
        return SIMD3(repeating: level) / colour
    }

    /// Nil when a grey under some light could have the measured colour, else a warning: a region far from every such
    /// colour is more likely a coloured surface pointed at by mistake, and its gains would paint the photo.
    public var implausibility: String? {
        let m = LogChroma(measured)
        let distance = GreyCardFinder.distanceToLocus(m)
        guard distance > GreyCardFinder.locusDistance else { return nil }
        return String(format: "the %@ at %d,%d,%d measures log(R/G, B/G) (%+.2f, %+.2f), %.2f from any colour a grey "
                      + "takes under daylight or lamplight: if it is not neutral, the gains (%.2f, %.2f, %.2f) will "
                      + "colour the photo", kind == .card ? "grey card" : "neutral region", x, y, radius, m.red, m.blue,
                      distance, gains(for: measured).x, gains(for: measured).y, gains(for: measured).z)
    }

    /// Describes the reference for `--explain`.
    public var summary: String {
        let m = LogChroma(measured)
        let place = kind == .card
            ? "grey card \(MessageText.quote(file ?? "")) \(found ? "found " : "")at \(x),\(y),\(radius)"
            : "neutral at \(x),\(y),\(radius)"
        return place + String(format: " measured log(R/G, B/G) (%+.3f, %+.3f), level %.3f", m.red, m.blue,
                     ColorScience.luma(measured))
            + (target.map { String(format: " → level %.3f", $0) } ?? "")
    }
}

/// Reading a neutral reference off a photo's analysed copy (8-bit sRGB, `SceneAnalysis.preview`).
public enum NeutralMeasure {
    /// A pixel with a channel at or above this code is clipped: its colour is not the surface's.
    static let clippedCode: UInt8 = 254
    /// A region with more clipped pixels than this share is refused.
    static let clippedShareLimit = 0.02
    /// Below this linear luminance (about code 10) JPEG noise and the black point dominate the colour.
    static let darkLimit = 0.003

    /// The mean linear colour in the disc `point` (in pixels of a `sourceWidth × sourceHeight` photo) of `preview`.
    /// `what` names the photo in messages.
    public static func measure(_ point: NeutralPoint, in preview: PixelBuffer, sourceWidth: Int, sourceHeight: Int,
                               what: String) throws(CorrectionError) -> SIMD3<Double> {
        let radius = point.radius(width: sourceWidth, height: sourceHeight)
        guard point.x < sourceWidth, point.y < sourceHeight else {
            throw .neutral("\(what): the point \(point.x),\(point.y) is outside the photo, which is \(sourceWidth) × "
                           + "\(sourceHeight) pixels as displayed (X counts columns from the left, Y rows from the top)")
        }
        let sx = Double(preview.width) / Double(max(1, sourceWidth))
        let sy = Double(preview.height) / Double(max(1, sourceHeight))
        // At least one preview pixel around the centre, so a small radius on a large photo still reads a 3 × 3 disc.
        let r = max(1.5, Double(radius) * min(sx, sy))
        let cx = (Double(point.x) + 0.5) * sx, cy = (Double(point.y) + 0.5) * sy
        var indices = [Int]()
        for y in max(0, Int(cy - r))...min(preview.height - 1, Int(cy + r)) {
            for x in max(0, Int(cx - r))...min(preview.width - 1, Int(cx + r)) {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                if dx * dx + dy * dy <= r * r { indices.append(y * preview.width + x) }
            }
        }
        return try mean(of: indices, in: preview, what: "\(what): the region \(point.text(width: sourceWidth, height: sourceHeight))")
    }

    /// The mean linear colour of the pixels at `indices`, refused when too many are clipped or it is too dark.
    static func mean(of indices: [Int], in preview: PixelBuffer, what: String) throws(CorrectionError)
        -> SIMD3<Double> {
        guard case .eight(let bytes) = preview.samples, preview.channels >= 3, !indices.isEmpty else {
            throw .neutral("\(what) holds no pixels to measure")
        }
        let c = preview.channels
        var sum = SIMD3<Double>(), used = 0, clipped = 0
        for i in indices {
            let p = SIMD3(bytes[i * c], bytes[i * c + 1], bytes[i * c + 2])
            if p.max() >= clippedCode {
                clipped += 1
                continue
            }
            sum += SIMD3(ColorScience.linear(fromSRGB: Double(p.x) / 255),
                         ColorScience.linear(fromSRGB: Double(p.y) / 255),
                         ColorScience.linear(fromSRGB: Double(p.z) / 255))
            used += 1
        }
        let share = Double(clipped) / Double(indices.count)
        if share > clippedShareLimit {
            throw .neutral(String(format: "%@ is clipped (%.0f %% of its pixels at white in a channel): its colour "
                                  + "there is the sensor's limit, not the surface's; point at a darker neutral part",
                                  what, 100 * share))
        }
        let mean = sum / Double(max(1, used))
        if ColorScience.luma(mean) < darkLimit || mean.min() <= 0 {
            throw .neutral("\(what) is too dark to read its colour (mean level "
                           + String(format: "%.4f", ColorScience.luma(mean)) + " linear); point at a lighter neutral part")
        }
        return mean
    }
}
