import Foundation
import CLCMS2

/// An RGB colour space as an ICC profile: the bytes, what they call themselves, and the named space they are.
///
/// A value type: the LittleCMS handle is opened from the bytes whenever a transform is built, so profiles can be
/// stored, compared and sent across threads freely. Only RGB profiles of the input, display or output class are
/// accepted (what an RGB image can be tagged with).
public struct ColorProfile: Sendable, Equatable, Hashable {
    /// The RGB spaces LookStudio builds itself (with LittleCMS, from their published primaries and curves).
    public enum Named: String, Sendable, CaseIterable, Codable {
        case sRGB = "srgb"
        case displayP3 = "display-p3"
        case adobeRGB = "adobe-rgb"
        case rec2020 = "rec2020"

        /// The name shown to people and written into the profile's description tag.
        public var title: String {
            switch self {
            case .sRGB: return "sRGB IEC61966-2.1"
            case .displayP3: return "Display P3"
            case .adobeRGB: return "Adobe RGB (1998)"
            case .rec2020: return "Rec. 2020"
            }
        }

        /// The space a command-line word names: the raw value, or a few common spellings ("p3", "adobe-rgb-1998").
        public init?(argument: String) {
            let key = argument.lowercased().filter { $0.isLetter || $0.isNumber }
            switch key {
            case "srgb", "srgbiec6196621": self = .sRGB
            case "displayp3", "p3": self = .displayP3
            case "adobergb", "adobergb1998", "adobe": self = .adobeRGB
            case "rec2020", "bt2020", "rec2100": self = .rec2020
            default: return nil
            }
        }
    }

    /// The ICC profile bytes.
    public let data: [UInt8]
    /// The profile's description tag (or the named space's title).
    public let description: String
    /// The named space this profile is, when LookStudio built it.
    public let named: Named?

    /// Reads an ICC profile from its bytes; `source` names it in errors (a file, "IMAGE.png's iCCP chunk").
    public init(iccData: [UInt8], source: String) throws(ColorManagementError) {
        let handle = try ColorProfile.open(iccData, source: source)
        defer { cmsCloseProfile(handle) }
        data = iccData
        description = ColorProfile.info(handle) ?? "unnamed ICC profile"
        named = nil
    }

    /// One of the spaces LookStudio builds.
    public init(_ named: Named) {
        self = ColorProfile.builtIn[named]!
    }

    /// The named space a command-line word names (srgb, display-p3, …); `ImageColor.profile(named:)` also takes .icc
    /// paths.
    public static func named(_ word: String) throws(ColorManagementError) -> ColorProfile {
        if let space = Named(argument: word) { return ColorProfile(space) }
        throw .unknownSpace(word)
    }

    private init(named: Named, data: [UInt8]) {
        self.data = data
        self.description = named.title
        self.named = named
    }

    /// An RGB profile from chromaticities and one tone curve for all three channels (PNG gAMA+cHRM, HEIF nclx).
    public static func rgb(white: SIMD2<Double>, red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>,
                           curve: ToneCurve, description: String) throws(ColorManagementError) -> ColorProfile {
        guard let bytes = build(white: white, red: red, green: green, blue: blue, curve: curve,
                                description: description) else {
            throw .rejectedProfile(source: description, reason: "LittleCMS cannot build it from these chromaticities")
        }
        return try ColorProfile(iccData: bytes, source: description)
    }

    /// An encoding curve, as the ICC parametric curves define them (decoded value = f(encoded)).
    public enum ToneCurve: Sendable, Equatable {
        /// v^γ.
        case gamma(Double)
        /// The sRGB / Display P3 piecewise curve.
        case sRGB
        /// The Rec. 709 / Rec. 2020 camera curve, inverted.
        case rec709

        var parametric: (type: Int32, params: [Double]) {
            switch self {
            case .gamma(let g): return (1, [g])
            case .sRGB: return (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
            case .rec709: return (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
            }
        }
    }

    /// True when converting between the two changes no colour by more than `tolerance` (default a quarter of an
    /// 8-bit code): such profiles are treated as the same space, and the conversion is skipped rather than
    /// approximated.
    public func isEquivalent(to other: ColorProfile, tolerance: Float = 0.25 / 255) -> Bool {
        if data == other.data { return true }
        if let a = named, let b = other.named { return a == b }
        guard let transform = try? ColorTransform(from: self, to: other, intent: .relativeColorimetric) else {
            return false
        }
        let n = 9
        var grid: [Float] = []
        grid.reserveCapacity(3 * n * n * n)
        for b in 0..<n { for g in 0..<n { for r in 0..<n { grid += [Float(r), Float(g), Float(b)].map { $0 / Float(n - 1) } } } }
        let converted = transform.converting(grid)
        return zip(grid, converted).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// Opens the profile in LittleCMS; the caller closes it.
    func open() throws(ColorManagementError) -> cmsHPROFILE {
        try ColorProfile.open(data, source: description)
    }

    static func open(_ bytes: [UInt8], source: String) throws(ColorManagementError) -> cmsHPROFILE {
        _ = silenceLittleCMS
        guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else {
            throw .rejectedProfile(source: source, reason: "empty")
        }
        guard let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            throw .rejectedProfile(source: source, reason: "LittleCMS cannot parse it")
        }
        let space = cmsGetColorSpace(handle)
        let kind = cmsGetDeviceClass(handle)
        guard space == cmsSigRgbData else {
            cmsCloseProfile(handle)
            throw .rejectedProfile(source: source, reason: "its data colour space is \(fourCC(space.rawValue)), not RGB")
        }
        guard kind != cmsSigLinkClass, kind != cmsSigAbstractClass, kind != cmsSigNamedColorClass else {
            cmsCloseProfile(handle)
            throw .rejectedProfile(source: source, reason: "a \(fourCC(kind.rawValue)) profile cannot describe an image")
        }
        // A profile can parse yet lack the tags a transform needs (no TRC, no matrix): try one now so the error
        // names the profile rather than surfacing later as a failed transform. Into XYZ, which has no curves to
        // build: the probe tests this profile's side only, and an sRGB target cost two 4096-step curve tables.
        let xyz = cmsCreateXYZProfile()
        defer { cmsCloseProfile(xyz) }
        guard let probe = cmsCreateTransform(handle, lslcms_type_rgb_flt(), xyz, lslcms_type_xyz_flt(),
                                             UInt32(INTENT_RELATIVE_COLORIMETRIC), lslcms_flags_nocache()) else {
            cmsCloseProfile(handle)
            throw .rejectedProfile(source: source, reason: "LittleCMS cannot build a transform from it")
        }
        cmsDeleteTransform(probe)
        return handle
    }

    static func info(_ handle: cmsHPROFILE) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        guard n > 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    static func fourCC(_ value: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8((value >> UInt32($0)) & 0xFF) }
        return "\"" + String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces) + "\""
    }

    /// LittleCMS logs errors to stderr by default; LookStudio reports them through its own errors instead.
    static let silenceLittleCMS: Void = cmsSetLogErrorHandler { _, _, _ in }

    /// The named spaces, built once: D65 white, the published primaries and curves (sRGB: IEC 61966-2-1; Display
    /// P3: SMPTE EG 432-1 primaries with the sRGB curve; Adobe RGB (1998): γ = 563/256; Rec. 2020: ITU-R BT.2020).
    private static let builtIn: [Named: ColorProfile] = {
        let d65 = SIMD2(0.3127, 0.3290)
        var table: [Named: ColorProfile] = [:]
        let specs: [(Named, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, ToneCurve)] = [
            (.sRGB, SIMD2(0.64, 0.33), SIMD2(0.30, 0.60), SIMD2(0.15, 0.06), .sRGB),
            (.displayP3, SIMD2(0.680, 0.320), SIMD2(0.265, 0.690), SIMD2(0.150, 0.060), .sRGB),
            (.adobeRGB, SIMD2(0.64, 0.33), SIMD2(0.21, 0.71), SIMD2(0.15, 0.06), .gamma(563.0 / 256)),
            (.rec2020, SIMD2(0.708, 0.292), SIMD2(0.170, 0.797), SIMD2(0.131, 0.046), .rec709),
        ]
        for (name, red, green, blue, curve) in specs {
            let bytes = build(white: d65, red: red, green: green, blue: blue, curve: curve, description: name.title)!
            table[name] = ColorProfile(named: name, data: bytes)
        }
        return table
    }()

    private static func build(white: SIMD2<Double>, red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>,
                              curve: ToneCurve, description: String) -> [UInt8]? {
        _ = silenceLittleCMS
        var whitePoint = cmsCIExyY(x: white.x, y: white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: red.x, y: red.y, Y: 1),
                                        Green: cmsCIExyY(x: green.x, y: green.y, Y: 1),
                                        Blue: cmsCIExyY(x: blue.x, y: blue.y, Y: 1))
        let (type, params) = curve.parametric
        guard let tone = cmsBuildParametricToneCurve(nil, type, params) else { return nil }
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let handle = cmsCreateRGBProfile(&whitePoint, &primaries, &curves) else { return nil }
        defer { cmsCloseProfile(handle) }
        if let mlu = cmsMLUalloc(nil, 1) {
            cmsMLUsetASCII(mlu, "en", "US", description)
            cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
            cmsMLUfree(mlu)
        }
        return serialized(handle)
    }

    /// The ICC bytes of a LittleCMS profile: its size asked for first, then written; nil when LittleCMS refuses.
    static func serialized(_ profile: cmsHPROFILE) -> [UInt8]? {
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return bytes
    }
}
