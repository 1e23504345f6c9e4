import CPNGShim

/// A PNG's colour-description chunks (iCCP, sRGB, gAMA, cHRM), carried from input to output as metadata.
///
/// LookStudio never applies them to samples: a look is applied to the stored values, and the output keeps the input's
/// colour description so viewers show it as they showed the input. Fixed-point values are as stored (× 100 000).
public struct PNGColorMetadata: Sendable, Equatable {
    /// An embedded ICC profile (iCCP chunk): its name and the decompressed profile bytes.
    public struct ICCProfile: Sendable, Equatable {
        /// The profile's name, a PNG keyword (Latin-1, 1…79 characters); invalid names are replaced on writing.
        public var name: String
        /// The ICC profile itself, uncompressed.
        public var data: [UInt8]

        /// A profile with the given name and bytes.
        public init(name: String = PNGColorMetadata.ICCProfile.defaultName, data: [UInt8]) {
            self.name = name
            self.data = data
        }

        /// The name given to a profile that came from a JPEG (which has no name for it).
        public static let defaultName = "ICC profile"

        /// The profile header's data colour space ("RGB ", "GRAY", "CMYK", …), or nil when the header is too short.
        public var colorSpace: String? {
            guard data.count >= 20 else { return nil }
            return String(decoding: data[16..<20], as: UTF8.self)
        }
    }

    /// The sRGB chunk's rendering intent.
    public enum RenderingIntent: Int, Sendable, Equatable, CaseIterable {
        case perceptual = 0, relativeColorimetric = 1, saturation = 2, absoluteColorimetric = 3
    }

    /// Primary and white-point chromaticities (cHRM chunk), CIE x and y × 100 000.
    public struct Chromaticities: Sendable, Equatable {
        public var whiteX: Int32, whiteY: Int32
        public var redX: Int32, redY: Int32
        public var greenX: Int32, greenY: Int32
        public var blueX: Int32, blueY: Int32

        /// Chromaticities from their eight coordinates.
        public init(whiteX: Int32, whiteY: Int32, redX: Int32, redY: Int32, greenX: Int32, greenY: Int32,
                    blueX: Int32, blueY: Int32) {
            (self.whiteX, self.whiteY, self.redX, self.redY) = (whiteX, whiteY, redX, redY)
            (self.greenX, self.greenY, self.blueX, self.blueY) = (greenX, greenY, blueX, blueY)
        }

        /// The sRGB / Rec. 709 primaries with a D65 white point, as the PNG specification lists them.
        public static let sRGB = Chromaticities(whiteX: 31_270, whiteY: 32_900, redX: 64_000, redY: 33_000,
                                                greenX: 30_000, greenY: 60_000, blueX: 15_000, blueY: 6_000)

        var values: [Int32] { [whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY] }
    }

    /// The iCCP chunk.
    public var iccProfile: ICCProfile?
    /// The sRGB chunk.
    public var srgbIntent: RenderingIntent?
    /// The gAMA chunk: the encoding gamma × 100 000 (45 455 for 1/2.2).
    public var gamma: Int32?
    /// The cHRM chunk.
    public var chromaticities: Chromaticities?
    /// Reading: why libpng refused the file's iCCP chunk (too long, damaged), when it did; nil otherwise.
    public var refusedICCProfile: String?

    /// Metadata with the given chunks (none by default).
    public init(iccProfile: ICCProfile? = nil, srgbIntent: RenderingIntent? = nil, gamma: Int32? = nil,
                chromaticities: Chromaticities? = nil) {
        self.iccProfile = iccProfile
        self.srgbIntent = srgbIntent
        self.gamma = gamma
        self.chromaticities = chromaticities
    }

    /// No colour chunk at all.
    public var isEmpty: Bool { iccProfile == nil && srgbIntent == nil && gamma == nil && chromaticities == nil }

    /// Only an ICC profile, as carried by a JPEG; nil or empty bytes give no metadata.
    public init(iccProfile bytes: [UInt8]?) {
        self.init(iccProfile: bytes.flatMap { $0.isEmpty ? nil : ICCProfile(data: $0) })
    }

    /// Copies what a shim reader reported; the pointers are valid only during this call.
    init(_ c: lspng_color) {
        if let problem = c.iccp_problem { refusedICCProfile = String(cString: problem) }
        if c.has_iccp != 0, let name = c.iccp_name, let profile = c.iccp_profile, c.iccp_length > 0 {
            // Keywords are Latin-1: each byte is one Unicode scalar.
            let start = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
            var length = 0
            while length < 80, start[length] != 0 { length += 1 }
            let bytes = UnsafeBufferPointer(start: start, count: length)
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            iccProfile = ICCProfile(name: text, data: Array(UnsafeBufferPointer(start: profile,
                                                                              count: Int(c.iccp_length))))
        }
        if c.has_srgb != 0 { srgbIntent = RenderingIntent(rawValue: Int(c.srgb_intent)) }
        if c.has_gama != 0 { gamma = c.gama }
        if c.has_chrm != 0 {
            let x = c.chrm
            chromaticities = Chromaticities(whiteX: x.0, whiteY: x.1, redX: x.2, redY: x.3, greenX: x.4, greenY: x.5,
                                            blueX: x.6, blueY: x.7)
        }
    }

    /// Calls `body` with a shim description of these chunks (nil when there are none), valid only inside `body`.
    func withShimColor<R>(_ body: (UnsafePointer<lspng_color>?) -> R) -> R {
        guard !isEmpty else { return body(nil) }
        var c = lspng_color()
        if let srgbIntent {
            c.has_srgb = 1
            c.srgb_intent = Int32(srgbIntent.rawValue)
        }
        if let gamma {
            c.has_gama = 1
            c.gama = gamma
        }
        if let chromaticities {
            let v = chromaticities.values
            c.has_chrm = 1
            c.chrm = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
        }
        let name = PNGColorMetadata.keyword(iccProfile?.name ?? "") + [0]
        let profile = iccProfile?.data ?? []
        return name.withUnsafeBufferPointer { nameBytes in
            profile.withUnsafeBufferPointer { profileBytes in
                if !profile.isEmpty, let base = profileBytes.baseAddress, profile.count <= Int(UInt32.max) {
                    c.has_iccp = 1
                    c.iccp_profile = base
                    c.iccp_length = UInt32(profile.count)
                    c.iccp_name = nameBytes.baseAddress.map {
                        UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)
                    }
                }
                return withUnsafePointer(to: c) { body($0) }
            }
        }
    }

    /// `name` as a valid PNG keyword (printable Latin-1, no leading, trailing or doubled spaces, 1…79 bytes), or the
    /// default name when nothing valid is left: libpng stops the whole header on a bad keyword.
    static func keyword(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in name.unicodeScalars {
            let v = scalar.value
            guard (32...126).contains(v) || (161...255).contains(v) else { continue }
            if v == 32, bytes.isEmpty || bytes.last == 32 { continue }
            bytes.append(UInt8(v))
        }
        bytes = Array(bytes.prefix(79))
        while bytes.last == 32 { bytes.removeLast() }
        return bytes.isEmpty ? Array(ICCProfile.defaultName.utf8) : bytes
    }
}

extension PNGColorMetadata {
    /// The profile to embed in an RGB JPEG: the ICC profile when it describes RGB data, else nil.
    public var jpegICCProfile: [UInt8]? {
        guard let iccProfile, iccProfile.colorSpace == "RGB " else { return nil }
        return iccProfile.data
    }
}
