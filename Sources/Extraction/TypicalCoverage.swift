import ColorManagement
import Foundation

/// How much of a typical photo's colours a pair shows: the share of the colour space's cells says little (a yellow
/// flower and a mountain landscape both fill about 4 % of a 33³ lattice), while the share of the pixels of photos
/// in general whose colours the pair showed says how much of the look, applied to another photo, rests on data
/// (docs/EXTRACT.md, "Coverage": it ranks held-out sources by their error on other photos where the cell share
/// does not).
enum TypicalCoverage {
    /// Each cell's share of a typical photo's pixels (`TypicalColours`, decoded; sums to 1).
    static let table: [Double] = {
        guard let bytes = Data(base64Encoded: TypicalColours.encoded, options: .ignoreUnknownCharacters),
              bytes.count == TypicalColours.cells * TypicalColours.cells * TypicalColours.cells else {
            preconditionFailure("TypicalColours.encoded is damaged: regenerate it with scripts/extract/typical-colours.py")
        }
        let steps = Double(TypicalColours.stepsPerOctave), offset = Double(TypicalColours.offsetOctaves)
        let shares = bytes.map { $0 == 0 ? 0 : exp2((Double($0) - 1) / steps - offset) }
        let total = shares.reduce(0, +)
        return shares.map { $0 / total }
    }()

    /// The pixels `samples` hold in each cell of the table's grid, their before colours placed where sRGB has
    /// them (the table counts sRGB codes).
    static func cellPixels(of samples: [FitSample], workingSpace: ColorProfile) throws -> [Double] {
        var rgb = [Float]()
        rgb.reserveCapacity(samples.count * 3)
        for s in samples { rgb += [s.before.x, s.before.y, s.before.z] }
        let sRGB = ColorProfile(.sRGB)
        if !workingSpace.isEquivalent(to: sRGB, tolerance: PairImage.sameSpaceTolerance) {
            do {
                rgb = try ColorTransform(from: workingSpace, to: sRGB).converting(rgb)
            } catch {
                throw ExtractionError.invalidInput("cannot convert the working space to sRGB to measure coverage: "
                                                   + error.description)
            }
        }
        var pixels = [Double](repeating: 0, count: TypicalColours.cells * TypicalColours.cells * TypicalColours.cells)
        for (k, s) in samples.enumerated() {
            pixels[cell(rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2])] += s.pixels
        }
        return pixels
    }

    /// The table's cell of an sRGB colour (components 0…1), red fastest.
    @inline(__always)
    static func cell(_ r: Float, _ g: Float, _ b: Float) -> Int {
        let n = TypicalColours.cells
        func index(_ v: Float) -> Int { Int((min(1, max(0, v)) * 255).rounded()) * n / 256 }
        return index(r) + n * (index(g) + n * index(b))
    }

    /// The share of a typical photo's pixels whose colours cells holding `pixels` show, a cell seen by n pixels
    /// counting n / (n + `halfWeight`) as the fit weighs its bins, so a few stray pixels do not claim a colour.
    static func share(cellPixels pixels: [Double], halfWeight: Double) -> Double {
        var covered = 0.0
        for (share, count) in zip(table, pixels) where count > 0 { covered += share * count / (count + halfWeight) }
        return covered
    }
}
