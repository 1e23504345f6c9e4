/// Box averaging by a whole factor, the one way the correction's and the model's small linear copies are made (as
/// training made them).
public enum BoxAverage {
    /// The whole factor that brings the long side of `width` × `height` to at most `longSide`.
    @inlinable
    public static func factor(width: Int, height: Int, longSide: Int) -> Int {
        max(1, (max(width, height) + longSide - 1) / longSide)
    }

    /// The means of `factor` × `factor` blocks (a partial last row or column is dropped); `pixel(i)` is the colour
    /// of row-major pixel `i`. Inlined into each caller, so the closure is no call per pixel in optimised builds.
    @inlinable
    public static func downscale(width: Int, height: Int, factor: Int,
                                 pixel: (Int) -> SIMD3<Float>) -> [SIMD3<Float>] {
        let w2 = width / factor, h2 = height / factor
        var out = [SIMD3<Float>](repeating: .zero, count: w2 * h2)
        let scale = 1 / Float(factor * factor)
        for y in 0..<h2 {
            for x in 0..<w2 {
                var sum = SIMD3<Float>.zero
                for dy in 0..<factor {
                    var i = (y * factor + dy) * width + x * factor
                    for _ in 0..<factor {
                        sum += pixel(i)
                        i += 1
                    }
                }
                out[y * w2 + x] = sum * scale
            }
        }
        return out
    }
}
