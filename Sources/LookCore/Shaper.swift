/// A per-channel 1D table (the "shaper" of a Resolve `.cube`), applied before a 3D cube.
///
/// The input `x` of channel `c` is looked up at `(x − inputMin[c]) / (inputMax[c] − inputMin[c])` of the table,
/// clamped to its ends, and interpolated linearly between entries.
public struct Shaper: Sendable, Equatable, Hashable {
    /// Number of entries.
    public let size: Int
    /// `3·size` floats, RGB interleaved.
    public let values: [Float]
    /// Input value that maps to the first entry, per channel.
    public let inputMin: SIMD3<Float>
    /// Input value that maps to the last entry, per channel.
    public let inputMax: SIMD3<Float>

    /// Largest 1D table accepted (Resolve writes up to 65536).
    public static let sizeRange = 2...65536

    /// Checks and wraps a 1D table.
    public init(
        size: Int, values: [Float], inputMin: SIMD3<Float> = .zero, inputMax: SIMD3<Float> = .one
    ) throws(LookCoreError) {
        guard Shaper.sizeRange.contains(size) else { throw .invalidSize(size) }
        guard values.count == 3 * size else {
            throw .wrongValueCount(size: size, expected: 3 * size, found: values.count)
        }
        guard values.allSatisfy(\.isFinite) else { throw .nonFiniteValue }
        try Shaper.checkDomain(inputMin, inputMax)
        self.size = size
        self.values = values
        self.inputMin = inputMin
        self.inputMax = inputMax
    }

    /// Throws unless every channel's input range is non-empty (NaN bounds included), as a table's or a cube's must be.
    static func checkDomain(_ min: SIMD3<Float>, _ max: SIMD3<Float>) throws(LookCoreError) {
        for c in 0..<3 where !(min[c] < max[c]) { throw .invalidDomain(min: min[c], max: max[c]) }
    }

    /// The table's output for `rgb`.
    public func apply(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let last = Float(size - 1)
        let t = ((rgb - inputMin) / (inputMax - inputMin)).clamped(lowerBound: .zero, upperBound: .one) * last
        var out = SIMD3<Float>()
        for c in 0..<3 {
            let i0 = Swift.min(Int(t[c]), size - 1)
            let f = t[c] - Float(i0)
            let v0 = values[3 * i0 + c]
            out[c] = i0 == size - 1 ? v0 : v0 + f * (values[3 * (i0 + 1) + c] - v0)
        }
        return out
    }
}

/// What a LUT file holds: an optional 1D shaper, an optional 3D cube with its input domain, and a title.
///
/// `evaluate` runs the full transform; `bakedCube` turns it into a plain 0…1 cube for applying to images.
public struct LUT: Sendable, Equatable, Hashable {
    /// Free-text title from the file, if any.
    public var title: String?
    /// Per-channel 1D table applied first.
    public var shaper: Shaper?
    /// The 3D table.
    public var cube: ColorCube?
    /// Input value that maps to the cube's first grid point, per channel.
    public var cubeInputMin: SIMD3<Float>
    /// Input value that maps to the cube's last grid point, per channel.
    public var cubeInputMax: SIMD3<Float>

    /// A LUT from its parts; at least one of `shaper` and `cube` must be present.
    public init(
        title: String? = nil, shaper: Shaper? = nil, cube: ColorCube? = nil,
        cubeInputMin: SIMD3<Float> = .zero, cubeInputMax: SIMD3<Float> = .one
    ) throws(LookCoreError) {
        if shaper == nil && cube == nil { throw .emptyLUT }
        try Shaper.checkDomain(cubeInputMin, cubeInputMax)
        self.title = title
        self.shaper = shaper
        self.cube = cube
        self.cubeInputMin = cubeInputMin
        self.cubeInputMax = cubeInputMax
    }

    /// A LUT that is just `cube` on the unit domain.
    public init(cube: ColorCube, title: String? = nil) {
        self.title = title
        self.shaper = nil
        self.cube = cube
        self.cubeInputMin = .zero
        self.cubeInputMax = .one
    }

    /// True when the LUT is a plain cube on 0…1 with no shaper, so `bakedCube` returns it unchanged.
    public var isPlainCube: Bool {
        shaper == nil && cube != nil && cubeInputMin == .zero && cubeInputMax == .one
    }

    /// The full transform at `rgb`: shaper, then the cube on its domain.
    public func evaluate(_ rgb: SIMD3<Float>, interpolation: Interpolation = .tetrahedral) -> SIMD3<Float> {
        evaluate(rgb, sampler: cube.map(CubeSampler.init), interpolation: interpolation)
    }

    private func evaluate(_ rgb: SIMD3<Float>, sampler: CubeSampler?, interpolation: Interpolation) -> SIMD3<Float> {
        var v = shaper?.apply(rgb) ?? rgb
        if let sampler {
            v = sampler.sample((v - cubeInputMin) / (cubeInputMax - cubeInputMin), interpolation: interpolation)
        }
        return v
    }

    /// Default grid for baking a LUT that has no cube of its own, or whose domain is not 0…1.
    public static let defaultBakeSize = 65

    /// The LUT as a plain cube over 0…1 inputs (what images are looked up in).
    ///
    /// A plain cube is returned as is (at its own size unless `size` asks otherwise); a shaper or a non-unit
    /// domain is evaluated exactly at each grid point of the result.
    public func bakedCube(size: Int? = nil, interpolation: Interpolation = .tetrahedral) throws(LookCoreError) -> ColorCube {
        if isPlainCube, let cube {
            return try cube.resampled(to: size ?? cube.size, interpolation: interpolation)
        }
        let n = size ?? Swift.max(cube?.size ?? 0, LUT.defaultBakeSize)
        let sampler = cube.map(CubeSampler.init)
        return try ColorCube(size: n) { evaluate($0, sampler: sampler, interpolation: interpolation) }
    }
}
