import CFitKernels
import Dispatch
import LookCore

/// The pixels of the pairs gathered into colour bins, each weighed by its robust residual against the current look
/// (Tukey's biweight), its image cell's spatial weight and its pair's vignette.
extension LookExtractor {
    /// Tukey's biweight cutoff, 3 robust standard deviations (tighter than the 4.685 of 95 % Gaussian efficiency:
    /// the outliers here are local edits, often mild, rather than rare gross errors), from the median residual of a
    /// strided sample of fitted pixels; never under one 8-bit code, so clean pairs do not reject their own rounding.
    static func tukeyCutoff(pairs: [(before: PairImage, after: PairImage)], cube: ColorCube,
                            gains: [RadialGain?], settings: ExtractionSettings) -> Float {
        let interpolation = settings.interpolation
        var residuals: [Float] = []
        CubeSampler(cube).withUnsafeTable { table in for (k, p) in pairs.enumerated() {
            let count = p.before.width * p.before.height
            let stride = max(1, count / 50_000)
            var i = 0
            while i < count {
                let b = SIMD3(p.before.rgb[3 * i], p.before.rgb[3 * i + 1], p.before.rgb[3 * i + 2])
                var a = SIMD3(p.after.rgb[3 * i], p.after.rgb[3 * i + 1], p.after.rgb[3 * i + 2])
                if let g = gains[k] { a /= g.factor(x: i % p.before.width, y: i / p.before.width) }
                let r = a - table.sample(b, interpolation: interpolation)
                residuals.append((r * r).sum().squareRoot())
                i += stride
            }
        } }
        residuals.sort()
        let median = residuals.isEmpty ? 0 : residuals[residuals.count / 2]
        return 3 * max(1.4826 * median, 1 / 255)
    }

    /// Weights of a pair's image cells, row-major: 1 where the fit's residual is like the rest of the image's, falling
    /// to 0 where the cell's mean residual stands out (a vignette's corners, a brushed sky).
    struct SpatialWeights {
        let columns: Int
        let rows: Int
        let values: [Float]
        /// Each image column's cell column, the map every binning pass reads (`lsfit_bin`'s `column_cells`).
        let columnCells: [Int]

        init(columns: Int, rows: Int, width: Int, values: [Float]) {
            self.columns = columns
            self.rows = rows
            self.values = values
            columnCells = (0..<width).map { $0 * columns / width }
        }
    }

    /// Spatial reweighting: a local edit puts residuals in one place, and colours seen only there cannot be told
    /// from the look by the per-pixel weights (the fit simply follows them). Cells of a 12×12 grid whose mean RGB
    /// residual exceeds four times the median cell's (and 3/255, so rounding noise never counts) get Tukey weights
    /// towards 0, so the colours they alone hold are continued from the rest of the photo instead.
    static func spatialWeights(before: PairImage, after: PairImage, gain: RadialGain?, cube: ColorCube,
                               settings: ExtractionSettings) -> SpatialWeights {
        let grid = 12, w = before.width, h = before.height
        let columns = min(grid, w), rows = min(grid, h)
        let interpolation = settings.interpolation
        let step = max(1, Int((Double(w * h) / 100_000).squareRoot().rounded(.up)))
        var sums = [Double](repeating: 0, count: columns * rows), counts = sums
        CubeSampler(cube).withUnsafeTable { table in for y in stride(from: 0, to: h, by: step) {
            for x in stride(from: 0, to: w, by: step) {
                let i = y * w + x
                let b = SIMD3(before.rgb[3 * i], before.rgb[3 * i + 1], before.rgb[3 * i + 2])
                var a = SIMD3(after.rgb[3 * i], after.rgb[3 * i + 1], after.rgb[3 * i + 2])
                if let gain { a /= gain.factor(x: x, y: y) }
                let r = a - table.sample(b, interpolation: interpolation)
                let c = (y * rows / h) * columns + x * columns / w
                sums[c] += Double((r * r).sum().squareRoot())
                counts[c] += 1
            }
        } }
        let means = (0..<(columns * rows)).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
        let median = means.sorted()[means.count / 2]
        let cutoff = max(4 * median, 3.0 / 255)
        return SpatialWeights(columns: columns, rows: rows, width: w, values: means.map { m in
            let u = max(0, 1 - (m / cutoff) * (m / cutoff))
            return Float(u * u)
        })
    }

    /// Aggregates every non-held-out pixel into colour bins by its before colour, weighted by Tukey's biweight of
    /// its residual under `cube` (all weight 1 without a cube); returns one sample per occupied bin and which
    /// lattice cells the bins occupy. A pair's `predictions` entry, when present, holds `cube` applied to its
    /// before image in the form `JPEGLoss.restore` left it.
    static func binnedSamples(pairs: [(before: PairImage, after: PairImage)], cube: ColorCube?, cutoff: Float?,
                              halfWeight: Double, spatial: [SpatialWeights]? = nil, gains: [RadialGain?] = [],
                              predictions: [JPEGLoss.Prediction?] = [],
                              settings: ExtractionSettings) -> ([FitSample], [Bool]) {
        let bins = settings.binsPerAxis, binCount = bins * bins * bins
        let chunks = chunkCount
        // Per chunk: Σw, Σw·before (3), Σw·after (3), pixel count.
        var sums = [[Double]](repeating: [], count: chunks)
        let sampler = cube.map { BatchSampler($0, interpolation: settings.interpolation) }
        for (pairIndex, p) in pairs.enumerated() {
            let prediction = sampler == nil || pairIndex >= predictions.count ? nil : predictions[pairIndex]
            let edited = prediction?.after ?? [], squeezed = prediction?.squeezed ?? []
            let count = p.before.width * p.before.height
            let results = p.before.rgb.withUnsafeBufferPointer { before in
                p.after.rgb.withUnsafeBufferPointer { after in
                edited.withUnsafeBufferPointer { edited in squeezed.withUnsafeBufferPointer { squeezed in
                    let pass = BinningPass(
                        before: before, after: after, edited: edited, squeezed: squeezed, width: p.before.width,
                        height: p.before.height, gain: pairIndex < gains.count ? gains[pairIndex] : nil,
                        cellWeights: spatial?[pairIndex], sampler: sampler, relaxation: prediction?.relaxation,
                        bins: bins, holdOutStride: settings.holdOutStride, cutoff: cutoff)
                    nonisolated(unsafe) var partial = [[Double]](repeating: [], count: chunks)
                    partial.withUnsafeMutableBufferPointer { part in
                        nonisolated(unsafe) let parts = part
                        DispatchQueue.concurrentPerform(iterations: chunks) { k in
                            var acc = [Double](repeating: 0, count: 8 * binCount)
                            acc.withUnsafeMutableBufferPointer {
                                pass.accumulate(count * k / chunks, count * (k + 1) / chunks, into: $0)
                            }
                            parts[k] = acc
                        }
                    }
                    return partial
                } }
            } }
            for k in 0..<chunks {
                if sums[k].isEmpty { sums[k] = results[k] } else {
                    for j in 0..<(8 * binCount) { sums[k][j] += results[k][j] }
                }
            }
        }
        var total = sums[0]
        for k in 1..<chunks where !sums[k].isEmpty { for j in 0..<(8 * binCount) { total[j] += sums[k][j] } }
        var samples: [FitSample] = []
        let n = settings.size
        var cells = [Bool](repeating: false, count: (n - 1) * (n - 1) * (n - 1))
        for bin in 0..<binCount where total[8 * bin] > 0 {
            let o = 8 * bin, w = total[o]
            let before = SIMD3(Float(total[o + 1] / w), Float(total[o + 2] / w), Float(total[o + 3] / w))
            let after = SIMD3(Float(total[o + 4] / w), Float(total[o + 5] / w), Float(total[o + 6] / w))
            samples.append(FitSample(before: before, after: after, weight: w / (w + halfWeight), pixels: w))
            let c = (before * Float(n - 1)).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: Float(n - 2)))
            cells[Int(c.x) + (n - 1) * (Int(c.y) + (n - 1) * Int(c.z))] = true
        }
        return (samples, cells)
    }

    /// One pair's pixels as a binning pass reads them (the buffers are borrowed for the pass), with what weighs each
    /// pixel: the robust cutoff against the current fit (or the JPEG model's prediction), the vignette and the
    /// spatial weights; held-out pixels are skipped.
    struct BinningPass: @unchecked Sendable {
        let before, after, edited: UnsafeBufferPointer<Float>
        let squeezed: UnsafeBufferPointer<UInt8>
        let width, height: Int
        let gain: RadialGain?
        let cellWeights: SpatialWeights?
        /// The current fit; nil in the first round (every pixel weighs 1).
        let sampler: BatchSampler?
        /// ω of the JPEG model when its prediction is read back (P = target − ω·(after − S(P))) instead of sampling.
        let relaxation: Float?
        let bins, holdOutStride: Int
        let cutoff: Float?

        /// Adds pixels `lo..<hi` into `a`: per colour bin Σw, Σw·before (3), Σw·after (3) and the pixel count
        /// (`lsfit_bin`, fed the fit's prediction a block at a time from the vector sampler when there is one).
        func accumulate(_ lo: Int, _ hi: Int, into a: UnsafeMutableBufferPointer<Double>) {
            let block = 4096, sampling = sampler != nil && relaxation == nil
            var modelled = [Float](repeating: 0, count: sampling ? 3 * block : 0)
            let values = cellWeights?.values ?? [], columnCells = cellWeights?.columnCells ?? []
            values.withUnsafeBufferPointer { weights in columnCells.withUnsafeBufferPointer { cells in
                modelled.withUnsafeMutableBufferPointer { m in
                    var pass = lsfit_binning(
                        before: before.baseAddress, after: after.baseAddress, edited: edited.baseAddress,
                        squeezed: relaxation == nil ? nil : squeezed.baseAddress, relaxation: relaxation ?? 0,
                        weighted: sampler == nil ? 0 : 1, cutoff2: cutoff.map { $0 * $0 } ?? 0,
                        has_gain: gain == nil ? 0 : 1, gain_a: gain?.a ?? 0, gain_b: gain?.b ?? 0,
                        cell_weights: cellWeights == nil ? nil : weights.baseAddress,
                        column_cells: cells.baseAddress, cell_columns: cellWeights?.columns ?? 0,
                        cell_rows: cellWeights?.rows ?? 0, width: width, height: height, bins: bins,
                        hold_out_stride: holdOutStride)
                    guard let sampler, sampling else {
                        lsfit_bin(&pass, lo, hi, nil, a.baseAddress)
                        return
                    }
                    var start = lo
                    while start < hi {
                        let end = Swift.min(hi, start + block)
                        sampler.apply(UnsafeMutableBufferPointer(mutating: UnsafeBufferPointer(
                                          rebasing: before[(3 * start)..<(3 * end)])),
                                      into: UnsafeMutableBufferPointer(rebasing: m[0..<(3 * (end - start))]))
                        lsfit_bin(&pass, start, end, m.baseAddress, a.baseAddress)
                        start = end
                    }
                }
            } }
        }
    }
}
