import Pixels

/// How an image file says its colours are to be read: the data every format carries, never applied in ImageIO.
///
/// PNG has iCCP, sRGB, gAMA and cHRM chunks; JPEG, TIFF and WebP an ICC profile; HEIF/AVIF an ICC profile or an
/// nclx box (code points from ITU-T H.273). A file with none of them is untagged, which by convention means sRGB;
/// ColorManagement turns a description into a profile.
public struct ColorDescription: Sendable, Equatable {
    /// Colour code points from ITU-T H.273, as HEIF's nclx box and AVIF carry them.
    public struct CodePoints: Sendable, Equatable {
        /// Primaries: 1 Rec. 709 / sRGB, 9 Rec. 2020, 12 Display P3, 2 unspecified.
        public var primaries: Int
        /// Transfer characteristics: 13 sRGB, 1/6/14/15 Rec. 709, 4 γ 2.2, 5 γ 2.8, 8 linear, 16 PQ, 18 HLG.
        public var transfer: Int
        /// Matrix coefficients (the YCbCr matrix; already undone when pixels reach LookStudio).
        public var matrix: Int
        /// Full-range (true) or video-range samples.
        public var fullRange: Bool

        /// Code points as stored.
        public init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
            (self.primaries, self.transfer, self.matrix, self.fullRange) = (primaries, transfer, matrix, fullRange)
        }
    }

    /// An embedded ICC profile and the name the file gives it (PNG only; other formats have no name).
    public var iccProfile: PNGColorMetadata.ICCProfile?
    /// A PNG sRGB chunk's rendering intent.
    public var srgbIntent: PNGColorMetadata.RenderingIntent?
    /// A PNG gAMA chunk (× 100 000).
    public var gamma: Int32?
    /// A PNG cHRM chunk.
    public var chromaticities: PNGColorMetadata.Chromaticities?
    /// HEIF/AVIF colour code points.
    public var codePoints: CodePoints?
    /// A PNG iCCP chunk libpng refused (too long, damaged), with its reason: the profile is missing, not absent.
    public var refusedICCProfile: String?

    /// A description with the given parts (none: untagged).
    public init(iccProfile: PNGColorMetadata.ICCProfile? = nil, srgbIntent: PNGColorMetadata.RenderingIntent? = nil,
                gamma: Int32? = nil, chromaticities: PNGColorMetadata.Chromaticities? = nil,
                codePoints: CodePoints? = nil) {
        self.iccProfile = iccProfile
        self.srgbIntent = srgbIntent
        self.gamma = gamma
        self.chromaticities = chromaticities
        self.codePoints = codePoints
    }

    /// Just an ICC profile (nil or empty bytes: untagged).
    public init(iccBytes: [UInt8]?) {
        self.init(iccProfile: iccBytes.flatMap { $0.isEmpty ? nil : PNGColorMetadata.ICCProfile(data: $0) })
    }

    /// A PNG's colour chunks.
    public init(png: PNGColorMetadata) {
        self.init(iccProfile: png.iccProfile, srgbIntent: png.srgbIntent, gamma: png.gamma,
                  chromaticities: png.chromaticities)
        refusedICCProfile = png.refusedICCProfile
    }

    /// The sRGB tag (PNG's sRGB chunk, perceptual intent).
    public static let sRGB = ColorDescription(srgbIntent: .perceptual)

    /// No colour information at all: read as sRGB.
    public var isUntagged: Bool {
        iccProfile == nil && srgbIntent == nil && gamma == nil && chromaticities == nil && codePoints == nil
    }

    /// The PNG chunks for this description: an ICC profile wins over an sRGB chunk (the PNG specification forbids
    /// both); code points have no PNG chunk and are dropped.
    public var png: PNGColorMetadata {
        PNGColorMetadata(iccProfile: iccProfile, srgbIntent: iccProfile == nil ? srgbIntent : nil,
                         gamma: gamma, chromaticities: chromaticities)
    }

    /// The ICC profile bytes to embed in a format that can only carry a profile (JPEG, TIFF, WebP, HEIF), when
    /// they describe RGB data.
    public var embeddableICC: [UInt8]? {
        guard let iccProfile, iccProfile.colorSpace == "RGB " else { return nil }
        return iccProfile.data
    }

    /// One line for people: what the file says about its colours.
    public var summary: String {
        var parts: [String] = []
        if let iccProfile {
            let name = iccProfile.name == PNGColorMetadata.ICCProfile.defaultName ? "" : " \"\(iccProfile.name)\""
            parts.append("ICC profile\(name) (\(iccProfile.data.count) bytes)")
        }
        if let srgbIntent { parts.append("sRGB chunk (\(srgbIntent))") }
        if let gamma { parts.append("gAMA \(Double(gamma) / 100_000)") }
        if chromaticities != nil { parts.append("cHRM") }
        if let c = codePoints {
            parts.append("nclx primaries \(c.primaries), transfer \(c.transfer), matrix \(c.matrix), "
                         + (c.fullRange ? "full range" : "video range"))
        }
        return parts.isEmpty ? "untagged (read as sRGB)" : parts.joined(separator: ", ")
    }
}

/// A decoded image, the format it came in and its colour description.
public struct DecodedImage: Sendable, Equatable {
    /// The pixels, upright.
    public var pixels: PixelBuffer
    /// What the file says about its colours.
    public var color: ColorDescription
    /// The format the file was in.
    public var format: ImageFormat
}
