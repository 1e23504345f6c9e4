import CLCMS2
import LookCore

/// ICC v4 device-link profiles (RGB → RGB) built by LittleCMS from a cube: what colour-managed applications and
/// LittleCMS's own `tificc` / `jpgicc -l` apply to device values directly, without a PCS in between.
public enum DeviceLink {
    /// The bytes of a v4.3 device link whose AToB0 is `cube` as one 16-bit CLUT stage (values clamped to 0…1).
    ///
    /// LittleCMS's CLUT orders its first input channel slowest, so entries go red slowest, blue fastest. The
    /// profile sequence tag a v4 link must carry lists one entry named by `description`.
    public static func build(cube: ColorCube, description: String, copyright: String) throws(ColorManagementError)
        -> [UInt8] {
        _ = ColorProfile.silenceLittleCMS
        let n = cube.size
        guard n <= 255 else { throw .invalidGridSize(n) }
        var table = [UInt16](repeating: 0, count: 3 * n * n * n)
        var i = 0
        for r in 0..<n { for g in 0..<n { for b in 0..<n {
            let v = cube.entry(r: r, g: g, b: b)
            for c in 0..<3 { table[i + c] = UInt16((Swift.min(Swift.max(v[c], 0), 1) * 65535).rounded()) }
            i += 3
        } } }
        let failure = ColorManagementError.rejectedProfile(source: description,
                                                           reason: "LittleCMS could not build the device link")
        guard let pipeline = cmsPipelineAlloc(nil, 3, 3) else { throw failure }
        defer { cmsPipelineFree(pipeline) }
        // lutAtoBType stores A curves, CLUT, B curves; a lone CLUT has no such form, so identity curves frame it.
        guard let curvesA = cmsStageAllocToneCurves(nil, 3, nil),
              let stage = cmsStageAllocCLut16bit(nil, UInt32(n), 3, 3, table),
              let curvesB = cmsStageAllocToneCurves(nil, 3, nil),
              cmsPipelineInsertStage(pipeline, cmsAT_END, curvesA) != 0,
              cmsPipelineInsertStage(pipeline, cmsAT_END, stage) != 0,
              cmsPipelineInsertStage(pipeline, cmsAT_END, curvesB) != 0 else { throw failure }
        guard let profile = cmsCreateProfilePlaceholder(nil) else { throw failure }
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigLinkClass)
        cmsSetColorSpace(profile, cmsSigRgbData)
        cmsSetPCS(profile, cmsSigRgbData)
        cmsSetHeaderRenderingIntent(profile, UInt32(INTENT_PERCEPTUAL))
        guard let text = mlu(description), let rights = mlu(copyright) else { throw failure }
        defer { cmsMLUfree(text); cmsMLUfree(rights) }
        guard let sequence = cmsAllocProfileSequenceDescription(nil, 1) else { throw failure }
        defer { cmsFreeProfileSequenceDescription(sequence) }
        sequence.pointee.seq[0].Description = cmsMLUdup(text)
        sequence.pointee.seq[0].Manufacturer = mlu("LookStudio")
        sequence.pointee.seq[0].Model = mlu("look")
        sequence.pointee.seq[0].technology = cmsSigDigitalCamera
        guard cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0,
              cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(text)) != 0,
              cmsWriteTag(profile, cmsSigCopyrightTag, UnsafeRawPointer(rights)) != 0,
              cmsWriteTag(profile, cmsSigProfileSequenceDescTag, UnsafeRawPointer(sequence)) != 0 else { throw failure }
        cmsMD5computeID(profile)
        guard let bytes = ColorProfile.serialized(profile) else { throw failure }
        return bytes
    }

    private static func mlu(_ text: String) -> OpaquePointer? {
        guard let m = cmsMLUalloc(nil, 1) else { return nil }
        cmsMLUsetASCII(m, "en", "US", text.unicodeScalars.map { $0.isASCII ? String($0) : "?" }.joined())
        return m
    }

    /// What LittleCMS reads back from link bytes: class, colour spaces, version and description, for checks.
    public static func header(of bytes: [UInt8]) -> (isLink: Bool, input: String, output: String, version: Double,
                                                    description: String)? {
        guard let h = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            return nil
        }
        defer { cmsCloseProfile(h) }
        var buffer = [CChar](repeating: 0, count: 256)
        cmsGetProfileInfoASCII(h, cmsInfoDescription, "en", "US", &buffer, 256)
        return (cmsGetDeviceClass(h) == cmsSigLinkClass, ColorProfile.fourCC(cmsGetColorSpace(h).rawValue),
                ColorProfile.fourCC(cmsGetPCS(h).rawValue), cmsGetProfileVersion(h),
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
