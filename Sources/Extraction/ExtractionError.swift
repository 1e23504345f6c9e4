import ImageIO

/// Why a look could not be extracted from before/after pairs.
public enum ExtractionError: Error, Equatable, CustomStringConvertible {
    /// An image could not be read; the codec's error kept whole, so a front end can offer its remedy.
    case unreadable(file: String, cause: ImageIOError)
    /// An image's colour description could not be turned into a transform to the working space.
    case colorSpace(file: String, reason: String)
    /// The after image is the before image turned by a quarter or half turn.
    case rotated(before: String, after: String, degrees: Int)
    /// The after image is the before image mirrored.
    case flipped(before: String, after: String, axis: String)
    /// The after image shows only part of the before image (or the other way round).
    case cropped(before: String, after: String, detail: String)
    /// The after image is the whole before image resized to other proportions (stretched or squeezed).
    case stretched(before: String, after: String, detail: String)
    /// The two images do not show the same picture.
    case notSamePhoto(before: String, after: String, score: Double)
    /// The arguments do not form pairs, or a setting is out of range.
    case invalidInput(String)
    /// The look's size is outside what the fit accepts (a front end names its own option for it).
    case sizeOutOfRange(Int, allowed: ClosedRange<Int>)
    /// No pixel was left to fit (every pixel held out or weighted out).
    case nothingToFit

    /// What went wrong, naming the files, in words a user can act on.
    public var description: String {
        switch self {
        case .unreadable(let file, let cause): return "\(file): cannot read the image: \(cause.reason)"
        case .colorSpace(let file, let reason): return "\(file): cannot convert its colours: \(reason)"
        case .rotated(let b, let a, let degrees):
            return "\(a) is \(b) rotated by \(degrees)° — export the edit without rotating it (a look is a colour "
                + "change only), or rotate it back before extracting"
        case .flipped(let b, let a, let axis):
            return "\(a) is \(b) flipped \(axis) — export the edit without the flip before extracting"
        case .cropped(let b, let a, let detail):
            return "\(a) is a crop of \(b) (\(detail)) — export the edit uncropped, at the full frame, before "
                + "extracting"
        case .stretched(let b, let a, let detail):
            return "\(a) is \(b) resized to other proportions (\(detail)) — export the edit at the original's "
                + "proportions (any size) before extracting"
        case .notSamePhoto(let b, let a, let score):
            let threshold = String(format: "%.2f", PairGeometry.samePhotoThreshold)
            return "\(a) does not look like an edit of \(b) (structure match \(String(format: "%.2f", score)), "
                + "same photo is above \(threshold)) — check that the two files belong together"
        case .invalidInput(let message): return message
        case .sizeOutOfRange(let size, let allowed):
            return "size \(size) is outside \(allowed.lowerBound)…\(allowed.upperBound)"
        case .nothingToFit: return "no pixels left to fit: the pairs are too small or entirely masked"
        }
    }
}
