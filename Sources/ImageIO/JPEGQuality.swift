/// A JPEG's encoder quality, estimated from its quantisation tables, so a re-encode keeps the original's quality.
///
/// Encoders built on libjpeg (most cameras' desktop tools, ImageMagick, GIMP, Lightroom's export) scale the IJG
/// standard tables (ITU-T T.81 Annex K) by quality; the estimate is the quality whose scaled tables are nearest
/// (sum of absolute differences). A file with its own tables (some cameras) gets the nearest IJG quality.
public enum JPEGQuality {
    /// Annex K luminance table, natural order.
    static let luminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    /// Annex K chrominance table, natural order.
    static let chrominance: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    ]

    /// The standard table `base` scaled as libjpeg's `jpeg_set_quality` does (baseline: clamped to 1…255).
    static func scaled(_ base: [Int], quality: Int) -> [Int] {
        let q = min(max(quality, 1), 100)
        let factor = q < 50 ? 5000 / q : 200 - 2 * q
        return base.map { min(max(($0 * factor + 50) / 100, 1), 255) }
    }

    /// The best-fitting quality for tables 0 (luminance) and, when present, 1 (chrominance); nil without tables.
    public static func estimate(tables: [[UInt16]]) -> Int? {
        guard let first = tables.first, first.count == 64 else { return nil }
        let bases = [luminance, chrominance]
        var best = (quality: 0, error: Int.max)
        for quality in 1...100 {
            var error = 0
            for (table, base) in zip(tables.prefix(2), bases) where table.count == 64 {
                for (value, expected) in zip(table, scaled(base, quality: quality)) {
                    error += abs(Int(value) - expected)
                }
            }
            // Ties go to the higher quality: re-encoding never loses more than the original did.
            if error <= best.error { best = (quality, error) }
        }
        return best.quality
    }

    /// The quality of the JPEG at `path`, or nil when it is not a readable JPEG.
    public static func estimate(path: String) -> Int? {
        guard (try? ImageFormat.of(path: path)) == .jpeg,
              let reader = try? JPEGReader(path: path, maxPixels: .max) else { return nil }
        return reader.quality
    }
}

/// Encoder settings for every format that has them, in one place; each applies only to its own format.
public struct EncoderOptions: Sendable, Equatable {
    /// The lossy quality when none is given and the input is not a JPEG (documented in `apply --help`).
    public static let defaultQuality = JPEGImage.defaultQuality

    /// Lossy quality 1…100 for JPEG, lossy WebP, HEIF and AVIF; nil: a JPEG input's own (`JPEGQuality`), else
    /// `defaultQuality`.
    public var quality: Int?
    /// TIFF compression (nil: LZW, or the input's own where the caller knows it).
    public var tiffCompression: TIFFCompression?
    /// WebP: lossless (exact) instead of lossy at `quality`.
    public var webpLossless = false
    /// JPEG chroma sampling (nil: a JPEG input's own, else 4:4:4 at quality ≥ 90 and 4:2:0 below).
    public var subsampling: JPEGSubsampling?

    /// Default settings.
    public init(quality: Int? = nil, tiffCompression: TIFFCompression? = nil, webpLossless: Bool = false,
                subsampling: JPEGSubsampling? = nil) {
        self.quality = quality
        self.tiffCompression = tiffCompression
        self.webpLossless = webpLossless
        self.subsampling = subsampling
    }

    /// The quality to encode at.
    public var effectiveQuality: Int { quality ?? Self.defaultQuality }

    /// These options with what was not given filled from a JPEG input: its estimated quality and its chroma
    /// sampling, so JPEG → JPEG keeps both (re-encoding 4:4:4 as 4:2:0 moved edges by up to 31 ΔE00).
    public func resolved(forInput path: String) -> EncoderOptions {
        guard quality == nil || subsampling == nil, (try? ImageFormat.of(path: path)) == .jpeg,
              let reader = try? JPEGReader(path: path, maxPixels: .max) else { return self }
        var copy = self
        if copy.quality == nil { copy.quality = reader.quality }
        if copy.subsampling == nil { copy.subsampling = reader.compression.flatMap(JPEGSubsampling.init) }
        return copy
    }

}

/// How much of the chroma a JPEG keeps: the luma's sampling factors over the chroma's.
public enum JPEGSubsampling: String, Sendable, Equatable, CaseIterable {
    /// Full-resolution chroma.
    case s444 = "444"
    /// Half the chroma columns.
    case s422 = "422"
    /// Half the chroma columns and rows.
    case s420 = "420"

    /// The luma's horizontal and vertical sampling factors.
    public var factors: (horizontal: Int, vertical: Int) {
        switch self {
        case .s444: (1, 1)
        case .s422: (2, 1)
        case .s420: (2, 2)
        }
    }

    /// The sampling a JPEG was compressed with, when it is one of the three.
    public init?(_ compression: JPEGCompression) {
        guard let found = Self.allCases.first(where: {
            $0.factors == (compression.horizontal, compression.vertical)
        }) else { return nil }
        self = found
    }
}
