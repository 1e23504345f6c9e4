/// The one strength rule of LookStudio: a look at strength s is `I + s·(L − I)` against what it started from.
///
/// s = 1 gives the look's output itself (not `x + 1·(y − x)`, which can differ from y in the last bit), s = 0 the
/// input; above 1 the extrapolation is clamped to 0…1, since an extrapolated look has no meaning outside the
/// encodable range. Cube scaling, recipe steps and the correction chain all blend through here.
public enum Strength {
    /// `x + s·(y − x)` under the rule above.
    @inlinable @inline(__always)
    public static func blend(_ x: SIMD3<Float>, toward y: SIMD3<Float>, strength s: Float) -> SIMD3<Float> {
        if s == 1 { return y }
        let v = x + s * (y - x)
        return s > 1 ? v.clamped(lowerBound: .zero, upperBound: .one) : v
    }

    /// `x ← x + s·(y − x)` over two buffers of the same length, under the rule above.
    public static func blend(_ x: UnsafeMutableBufferPointer<Float>, toward y: UnsafeMutableBufferPointer<Float>,
                             strength s: Float) {
        if s == 1 {
            for i in 0..<x.count { x[i] = y[i] }
        } else if s > 1 {
            for i in 0..<x.count { x[i] = Swift.min(Swift.max(x[i] + s * (y[i] - x[i]), 0), 1) }
        } else {
            for i in 0..<x.count { x[i] += s * (y[i] - x[i]) }
        }
    }
}
