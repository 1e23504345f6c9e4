import ColorManagement
import Foundation
import LookCore

/// What a fit reports besides its look: the held-out error, each pair's residual map and regions, and the warnings
/// about lossy after images, local edits and hues the pairs never show.
extension LookExtractor {
    /// Below this JPEG quality an after image's loss is worth a word to the user.
    static let lossyQuality = 95

    /// A note for an after image that went through lossy compression (a JPEG below `lossyQuality`, a lossy WebP,
    /// HEIC or AVIF, or 4:2:0 chroma found in its pixels), saying what of the loss the fit modelled: the colours the
    /// photo shows in few pixels rest on a few noisy samples, and a look from a JPEG q85 pair lands about twice as
    /// far from the true look on other photos as one from a lossless export (docs/EXTRACT.md, "How much of the JPEG
    /// rows' error is noise").
    static func lossyWarning(_ after: PairImage, subsampled: Bool, name: String) -> String? {
        let described: String, modelled: String
        if let quality = after.compression?.quality {
            guard quality < lossyQuality else { return nil }
            (described, modelled) = ("a JPEG of quality about \(quality)", "its compression was modelled, but")
        } else if let codec = after.lossyCodec {
            modelled = subsampled ? "its half-resolution chroma was modelled, the rest of its compression not, and"
                : "its compression is not modelled, and"
            described = codec.rawValue
        } else if subsampled {
            (described, modelled) = ("JPEG-compressed (its chroma is subsampled)", "its compression was modelled, but")
        } else {
            return nil
        }
        return "\(name): the edited image is \(described); \(modelled) colours it shows in only a few pixels are "
            + "less certain (about twice the error of a lossless export on other photos) — export the edit as PNG "
            + "or TIFF for the most faithful look"
    }

    /// The six hue sectors (60° each, centred on the primaries and secondaries) in which no observed cell holds a
    /// saturated colour: cell centres whose max − min is at least 0.35 with max at least 0.35.
    static func unseenHues(observed: [Bool], size n: Int) -> [String] {
        let names = ["red", "yellow", "green", "cyan", "blue", "magenta"]
        var seen = [Bool](repeating: false, count: 6)
        let cells = n - 1
        for (index, isObserved) in observed.enumerated() where isObserved {
            let c = SIMD3(Float(index % cells), Float((index / cells) % cells), Float(index / (cells * cells)))
            let v = (c + 0.5) / Float(cells)
            let high = v.max(), low = v.min(), chroma = high - low
            guard chroma >= 0.35, high >= 0.35 else { continue }
            var hue: Float
            if high == v.x {
                hue = (v.y - v.z) / chroma
            } else if high == v.y {
                hue = 2 + (v.z - v.x) / chroma
            } else {
                hue = 4 + (v.x - v.y) / chroma
            }
            hue = (hue * 60 + 360).truncatingRemainder(dividingBy: 360)
            seen[Int((hue + 30) / 60) % 6] = true
        }
        return names.indices.filter { !seen[$0] }.map { names[$0] }
    }

    /// ΔE00 between the after image and the fitted look on the held-out pixels (at most about 200,000 of them).
    static func heldOutError(pairs: [(before: PairImage, after: PairImage)], cube: ColorCube,
                             settings: ExtractionSettings, workingSpace: ColorProfile) throws -> ErrorSummary {
        let stride = max(1, settings.holdOutStride)
        let total = pairs.reduce(0) { $0 + $1.before.width * $1.before.height } / stride
        let every = max(1, total / 200_000)
        var colours: [Float] = [], target: [Float] = []
        colours.reserveCapacity(3 * (total / every + pairs.count))
        target.reserveCapacity(3 * (total / every + pairs.count))
        for p in pairs {
            p.before.rgb.withUnsafeBufferPointer { before in p.after.rgb.withUnsafeBufferPointer { after in
                var i = stride / 2
                while i < before.count / 3 {
                    for c in 0..<3 {
                        colours.append(before[3 * i + c])
                        target.append(after[3 * i + c])
                    }
                    i += stride * every
                }
            } }
        }
        return ErrorSummary(try ColorAccuracy.differences(
            fitted(colours, cube: cube, interpolation: settings.interpolation), target, in: workingSpace))
    }

    /// `cube` applied to RGB triples through the vector sampler.
    static func fitted(_ colours: [Float], cube: ColorCube, interpolation: Interpolation) -> [Float] {
        var out = [Float](repeating: 0, count: colours.count)
        colours.withUnsafeBufferPointer { source in out.withUnsafeMutableBufferPointer { target in
            BatchSampler(cube, interpolation: interpolation).applyOnAllCores(source, into: target)
        } }
        return out
    }

    /// The residual map (about 96 cells wide) and the 3×3 region means of one pair, from a strided sample of at most
    /// about 150,000 pixels.
    static func residuals(before: PairImage, after: PairImage, cube: ColorCube, settings: ExtractionSettings,
                          workingSpace: ColorProfile) throws -> PairFit {
        let w = before.width, h = before.height
        let step = max(1, Int((Double(w * h) / 150_000).squareRoot().rounded(.up)))
        let mw = min(96, w), mh = max(1, Int((Double(h) * Double(mw) / Double(w)).rounded()))
        var colours: [Float] = [], target: [Float] = [], where_: [(Int, Int)] = []
        before.rgb.withUnsafeBufferPointer { b in after.rgb.withUnsafeBufferPointer { a in
            for y in stride(from: 0, to: h, by: step) {
                for x in stride(from: 0, to: w, by: step) {
                    for c in 0..<3 {
                        colours.append(b[3 * (y * w + x) + c])
                        target.append(a[3 * (y * w + x) + c])
                    }
                    where_.append((x, y))
                }
            }
        } }
        let differences = try ColorAccuracy.differences(
            fitted(colours, cube: cube, interpolation: settings.interpolation), target, in: workingSpace)
        var cells = [Double](repeating: 0, count: mw * mh), cellCount = [Double](repeating: 0, count: mw * mh)
        var regions = [Double](repeating: 0, count: 9), regionCount = [Double](repeating: 0, count: 9)
        for (k, (x, y)) in where_.enumerated() {
            let c = (y * mh / h) * mw + x * mw / w
            cells[c] += differences[k]
            cellCount[c] += 1
            let r = (y * 3 / h) * 3 + x * 3 / w
            regions[r] += differences[k]
            regionCount[r] += 1
        }
        let map = ResidualMap(width: mw, height: mh, values: (0..<(mw * mh)).map {
            cellCount[$0] > 0 ? Float(cells[$0] / cellCount[$0]) : 0
        })
        return PairFit(width: w, height: h, residuals: map, vignetteCornerGain: nil,
                       regions: (0..<9).map { regionCount[$0] > 0 ? regions[$0] / regionCount[$0] : 0 })
    }

    static let regionNames = ["top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom",
                              "bottom-right"]

    /// A warning when one region's residual stands out: at least 1.5 ΔE00 (visible side by side) and 2.5× the
    /// median region, i.e. a local edit the global colour change cannot carry. Corners raised on average against
    /// the centre (same thresholds) read as a vignette and are named together.
    static func spatialWarning(_ regions: [Double], name: String) -> String? {
        let centre = regions[4]
        let corners = [0, 2, 6, 8].map { regions[$0] }.reduce(0, +) / 4
        if corners >= 1.5 && corners >= 2.5 * max(centre, 0.2) {
            return String(format: "%@: corners: residual %.1f dE00 vs %.1f in the centre — looks like a vignette, "
                + "a local edit a look cannot carry; it was down-weighted in the fit", name, corners, centre)
        }
        let median = regions.sorted()[4]
        let raised = (0..<9).filter { regions[$0] >= 1.5 && regions[$0] >= 2.5 * max(median, 0.2) }
        guard !raised.isEmpty else { return nil }
        let reference = raised.contains(4) ? median : centre
        let place = raised.contains(4) ? "in the median region" : "in the centre"
        let worst = raised.max { regions[$0] < regions[$1] }!
        return String(format: "%@: %@: residual %.1f dE00 vs %.1f %@ — a local edit (brush, gradient, text) a look "
            + "cannot carry; it was down-weighted in the fit", name, regionNames[worst], regions[worst], reference,
            place)
    }
}
