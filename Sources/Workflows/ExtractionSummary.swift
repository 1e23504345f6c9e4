import Extraction
import LookCore
import LookModel

/// The `extract --json` object: the stored look and every figure of the fit (snake_case keys, see docs/EXTRACT.md).
public struct ExtractionSummary: Sendable, Encodable {
    /// Per-pair figures.
    public struct Pair: Sendable, Encodable {
        let before: String
        let after: String
        let width: Int
        let height: Int
        let regionDe00: [Double]
        @NullEncoded var vignetteCornerGain: Double?
        @NullEncoded var compressionModel: String?
        @NullEncoded var compressedIn: String?

        enum CodingKeys: String, CodingKey {
            case before, after, width, height
            case regionDe00 = "region_de00"
            case vignetteCornerGain = "vignette_corner_gain"
            case compressionModel = "compression_model"
            case compressedIn = "compressed_in"
        }
    }

    let guid: String
    let name: String
    let status: String
    let cubeSize: Int
    let interpolation: String
    let workingSpace: String
    let heldOutMeanDe00: Double
    let heldOutP95De00: Double
    let heldOutPixels: Int
    let coverage: Double
    let typicalCoverage: Double
    let greyAxisMonotone: Bool
    let pairs: [Pair]
    let warnings: [String]
    let unseenHues: [String]
    let tagsAdded: [String]
    let pairsAdded: Int

    enum CodingKeys: String, CodingKey {
        case guid, name, status, interpolation, coverage, pairs, warnings
        case cubeSize = "cube_size"
        case workingSpace = "working_space"
        case heldOutMeanDe00 = "held_out_mean_de00"
        case heldOutP95De00 = "held_out_p95_de00"
        case heldOutPixels = "held_out_pixels"
        case greyAxisMonotone = "grey_axis_monotone"
        case unseenHues = "unseen_hues"
        case typicalCoverage = "typical_coverage"
        case tagsAdded = "tags_added"
        case pairsAdded = "pairs_added"
    }

    /// The summary of `outcome` for `request`.
    public init(_ outcome: LookExtraction.Outcome, request: LookExtraction.Request) {
        self.init(outcome.record, fit: outcome.fit, request: request, status: outcome.added ? "added" : "existing",
                  tagsAdded: outcome.tagsAdded)
    }

    /// The summary of a refit: status `refitted`, or `unchanged` when the cube came out the same.
    public init(_ outcome: LookExtraction.RefitOutcome) {
        self.init(outcome.record, fit: outcome.fit, request: outcome.request,
                  status: outcome.changed ? "refitted" : "unchanged", pairsAdded: outcome.pairsAdded)
    }

    private init(_ record: LookRecord, fit: LookFit, request: LookExtraction.Request, status: String,
                 tagsAdded: [String] = [], pairsAdded: Int = 0) {
        self.tagsAdded = tagsAdded
        self.pairsAdded = pairsAdded
        guid = record.guid
        name = record.name
        self.status = status
        cubeSize = fit.cube.size
        interpolation = fit.settings.interpolation.rawValue
        workingSpace = record.workingSpace
        heldOutMeanDe00 = (fit.heldOut.mean * 1000).rounded() / 1000
        heldOutP95De00 = (fit.heldOut.p95 * 1000).rounded() / 1000
        heldOutPixels = fit.heldOut.count
        coverage = (fit.coverage * 10000).rounded() / 10000
        typicalCoverage = (fit.typicalCoverage * 10000).rounded() / 10000
        greyAxisMonotone = fit.greyAxisMonotone
        pairs = zip(request.pairs, fit.pairs).map { p, f in
            Pair(before: p.before, after: p.after, width: f.width, height: f.height,
                 regionDe00: f.regions.map { ($0 * 100).rounded() / 100 },
                 vignetteCornerGain: f.vignetteCornerGain.map { ($0 * 1000).rounded() / 1000 },
                 compressionModel: f.compressionModel?.rawValue, compressedIn: f.compressedIn)
        }
        warnings = fit.warnings
        unseenHues = fit.unseenHues
    }
}
