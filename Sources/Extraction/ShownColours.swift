import ColorManagement
import Foundation
import ImageIO

/// The colours an extracted look's pairs show, as the cells of a 32³ grid over sRGB that held at least two of
/// their pixels (a bin of two counts half in the fit). Stored with the look, so applying it to another photo can
/// say how much of that photo lies where the look was extrapolated (docs/EXTRACT.md, "Coverage").
public struct ShownColours: Sendable, Equatable {
    /// Per cell, red fastest (`TypicalColours.cells`³ of them; empty when unknown).
    public var cells: [Bool]

    /// Colours from per-cell flags.
    public init(cells: [Bool]) {
        self.cells = cells
    }

    /// Reads the flags `encoded` wrote; nil unless it is a whole grid's.
    public init?(encoded text: String) {
        let count = TypicalColours.cells * TypicalColours.cells * TypicalColours.cells
        guard let bytes = Data(base64Encoded: text), bytes.count == count / 8 else { return nil }
        cells = (0..<count).map { bytes[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }

    /// The flags as base64, one bit per cell, for the look's provenance.
    public var encoded: String {
        var bytes = [UInt8](repeating: 0, count: (cells.count + 7) / 8)
        for (k, shown) in cells.enumerated() where shown { bytes[k / 8] |= 1 << (k % 8) }
        return Data(bytes).base64EncodedString()
    }

    /// The share of the pixels `rgb` holds (sRGB floats, three per pixel, as `PairImage.colourSample` reads them)
    /// whose colours lie in cells the pairs did not show.
    public func unshownShare(of rgb: [Float]) -> Double {
        let count = rgb.count / 3
        guard !cells.isEmpty, count > 0 else { return 0 }
        var unshown = 0
        for i in 0..<count where !cells[TypicalCoverage.cell(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])] {
            unshown += 1
        }
        return Double(unshown) / Double(count)
    }

    /// The same share for an 8- or 16-bit buffer already in sRGB, read in place: no float copy of a large preview.
    public func unshownShare(of pixels: PixelBuffer) -> Double {
        guard !cells.isEmpty, pixels.width * pixels.height > 0 else { return 0 }
        switch pixels.samples {
        case .eight(let s): return unshownShare(of: s, channels: pixels.channels, divisor: 255)
        case .sixteen(let s): return unshownShare(of: s, channels: pixels.channels, divisor: 65535)
        }
    }

    private func unshownShare<T: BinaryInteger>(of samples: [T], channels c: Int, divisor: Float) -> Double {
        let count = samples.count / c
        var unshown = 0
        for i in 0..<count where !cells[TypicalCoverage.cell(Float(samples[c * i]) / divisor,
                                                             Float(samples[c * i + 1]) / divisor,
                                                             Float(samples[c * i + 2]) / divisor)] {
            unshown += 1
        }
        return Double(unshown) / Double(count)
    }
}
