import ImageIO
import LookCore
import LookGallery

/// Pictures of what a cube does, for the gallery's look pages: its grey-axis curves and hue × saturation slices.
public enum CubeDiagrams {
    /// HSV values of the slices drawn per look.
    public static let sliceValues: [Double] = [0.35, 0.65, 0.95]
    /// Slice size: hue across, saturation down.
    public static let sliceWidth = 120, sliceHeight = 40

    /// The cube sampled along the grey axis at `count` evenly spaced inputs (tetrahedral, as images are applied).
    public static func greyCurves(_ cube: ColorCube, count: Int = 65) -> GreyCurves {
        let sampler = CubeSampler(cube)
        let inputs = (0..<count).map { Double($0) / Double(count - 1) }
        let outputs = inputs.map { t in sampler.sample(SIMD3(repeating: Float(t)), interpolation: .tetrahedral) }
        func rounded(_ v: Float) -> Double { (Double(v) * 10_000).rounded() / 10_000 }
        return GreyCurves(inputs: inputs, red: outputs.map { rounded($0.x) }, green: outputs.map { rounded($0.y) },
                          blue: outputs.map { rounded($0.z) })
    }

    /// The slice at HSV `value`: hue 0…360° across, saturation 1 at the top to 0 at the bottom, through `cube`
    /// (nil: the input colours themselves).
    public static func slice(value: Double, cube: ColorCube?) throws(ImageIOError) -> PixelBuffer {
        let sampler = cube.map(CubeSampler.init)
        var out = [UInt8](repeating: 0, count: sliceWidth * sliceHeight * 3)
        for y in 0..<sliceHeight {
            let saturation = 1 - Double(y) / Double(sliceHeight - 1)
            for x in 0..<sliceWidth {
                let hue = (Double(x) + 0.5) / Double(sliceWidth) * 6
                var rgb = hsv(hue: hue, saturation: saturation, value: value)
                if let sampler { rgb = sampler.sample(rgb, interpolation: .tetrahedral) }
                let o = (y * sliceWidth + x) * 3
                out[o] = code(rgb.x)
                out[o + 1] = code(rgb.y)
                out[o + 2] = code(rgb.z)
            }
        }
        return try PixelBuffer(width: sliceWidth, height: sliceHeight, channels: 3, samples: .eight(out))
    }

    /// HSV to RGB with hue in sextants (0…6).
    static func hsv(hue h: Double, saturation s: Double, value v: Double) -> SIMD3<Float> {
        let sector = Int(h) % 6
        let f = h - Double(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let rgb: (Double, Double, Double)
        switch sector {
        case 0: rgb = (v, t, p)
        case 1: rgb = (q, v, p)
        case 2: rgb = (p, v, t)
        case 3: rgb = (p, q, v)
        case 4: rgb = (t, p, v)
        default: rgb = (v, p, q)
        }
        return SIMD3(Float(rgb.0), Float(rgb.1), Float(rgb.2))
    }

    private static func code(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }
}
