/// The span of values 16-bit codes stand for: code `q` is `lower + (upper − lower)·q/65535`.
///
/// The catalog stores cubes as 16-bit PNGs. A cube within 0…1 is stored over 0…1, as every cube was before the
/// range was recorded, so those blobs and hashes are unchanged; a cube reaching beyond (an HDR or log-to-display
/// LUT) is stored over 0…1 widened to its own extremes, so nothing is clamped and the step is
/// `(upper − lower)/65535`.
public struct CodeRange: Sendable, Equatable {
    /// The value code 0 stands for (0 or below).
    public var lower: Double
    /// The value code 65535 stands for (1 or above).
    public var upper: Double

    /// 0…1.
    public static let unit = CodeRange(lower: 0, upper: 1)

    /// A range as recorded.
    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// 0…1, widened to take in the cube's smallest and largest value.
    public init(covering cube: ColorCube) {
        let reach = cube.valueRange
        self.init(lower: Swift.min(0, Double(reach.lowerBound)), upper: Swift.max(1, Double(reach.upperBound)))
    }

    /// True for 0…1.
    public var isUnit: Bool { lower == 0 && upper == 1 }

    /// Whether codes can be read over this range (a damaged record could hold anything).
    public var isUsable: Bool { lower.isFinite && upper.isFinite && upper > lower }

    /// The difference one code makes.
    public var step: Double { (upper - lower) / 65535 }

    /// The 16-bit code for `value`: mapped into 0…1 over the range (as a Float, as a cube image holds it),
    /// clamped, rounded to nearest — what `CubeImage.render` writes for the normalised value.
    @inline(__always)
    public func code(_ value: Float) -> UInt16 {
        UInt16((Swift.min(Swift.max(Double(normalised(value)), 0), 1) * 65535).rounded())
    }

    /// `value` mapped into 0…1 over the range, as a cube image of codes holds it.
    @inline(__always)
    public func normalised(_ value: Float) -> Float {
        isUnit ? value : Float((Double(value) - lower) / (upper - lower))
    }

    /// The value a decoded code fraction `u` (`Float(q) / 65535`, as a 16-bit cube image reads) stands for.
    @inline(__always)
    public func restored(_ u: Float) -> Float {
        isUnit ? u : Float(lower + (upper - lower) * Double(u))
    }
}
