/// Errors from the cube model: sizes, value counts and parameters a caller got wrong.
public enum LookCoreError: Error, Equatable, CustomStringConvertible {
    case invalidSize(Int)
    case wrongValueCount(size: Int, expected: Int, found: Int)
    case nonFiniteValue
    case strengthOutOfRange(Float)
    case invalidDomain(min: Float, max: Float)
    case unsupportedChannelCount(Int)
    case bufferTooSmall(expected: Int, found: Int)
    case emptyLUT

    public var description: String {
        switch self {
        case .invalidSize(let n):
            return "cube size \(n) is not supported: sizes run from \(ColorCube.sizeRange.lowerBound) to "
                + "\(ColorCube.sizeRange.upperBound) entries per axis"
        case .wrongValueCount(let size, let expected, let found):
            return "a \(size)³ cube needs \(expected / 3) RGB entries (\(expected) numbers), found \(found) numbers"
        case .nonFiniteValue:
            return "cube values must be finite numbers (found NaN or infinity)"
        case .strengthOutOfRange(let s):
            // A Float factor printed as percent to 4 places, so 2.01 reads 201 and not 200.99999904632568.
            let percent = (Double(s) * 1e6).rounded() / 1e4
            return TextNumber.outOfRange("strength", percent, 0...200) + " (100 is the look as authored)"
        case .invalidDomain(let lo, let hi):
            return "input range \(lo)…\(hi) is empty or reversed: the minimum must be below the maximum"
        case .unsupportedChannelCount(let c):
            return "pixel buffers must have 3 (RGB) or 4 (RGBA) channels, not \(c)"
        case .bufferTooSmall(let expected, let found):
            return "pixel buffer holds \(found) samples but \(expected) were described"
        case .emptyLUT:
            return "the LUT has neither a 1D nor a 3D table"
        }
    }
}
