/// A 3D colour lookup table: `size³` RGB entries, red varying fastest, then green, then blue.
///
/// Entry `i = r + N·g + N²·b` maps the grid colour `(r, g, b) / (N − 1)` to `values[3i ..< 3i + 3]`.
/// Values are not limited to 0…1 (HDR and log LUTs carry values outside it); sampling clamps inputs only.
public struct ColorCube: Sendable, Equatable, Hashable {
    /// Smallest and largest grid size the project accepts.
    public static let sizeRange = 2...256

    /// Entries per axis (N).
    public let size: Int
    /// `3·N³` floats, RGB interleaved, red fastest.
    public private(set) var values: [Float]

    /// Wraps `values` (3·N³ floats, red fastest) as a cube, checking the size and count.
    public init(size: Int, values: [Float]) throws(LookCoreError) {
        guard ColorCube.sizeRange.contains(size) else { throw .invalidSize(size) }
        let expected = 3 * size * size * size
        guard values.count == expected else {
            throw .wrongValueCount(size: size, expected: expected, found: values.count)
        }
        guard ColorCube.allFinite(values) else { throw .nonFiniteValue }
        self.size = size
        self.values = values
    }

    /// Whether no value is infinite or NaN. x − x is 0 for a finite x and NaN otherwise, and NaN survives a sum, so
    /// eight lanes at a time need one test per cube rather than one per value (every import and decode checks).
    static func allFinite(_ values: [Float]) -> Bool {
        values.withUnsafeBufferPointer { v in
            guard let base = v.baseAddress else { return true }
            var lanes = SIMD8<Float>()
            var i = 0
            while i + 8 <= v.count {
                let x = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD8<Float>.self)
                lanes += x - x
                i += 8
            }
            var rest: Float = 0
            while i < v.count {
                rest += v[i] - v[i]
                i += 1
            }
            return lanes == SIMD8() && rest == 0
        }
    }

    /// Builds a cube by evaluating `transform` at every grid colour.
    public init(size: Int, transform: (SIMD3<Float>) -> SIMD3<Float>) throws(LookCoreError) {
        guard ColorCube.sizeRange.contains(size) else { throw .invalidSize(size) }
        let last = Float(size - 1)
        var values = [Float](repeating: 0, count: 3 * size * size * size)
        var i = 0
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    // Division, not a reciprocal multiply: i/(N−1) is then the correctly rounded grid colour.
                    let out = transform(SIMD3(Float(r), Float(g), Float(b)) / last)
                    values[i] = out.x
                    values[i + 1] = out.y
                    values[i + 2] = out.z
                    i += 3
                }
            }
        }
        try self.init(size: size, values: values)
    }

    /// The cube that maps every colour to itself.
    public static func identity(size: Int) throws(LookCoreError) -> ColorCube {
        try ColorCube(size: size) { $0 }
    }

    /// Number of grid entries, N³.
    public var entryCount: Int { size * size * size }

    /// The entry at integer grid coordinates.
    @inlinable
    public func entry(r: Int, g: Int, b: Int) -> SIMD3<Float> {
        let i = 3 * (r + size * (g + size * b))
        return SIMD3(values[i], values[i + 1], values[i + 2])
    }

    /// The grid colour of entry `index` (what the identity cube holds there).
    public func gridColor(at index: Int) -> SIMD3<Float> {
        SIMD3(Float(index % size), Float((index / size) % size), Float(index / (size * size))) / Float(size - 1)
    }

    /// Smallest and largest value over all entries and channels.
    public var valueRange: ClosedRange<Float> {
        var lo = Float.infinity, hi = -Float.infinity
        for v in values {
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
        return lo...hi
    }

    /// Mean and maximum absolute distance from the identity cube, per channel value (0…1 scale).
    public var distanceFromIdentity: (mean: Double, max: Double) {
        var sum = 0.0, maxDiff = 0.0
        let n = entryCount
        for i in 0..<n {
            let e = entryVector(i) - gridColor(at: i)
            let d = SIMD3(Swift.abs(e.x), Swift.abs(e.y), Swift.abs(e.z))
            sum += Double(d.x) + Double(d.y) + Double(d.z)
            maxDiff = Swift.max(maxDiff, Double(d.max()))
        }
        return (sum / Double(3 * n), maxDiff)
    }

    @inline(__always)
    func entryVector(_ index: Int) -> SIMD3<Float> {
        SIMD3(values[3 * index], values[3 * index + 1], values[3 * index + 2])
    }

    /// The look scaled against identity: `I + s·(L − I)` on every entry.
    ///
    /// `s = 0` is exactly the identity, `s = 1` exactly this cube. Above 1 the look is extrapolated and the result
    /// clamped to 0…1, since an extrapolated look has no meaning outside the encodable range.
    public func scaled(strength s: Float) throws(LookCoreError) -> ColorCube {
        guard s >= 0, s <= 2, s.isFinite else { throw .strengthOutOfRange(s) }
        if s == 1 { return self }
        var out = values
        let n = entryCount
        if s == 0 {
            for i in 0..<n {
                let g = gridColor(at: i)
                out[3 * i] = g.x
                out[3 * i + 1] = g.y
                out[3 * i + 2] = g.z
            }
        } else {
            for i in 0..<n {
                let g = gridColor(at: i)
                let v = Strength.blend(g, toward: entryVector(i), strength: s)
                out[3 * i] = v.x
                out[3 * i + 1] = v.y
                out[3 * i + 2] = v.z
            }
        }
        return try ColorCube(size: size, values: out)
    }

    /// Samples the cube at `rgb` (clamped to 0…1) with the given interpolation.
    @inlinable
    public func sample(_ rgb: SIMD3<Float>, interpolation: Interpolation = .tetrahedral) -> SIMD3<Float> {
        CubeSampler(self).sample(rgb, interpolation: interpolation)
    }

    /// The cube `C(x) = next(self(x))`, evaluated in Float on a grid of `size` (default: the larger input size).
    public func composed(
        with next: ColorCube, size outSize: Int? = nil, interpolation: Interpolation = .tetrahedral
    ) throws(LookCoreError) -> ColorCube {
        let n = outSize ?? Swift.max(size, next.size)
        let first = CubeSampler(self)
        let second = CubeSampler(next)
        if n == size {
            // Same grid: the first cube's entries are exact, so only the second cube is interpolated.
            var out = values
            let batch = BatchSampler(next, interpolation: interpolation)
            out.withUnsafeMutableBufferPointer { batch.apply(inPlace: $0) }
            return try ColorCube(size: n, values: out)
        }
        return try ColorCube(size: n) { second.sample(first.sample($0, interpolation: interpolation),
                                                       interpolation: interpolation) }
    }

    /// This cube evaluated on a grid of another size.
    public func resampled(to newSize: Int, interpolation: Interpolation = .tetrahedral) throws(LookCoreError) -> ColorCube {
        if newSize == size { return self }
        let sampler = CubeSampler(self)
        return try ColorCube(size: newSize) { sampler.sample($0, interpolation: interpolation) }
    }

    /// How many values lie outside 0…1 (what `clampedToUnitRange` would change), without copying the cube.
    public var valuesOutsideUnitRange: Int { values.reduce(0) { $0 + ($1 < 0 || $1 > 1 ? 1 : 0) } }

    /// A copy with every value clamped to 0…1, and how many values had to be clamped.
    public func clampedToUnitRange() -> (cube: ColorCube, clampedCount: Int) {
        var count = 0
        var out = values
        for i in out.indices where out[i] < 0 || out[i] > 1 {
            out[i] = Swift.min(Swift.max(out[i], 0), 1)
            count += 1
        }
        var copy = self
        copy.values = out
        return (copy, count)
    }
}

/// How a cube is interpolated between grid points.
public enum Interpolation: String, Sendable, CaseIterable, Codable {
    /// Splits each grid cell into six tetrahedra (4 entries per lookup); the default, as in most colour tools.
    case tetrahedral
    /// Blends the 8 corners of the grid cell.
    case trilinear
}

extension ColorCube {
    /// The cube at the precision the catalog stores (16-bit codes over `CodeRange(covering:)`).
    ///
    /// Composed cubes are quantised this way whether or not they are stored, so a recipe applied directly and
    /// the same recipe saved as a look and applied by GUID give the same image, bit for bit. Within 0…1 each
    /// value is rounded to v/65535 in Float, as before ranges were recorded. Consuming, and rounded in place: a
    /// composed 256³ cube (201 MB) is not held twice while it is quantised.
    public consuming func quantizedTo16Bit() throws(LookCoreError) -> ColorCube {
        var cube = consume self
        let range = CodeRange(covering: cube)
        cube.values.withUnsafeMutableBufferPointer { v in
            if range.isUnit {
                for i in v.indices { v[i] = Float((Swift.min(Swift.max(v[i], 0), 1) * 65535).rounded()) / 65535 }
            } else {
                for i in v.indices { v[i] = range.restored(Float(range.code(v[i])) / 65535) }
            }
        }
        return cube
    }
}
