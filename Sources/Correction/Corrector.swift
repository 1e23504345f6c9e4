import LookCore

/// Turns `CorrectionParams` into the one cube that carries every pointwise stage of a correction.
public enum Corrector {
    /// Grid size used when neither a pre-look cube nor a look sets one.
    public static let defaultCubeSize = 33

    /// Composes every pointwise stage into one cube (see `CorrectionParams` for the order and formulas).
    ///
    /// `look` is the cube of `params.lutOutputGuid` (or of a LUT file), already resolved by the caller: the engine
    /// never reads the catalog. The grid is the pre-look cube's, else the look's. The ends are exact, so the CLI's
    /// promises hold bit for bit: look strength 0 returns the pre-look cube itself; with no pre-look and no trims the
    /// look is scaled exactly as `apply --look --strength` scales it (`ColorCube.scaled`).
    public static func cube(for params: CorrectionParams, look: ColorCube?) throws -> ColorCube {
        try params.validate()
        var params = params
        if let auto = params.auto, !auto.isIdentity {
            params.preLook = try withAuto(auto, then: params.preLook, lookSize: look?.size)
        }
        if let guid = params.lutOutputGuid, look == nil { throw CorrectionError.lookMissing(guid: guid) }
        let overall = Float(params.strength / 100)
        let s = Float(params.lutOutputStrength / 100)
        let trimmed = params.lookContrast != 0 || params.lookSaturation != 0
        guard let look, s > 0 else {
            let pre = try params.preLook ?? ColorCube.identity(size: look?.size ?? defaultCubeSize)
            return try pre.scaled(strength: overall)
        }
        guard let pre = params.preLook else {
            if !trimmed { return try look.scaled(strength: s).scaled(strength: overall) }
            return try blend(pre: ColorCube.identity(size: look.size), look: look, atGrid: true, strength: s,
                             params: params).scaled(strength: overall)
        }
        return try blend(pre: pre, look: look, atGrid: false, strength: s, params: params).scaled(strength: overall)
    }

    /// The automatic correction followed by the pre-look cube, as one cube: the auto transform is evaluated
    /// exactly at each grid colour and the pre-look cube sampled at its result. The grid is the largest of the
    /// pre-look's, the look's and `defaultCubeSize`, so the auto curves are never sampled coarser than 33³.
    static func withAuto(_ auto: AutoCorrection, then pre: ColorCube?, lookSize: Int?) throws -> ColorCube {
        let size = max(defaultCubeSize, pre?.size ?? 0, lookSize ?? 0)
        guard let pre else { return try auto.cube(size: size) }
        let sampler = CubeSampler(pre)
        return try ColorCube(size: size) { sampler.sample(auto.apply($0), interpolation: .tetrahedral) }
    }

    /// P + s·(trim(L(P)) − P) over the pre-look cube's entries; `atGrid` reads L at its own grid points (P is the
    /// identity of L's size), exactly, instead of interpolating.
    private static func blend(pre: ColorCube, look: ColorCube, atGrid: Bool, strength s: Float,
                              params: CorrectionParams) throws -> ColorCube {
        let sampler = CubeSampler(look)
        let contrast = Float(1 + params.lookContrast / 100)
        let saturation = Float(1 + params.lookSaturation / 100)
        let trimmed = params.lookContrast != 0 || params.lookSaturation != 0
        let luma = ColorScience.rec709LumaWeights
        var values = pre.values
        values.withUnsafeMutableBufferPointer { v in
            look.values.withUnsafeBufferPointer { lv in
                for i in 0..<pre.entryCount {
                    let p = SIMD3(v[3 * i], v[3 * i + 1], v[3 * i + 2])
                    var l = atGrid ? SIMD3(lv[3 * i], lv[3 * i + 1], lv[3 * i + 2])
                                   : sampler.sample(p, interpolation: .tetrahedral)
                    if trimmed {
                        l = 0.5 + contrast * (l - 0.5)
                        let y = (l * luma).sum()
                        l = y + saturation * (l - y)
                    }
                    let out = Strength.blend(p, toward: l, strength: s)
                    v[3 * i] = out.x
                    v[3 * i + 1] = out.y
                    v[3 * i + 2] = out.z
                }
            }
        }
        return try ColorCube(size: pre.size, values: values)
    }
}
