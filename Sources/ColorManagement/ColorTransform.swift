import CLCMS2

/// How colours outside the destination's gamut are brought in.
public enum RenderingIntent: String, Sendable, CaseIterable, Codable {
    /// Colours inside both gamuts keep their measured value; those outside are clipped channel by channel. The
    /// default: a look's colours are meant as authored.
    case relativeColorimetric = "relative"
    /// The profile's perceptual mapping compresses the whole gamut; matrix-shaper profiles (all the named spaces,
    /// most camera and display profiles) have none, and LittleCMS then uses relative colorimetric.
    case perceptual

    var lcms: UInt32 { self == .perceptual ? UInt32(INTENT_PERCEPTUAL) : UInt32(INTENT_RELATIVE_COLORIMETRIC) }
}

/// A LittleCMS transform between two RGB profiles on Float triples (0…1 in, unclipped out).
///
/// Built without LittleCMS's one-pixel cache, so one transform may be used from many threads at once.
public final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    /// Source profile.
    public let source: ColorProfile
    /// Destination profile.
    public let destination: ColorProfile

    /// Builds the transform from `source` to `destination`.
    public init(from source: ColorProfile, to destination: ColorProfile,
                intent: RenderingIntent = .relativeColorimetric) throws(ColorManagementError) {
        let a = try source.open()
        defer { cmsCloseProfile(a) }
        let b = try destination.open()
        defer { cmsCloseProfile(b) }
        let format = lslcms_type_rgb_flt()
        guard let handle = cmsCreateTransform(a, format, b, format, intent.lcms, lslcms_flags_nocache()) else {
            throw .cannotTransform(from: source.description, to: destination.description)
        }
        self.handle = handle
        self.source = source
        self.destination = destination
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts RGB triples in place (`count` a multiple of 3).
    public func convert(_ rgb: UnsafeMutableBufferPointer<Float>) {
        guard let base = rgb.baseAddress, rgb.count >= 3 else { return }
        // LittleCMS allows input and output to be the same buffer when both formats have the same size.
        cmsDoTransform(handle, base, base, UInt32(rgb.count / 3))
    }

    /// The converted copy of RGB triples.
    public func converting(_ rgb: [Float]) -> [Float] {
        var out = rgb
        out.withUnsafeMutableBufferPointer { convert($0) }
        return out
    }
}

/// Converts RGB in a profile to CIE L*a*b* (D50), for measuring colour differences.
public final class LabConverter: @unchecked Sendable {
    private let handle: cmsHTRANSFORM

    /// A converter from `profile`'s RGB.
    public init(from profile: ColorProfile) throws(ColorManagementError) {
        let rgb = try profile.open()
        defer { cmsCloseProfile(rgb) }
        let lab = cmsCreateLab4Profile(nil)
        defer { cmsCloseProfile(lab) }
        guard let handle = cmsCreateTransform(rgb, lslcms_type_rgb_flt(), lab, lslcms_type_lab_dbl(),
                                              UInt32(INTENT_RELATIVE_COLORIMETRIC), lslcms_flags_nocache()) else {
            throw .cannotTransform(from: profile.description, to: "CIE L*a*b*")
        }
        self.handle = handle
    }

    deinit { cmsDeleteTransform(handle) }

    /// L*a*b* of RGB triples (0…1).
    public func lab(_ rgb: UnsafeBufferPointer<Float>) -> [SIMD3<Double>] {
        let count = rgb.count / 3
        guard count > 0 else { return [] }
        // One call for all pixels into packed triples (SIMD3<Double> is padded to 32 bytes), then unpacked.
        var packed = [Double](repeating: 0, count: 3 * count)
        packed.withUnsafeMutableBufferPointer {
            cmsDoTransform(handle, rgb.baseAddress!, $0.baseAddress!, UInt32(count))
        }
        return (0..<count).map { SIMD3(packed[3 * $0], packed[3 * $0 + 1], packed[3 * $0 + 2]) }
    }
}
