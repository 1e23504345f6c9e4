/// How a file stores its pixels, before a reader widens them to the RGB or RGBA samples of a `PixelBuffer`: a grey
/// or palette PNG is read as RGB, a 4-bit one as 8-bit, so the delivered shape alone would misdescribe the file.
public struct StoredFormat: Sendable, Equatable, CustomStringConvertible {
    /// What a stored pixel holds; the raw values are the names `info` prints.
    public enum ColorType: String, Sendable, CaseIterable {
        case grey
        case greyAlpha = "grey+alpha"
        case rgb = "RGB"
        case rgba = "RGBA"
        /// Indices into a table of RGB colours.
        case palette
    }

    /// What a stored pixel holds.
    public var colorType: ColorType
    /// Bits per stored sample (per index for a palette): 1, 2, 4, 8, 10, 12 or 16.
    public var bitDepth: Int
    /// A PNG tRNS chunk gives a colour or palette entries transparency, so the pixels are read with alpha.
    public var transparencyChunk: Bool

    /// A stored format.
    public init(colorType: ColorType, bitDepth: Int, transparencyChunk: Bool = false) {
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.transparencyChunk = transparencyChunk
    }

    /// The format of a file that stores its pixels as it delivers them: RGB (3 channels) or RGBA (4).
    public init(channels: Int, depth: PixelBuffer.Depth) {
        self.init(colorType: channels == 4 ? .rgba : .rgb, bitDepth: depth.rawValue)
    }

    /// "grey, 8-bit", "palette with tRNS, 4-bit".
    public var description: String {
        "\(colorType.rawValue)\(transparencyChunk ? " with tRNS" : ""), \(bitDepth)-bit"
    }
}
