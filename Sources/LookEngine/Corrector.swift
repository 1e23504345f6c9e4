import ImageIO
import LookCore

/// Turns `CorrectionParams` into one cube and applies it to image files in a single streamed pass.
public enum Corrector {
    /// Grid size used when neither a pre-look cube nor a look sets one.
    public static let defaultCubeSize = 33

    /// Composes every pointwise stage into one cube (see `CorrectionParams` for the order and formulas).
    ///
    /// `look` is the cube of `params.lutOutputGuid` (or of a LUT file), already resolved by the caller: the engine
    /// never reads the catalog. The grid is the pre-look cube's, else the look's; with no pre-look the look is read at its own
    /// grid points exactly, so a look at 100 % equals applying the look directly, bit for bit.
    public static func cube(for params: CorrectionParams, look: ColorCube?) throws -> ColorCube {
        try params.validate()
        if let guid = params.lutOutputGuid, look == nil { throw CorrectionError.lookMissing(guid: guid) }
        let size = params.preLook?.size ?? look?.size ?? defaultCubeSize
        let pre = try params.preLook ?? ColorCube.identity(size: size)
        guard let look else { return try pre.scaled(strength: Float(params.strength / 100)) }
        let atGrid = params.preLook == nil && look.size == size
        let sampler = CubeSampler(look)
        let s = Float(params.lutOutputStrength / 100)
        let contrast = Float(1 + params.lookContrast / 100)
        let saturation = Float(1 + params.lookSaturation / 100)
        let trimmed = params.lookContrast != 0 || params.lookSaturation != 0
        let luma = SIMD3<Float>(0.2126, 0.7152, 0.0722)
        var values = pre.values
        values.withUnsafeMutableBufferPointer { v in
            look.values.withUnsafeBufferPointer { lv in
                for i in 0..<(pre.entryCount) {
                    let p = SIMD3(v[3 * i], v[3 * i + 1], v[3 * i + 2])
                    var l = atGrid ? SIMD3(lv[3 * i], lv[3 * i + 1], lv[3 * i + 2])
                                   : sampler.sample(p, interpolation: .tetrahedral)
                    if trimmed {
                        l = 0.5 + contrast * (l - 0.5)
                        let y = (l * luma).sum()
                        l = y + saturation * (l - y)
                    }
                    let out = p + s * (l - p)
                    v[3 * i] = out.x
                    v[3 * i + 1] = out.y
                    v[3 * i + 2] = out.z
                }
            }
        }
        return try ColorCube(size: size, values: values).scaled(strength: Float(params.strength / 100))
    }

    /// Corrects one image file into `output` (format by extension) with a prepared cube; returns stage timings.
    @discardableResult
    public static func correct(cube: ColorCube, input: String, output: String,
                               options: ImagePipeline.Options = ImagePipeline.Options()) throws
        -> ImagePipeline.Timings {
        try ImagePipeline.apply(cube, input: input, output: output, options: options)
    }
}
