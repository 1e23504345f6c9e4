import ColorManagement
import LookCore

/// How a look is fitted to before/after pairs. Every constant's reasoning is in docs/EXTRACT.md.
public struct ExtractionSettings: Sendable, Equatable, Codable {
    /// Entries per cube axis of the extracted look.
    public var size = 33
    /// The interpolation `apply` will use; the fit uses the same weights so the cube reproduces the pair.
    public var interpolation: Interpolation = .tetrahedral
    /// λ of the curvature penalty relative to the mean data weight of an observed lattice node.
    public var smoothness = 0.01
    /// Colour bins per axis for aggregating pixels: about two per lattice cell at 33³, so a bin's mean sits inside
    /// one cell and the interpolation weights at it are those of its pixels to within the look's curvature.
    public var binsPerAxis = 64
    /// A bin with this many (robustly weighted) pixels carries half a full bin's weight: one or two stray pixels of
    /// a colour count less than a real patch of it, while any patch counts the same as a whole sky.
    public var binHalfWeightPixels = 2.0
    /// Reweighting rounds after the first least-squares fit (Tukey's biweight converges in a few).
    public var robustIterations = 5
    /// Every this-many-th pixel is held out of the fit and used to measure its error.
    public var holdOutStride = 7
    /// Fit the lattice as a deviation from a global additive model (per-channel and luma curves, a matrix), which
    /// it then follows beyond the pair's colours instead of the affine continuation of its edge.
    public var globalModel = true
    /// Detect JPEG 4:2:0 chroma subsampling in an after image and fit the colours it had before subsampling.
    public var chromaSubsamplingModel = true
    /// Model a JPEG after image's own compression (its quantisation tables and chroma sampling, read from the
    /// file) and fit the colours it had before (`JPEGLoss`); such a pair skips the 4:2:0 detection.
    public var jpegModel = true
    /// Over-relaxation ω of the JPEG model's update (1: plain fixed-point iteration).
    public var jpegRelaxation: Float = 1.5
    /// Reweighting rounds added while the JPEG model acts, each recovering a share of the loss: this many for a
    /// 12 MP pair; smaller pairs get up to three times as many while the rounds take no longer than a 12 MP pair's
    /// (`LookExtractor.jpegRounds`).
    public var jpegExtraRounds = 3
    /// Scale the pixels a colour bin needs for full weight with the after image's noise (JPEG), relative to 8-bit
    /// rounding.
    public var noiseWeighting = true

    /// The defaults above.
    public init() {}
}

/// Mean and 95th percentile of CIEDE2000 differences over a set of pixels.
public struct ErrorSummary: Sendable, Equatable, Codable {
    /// Mean ΔE00.
    public var mean: Double
    /// 95th-percentile ΔE00.
    public var p95: Double
    /// Pixels measured.
    public var count: Int

    /// Summarises `differences`.
    public init(_ differences: [Double]) {
        let s = ColorAccuracy.Summary(differences)
        mean = s.mean
        p95 = s.p95
        count = differences.count
    }
}

/// Per-pixel ΔE00 between the after image and the fitted look applied to the before image, averaged into cells.
public struct ResidualMap: Sendable, Equatable {
    /// Cells per row.
    public var width: Int
    /// Rows of cells.
    public var height: Int
    /// Mean ΔE00 per cell, row-major.
    public var values: [Float]
}

/// What the fit found for one pair.
public struct PairFit: Sendable, Equatable {
    /// Pixels of the pair after bringing both images to one size.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Where the fit does not reproduce the after image.
    public var residuals: ResidualMap
    /// The brightness gain found in the corners when the after image carries a vignette (nil: none found).
    public var vignetteCornerGain: Double?
    /// Mean ΔE00 in a 3×3 grid of regions, row-major (top-left … bottom-right).
    public var regions: [Double]
    /// The after image's loss the fit modelled; nil when none.
    public var compressionModel: CompressionModel? = nil
    /// The profile the JPEG's codes were in, when it was not the working space and the model ran there.
    public var compressedIn: String? = nil
}

/// A lossy after image's model of its loss.
public enum CompressionModel: String, Sendable, Equatable {
    /// The JPEG file's own quantisation tables and chroma sampling, re-applied each round (`JPEGLoss`).
    case jpeg
    /// Subsampled chroma found in the pixels (`ChromaSubsampling`).
    case chroma420 = "chroma-4:2:0"
}

/// An extracted look and what is known about how well it fits.
public struct LookFit: Sendable, Equatable {
    /// The fitted look (entries clamped to 0…1, as the catalog stores them).
    public var cube: ColorCube
    /// Settings the fit used.
    public var settings: ExtractionSettings
    /// Error on pixels held out of the fit.
    public var heldOut: ErrorSummary
    /// Share of the colour space the pairs show: of a 33³ lattice's cells (whatever the look's size), those that
    /// hold at least one observed colour.
    public var coverage: Double
    /// Share of a typical photo's pixels whose colours the pairs show (a colour seen by n pixels counting
    /// n / (n + 2)), from the colour statistics of the photo corpus (`TypicalColours`): how much of the look, applied
    /// to another photo, rests on data.
    public var typicalCoverage: Double
    /// The colours the pairs show, so a photo the look is applied to later can be told how much of it they did not.
    public var shownColours: ShownColours
    /// Whether each of the lattice's (N−1)³ cells holds an observed colour, red fastest.
    public var observedCells: [Bool]
    /// Per-pair residual maps and regions.
    public var pairs: [PairFit]
    /// Whether the fitted grey axis (the cube's diagonal) is monotone in luma.
    public var greyAxisMonotone: Bool
    /// Spatial-structure and coverage warnings, in words.
    public var warnings: [String]
    /// Hues (red, yellow, green, cyan, blue, magenta) whose saturated colours no pair shows: the look there is
    /// extrapolated, which fails for a grade that changes just those hues (docs/EXTRACT.md).
    public var unseenHues: [String] = []
}
