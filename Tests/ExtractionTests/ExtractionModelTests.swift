import CFitKernels
import ColorManagement
import Foundation
import ImageIO
import LookCore
import Testing
@testable import Extraction

/// The models the fit uses for what a look is not: JPEG's 4:2:0 chroma, a vignette's radial gain, and the
/// global model the lattice continues beyond the pair's colours.
@Suite struct ExtractionModelTests {
    @Test(arguments: ChromaSubsampling.Upsampling.allCases)
    func chromaSubsamplingIsFoundOnlyWhereItHappenedAndUndoneByTheTruePrediction(
        _ upsampling: ChromaSubsampling.Upsampling) throws {
        let photo = try ExtractionFixtures.photo("astronaut", width: 128)
        let look = try ExtractionFixtures.creativeLook()
        let prediction = ExtractionFixtures.applied(look, to: photo, quantize: false)
        let detail = ChromaSubsampling.detail(prediction.rgb, width: prediction.width, height: prediction.height,
                                              upsampling: upsampling)
        var subsampled = prediction
        for i in subsampled.rgb.indices { subsampled.rgb[i] -= detail[i] }
        // Found, and with the decoder's own upsampling rather than the other one.
        #expect(ChromaSubsampling.upsampling(after: subsampled, prediction: prediction) == upsampling)
        #expect(ChromaSubsampling.upsampling(after: ExtractionFixtures.applied(look, to: photo),
                                             prediction: prediction) == nil)
        let restored = ChromaSubsampling.restored(after: subsampled, prediction: prediction, upsampling: upsampling)
        #expect(zip(restored.rgb, prediction.rgb).allSatisfy { abs($0 - $1) < 1e-5 })
        // Subsampling keeps luma: the detail taken away has none.
        for i in stride(from: 0, to: detail.count, by: 3) {
            #expect(abs(0.299 * detail[i] + 0.587 * detail[i + 1] + 0.114 * detail[i + 2]) < 1e-4)
        }
    }

    @Test func aJPEGAfterImageIsFittedThroughItsOwnCompression() throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try ExtractionFixtures.photo("coffee")
        let other = try ExtractionFixtures.photo("chelsea")
        let look = try ExtractionFixtures.creativeLook()
        try ImageFormat.write(try ExtractionFixtures.pixels8(ExtractionFixtures.applied(look, to: before)),
                              to: folder + "/after.jpg", jpegQuality: 85)
        let after = try PairImage.load(path: folder + "/after.jpg")
        let compression = try #require(after.compression)
        #expect(compression.horizontal == 2 && compression.vertical == 2)
        // Pixels that are no longer the file's as decoded carry no compression to model.
        #expect(after.boxResized(width: after.width / 2, height: after.height / 2).compression == nil)
        let modelled = try Self.expectTheJPEGModelHelps(before: before, after: after, other: other, look: look)
        #expect(modelled.pairs[0].compressionModel == .jpeg && modelled.pairs[0].compressedIn == nil)
    }

    @Test func aJPEGAfterImageStoredTurnedIsFittedThroughItsCompressionAsStored() throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try ExtractionFixtures.photo("coffee")
        let other = try ExtractionFixtures.photo("chelsea")
        let look = try ExtractionFixtures.creativeLook()
        // A phone's edit stored sideways with EXIF orientation 6 (turn clockwise to show), JPEG q85.
        let shown = try ExtractionFixtures.pixels8(ExtractionFixtures.applied(look, to: before))
        guard case .eight(let rgb) = shown.samples else { Issue.record("8-bit pixels expected"); return }
        let stored = try PixelBuffer(width: shown.height, height: shown.width, channels: 3,
                                     samples: .eight(JPEGOrientation.stored(rgb, width: shown.width,
                                                                            height: shown.height, channels: 3,
                                                                            orientation: 6)))
        let jpeg = try JPEGImage.encode(stored, quality: 85)
        try Data(Array(jpeg[0..<2]) + PairImageTests.exifSegment(orientation: 6) + Array(jpeg[2...]))
            .write(to: URL(fileURLWithPath: folder + "/after.jpg"))
        let after = try PairImage.load(path: folder + "/after.jpg")
        #expect(after.width == before.width && after.compression?.orientation == 6)
        let modelled = try Self.expectTheJPEGModelHelps(before: before, after: after, other: other, look: look)
        #expect(modelled.pairs[0].compressionModel == .jpeg)
    }

    /// Fits the pair with and without the JPEG model and checks the stated tolerance (measured on an sRGB file 0.24
    /// against 0.45 on the pair's own colours, 1.06 against 1.32 on the other photo): the model removes at least a
    /// third of the error on the pair's own colours and a tenth on another photo, and stays within 0.6 ΔE00 of the
    /// true look on its own colours. Returns the modelled fit.
    static func expectTheJPEGModelHelps(before: PairImage, after: PairImage, other: PairImage,
                                        look: ColorCube) throws -> LookFit {
        var plain = ExtractionSettings()
        plain.jpegModel = false
        let modelled = try LookExtractor.fit(pairs: [(before, after)])
        let unmodelled = try LookExtractor.fit(pairs: [(before, after)], settings: plain)
        let errorWith = ExtractionFixtures.cubeDifference(modelled.cube, look, on: other)
        let errorWithout = ExtractionFixtures.cubeDifference(unmodelled.cube, look, on: other)
        let ownWith = ExtractionFixtures.cubeDifference(modelled.cube, look, on: before)
        let ownWithout = ExtractionFixtures.cubeDifference(unmodelled.cube, look, on: before)
        #expect(ownWith < 0.67 * ownWithout, "with \(ownWith), without \(ownWithout)")
        #expect(errorWith < 0.9 * errorWithout, "with \(errorWith), without \(errorWithout)")
        #expect(ownWith < 0.6)
        #expect(unmodelled.pairs[0].compressionModel != .jpeg)
        return modelled
    }

    @Test(arguments: ["heic", "webp", "avif"])
    func aLossyAfterImageOfAnotherCodecIsFittedThroughItsSubsampledChroma(_ ext: String) throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try ExtractionFixtures.photo("coffee")
        let look = try ExtractionFixtures.creativeLook()
        let path = folder + "/after." + ext
        try ImageFormat.write(try ExtractionFixtures.pixels8(ExtractionFixtures.applied(look, to: before)),
                              to: path, color: ColorDescription(), options: EncoderOptions(quality: 85))
        let after = try PairImage.load(path: path)
        #expect(after.lossyCodec != nil && after.compression == nil)
        #expect(after.boxResized(width: after.width / 2, height: after.height / 2).lossyCodec == nil)
        var plain = ExtractionSettings()
        plain.chromaSubsamplingModel = false
        let modelled = try LookExtractor.fit(pairs: [(before, after)])
        let unmodelled = try LookExtractor.fit(pairs: [(before, after)], settings: plain)
        let own = (ExtractionFixtures.cubeDifference(modelled.cube, look, on: before),
                   ExtractionFixtures.cubeDifference(unmodelled.cube, look, on: before))
        #expect(modelled.pairs[0].compressionModel == .chroma420 && unmodelled.pairs[0].compressionModel == nil)
        // Measured (own colours, with / without): HEIC 0.16 / 0.31, AVIF 0.26 / 0.40, WebP 0.46 / 0.68.
        #expect(own.0 < 0.8 * own.1, "with \(own.0), without \(own.1)")
        #expect(modelled.warnings.contains { $0.contains("half-resolution chroma was modelled") })
    }

    @Test func aJPEGAfterImageInAnotherSpaceIsFittedThroughItsCompressionInThatSpace() throws {
        let folder = try ExtractionFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try ExtractionFixtures.photo("coffee")
        let other = try ExtractionFixtures.photo("chelsea")
        let look = try ExtractionFixtures.creativeLook()
        // A phone's edit: the after image's codes in Display P3 (the look's result converted), tagged, JPEG q85.
        let p3 = ColorProfile(.displayP3)
        var edited = ExtractionFixtures.applied(look, to: before, quantize: false)
        edited.rgb = try ColorTransform(from: ColorProfile(.sRGB), to: p3).converting(edited.rgb)
        try ImageFormat.write(try ExtractionFixtures.pixels8(edited), to: folder + "/after.jpg", jpegQuality: 85,
                              iccProfile: p3.data)
        let after = try PairImage.load(path: folder + "/after.jpg")
        #expect(after.compression != nil)
        let inP3 = after.compressedIn.map { $0.file.data == p3.data && $0.samples.named == .sRGB } ?? false
        #expect(inP3)
        // The same stated tolerance as for an sRGB file: the conversion costs the model nothing it needs.
        let modelled = try Self.expectTheJPEGModelHelps(before: before, after: after, other: other, look: look)
        #expect(modelled.pairs[0].compressionModel == .jpeg && modelled.pairs[0].compressedIn == "Display P3")
    }

    @Test func saturatedHuesThePairNeverShowsAreNamed() throws {
        // The espresso photo: a red cup on brown wood, no saturated green, cyan or blue.
        let coffee = try ExtractionFixtures.photo("coffee", width: 128)
        let look = try ExtractionFixtures.creativeLook()
        let fit = try LookExtractor.fit(pairs: [(coffee, ExtractionFixtures.applied(look, to: coffee))])
        #expect(["green", "cyan", "blue"].allSatisfy { fit.unseenHues.contains($0) }, "\(fit.unseenHues)")
        #expect(!fit.unseenHues.contains("red"), "\(fit.unseenHues)")
        // A lattice that observed one saturated colour per sector sees every hue; one that observed nothing, none.
        let cells = 32
        var observed = [Bool](repeating: false, count: cells * cells * cells)
        let colours: [SIMD3<Float>] = [[0.9, 0.1, 0.1], [0.9, 0.9, 0.1], [0.1, 0.9, 0.1], [0.1, 0.9, 0.9],
                                       [0.1, 0.1, 0.9], [0.9, 0.1, 0.9]]
        for c in colours {
            let cell = SIMD3<Int>(c * Float(cells))
            observed[cell.x + cells * (cell.y + cells * cell.z)] = true
        }
        #expect(LookExtractor.unseenHues(observed: observed, size: 33).isEmpty)
        #expect(LookExtractor.unseenHues(observed: observed.map { _ in false }, size: 33).count == 6)
    }

    @Test func theJPEGRoundsJumpToTheLimitOfAGeometricSequence() throws {
        // Fits approaching a limit L with ratio 0.6 per round: L − 0.5·0.6^k·u.
        let limit: [SIMD4<Double>] = [[0.1, -0.2, 0.3, 0], [0.05, 0, -0.1, 0]]
        let step: [SIMD4<Double>] = [[0.2, 0.1, -0.1, 0], [-0.3, 0.2, 0.1, 0]]
        let fits = (0..<3).map { k in zip(limit, step).map { $0 - 0.5 * pow(0.6, Double(k)) * $1 } }
        let jumped = try #require(JPEGLoss.extrapolated(fits))
        for (a, b) in zip(jumped, limit) { #expect(((a - b) * (a - b)).sum() < 1e-20) }
        // Steps that do not shrink are left alone.
        #expect(JPEGLoss.extrapolated([limit, step, limit]) == nil)
    }

    @Test("JPEG rounds keep to a 12 MP pair's time: 3 from 6 MP up, 6 at 4 MP, 9 for small pairs")
    func jpegRoundsKeepToTheTimeOfA12MPPair() {
        #expect(LookExtractor.jpegRounds(3, pixels: 24_000_000) == 3)
        #expect(LookExtractor.jpegRounds(3, pixels: 12_000_000) == 3)
        #expect(LookExtractor.jpegRounds(3, pixels: 6_000_000) == 3)
        #expect(LookExtractor.jpegRounds(3, pixels: 4_000_000) == 6)
        #expect(LookExtractor.jpegRounds(3, pixels: 1_000_000) == 9)
        #expect(LookExtractor.jpegRounds(3, pixels: 250_000) == 9)
        #expect(LookExtractor.jpegRounds(3, pixels: 0) == 0)
        #expect(LookExtractor.jpegRounds(0, pixels: 250_000) == 0)
    }

    @Test("a vignette is measured colour by colour: from the true look within half a percent, none on a clean pair")
    func theVignetteEstimateComparesEachColourWithItself() throws {
        let photo = try ExtractionFixtures.photo("chelsea", width: 451)
        let truth = ExtractionFixtures.applied(try ExtractionFixtures.creativeLook(), to: photo, quantize: false)
        func estimate(after: PairImage, fitted: PairImage) -> RadialGain? {
            let (w, h) = (photo.width, photo.height)
            return RadialGain.estimate(width: w, height: h, before: RadialGain.strided(photo.rgb, width: w, height: h),
                                       fitted: RadialGain.strided(fitted.rgb, width: w, height: h),
                                       after: RadialGain.strided(after.rgb, width: w, height: h))
        }
        // 1 − 0.4·r⁴: corners 40 % darker. The outer rings exist only in the corners, where a ring's mid-radius
        // overstates its pixels' distance; measured on the pixels, the true look gives the true gain.
        let vignetted = ExtractionFixtures.vignetted(truth, strength: 0.4)
        let found = try #require(estimate(after: vignetted, fitted: truth))
        #expect(abs(found.corner - 0.6) < 0.005, "corner gain \(found.corner)")
        // A look that absorbed the vignette colour by colour (each colour darkened by its mean gain over the
        // photo) leaves the same radial profile within each colour.
        var absorbed = truth
        var sums = [Double](repeating: 0, count: 4096), counts = sums
        func bin(_ i: Int) -> Int {
            let q = (SIMD3(photo.rgb[i], photo.rgb[i + 1], photo.rgb[i + 2]) * 16)
                .clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 15))
            return Int(q.x) + 16 * (Int(q.y) + 16 * Int(q.z))
        }
        for i in stride(from: 0, to: truth.rgb.count, by: 3) where truth.rgb[i + 1] > 0.01 {
            sums[bin(i)] += Double(vignetted.rgb[i + 1] / truth.rgb[i + 1])
            counts[bin(i)] += 1
        }
        for i in stride(from: 0, to: truth.rgb.count, by: 3) where counts[bin(i)] > 0 {
            for c in 0..<3 { absorbed.rgb[i + c] *= Float(sums[bin(i)] / counts[bin(i)]) }
        }
        let fromAbsorbed = try #require(estimate(after: vignetted, fitted: absorbed))
        #expect(abs(fromAbsorbed.corner - 0.6) < 0.02, "corner gain \(fromAbsorbed.corner)")
        #expect(estimate(after: truth, fitted: truth) == nil)
    }

    @Test func theGlobalModelCarriesCurvesAndAMatrixToColoursThePairLacks() throws {
        // A look of per-channel curves and a matrix; the pair is a muted photo, the check saturated primaries.
        let look = try ColorCube(size: 33) { c in
            let curved = SIMD3(c.x.squareRoot(), c.y * c.y, c.z)
            let m = SIMD3(0.9 * curved.x + 0.1 * curved.y, 0.05 * curved.x + 0.95 * curved.y,
                          0.1 * curved.y + 0.9 * curved.z)
            return m.clamped(lowerBound: .zero, upperBound: .one)
        }
        var photo = try ExtractionFixtures.photo("coffee", width: 128)
        for i in stride(from: 0, to: photo.rgb.count, by: 3) {
            let y = (photo.rgb[i] + photo.rgb[i + 1] + photo.rgb[i + 2]) / 3
            for c in 0..<3 { photo.rgb[i + c] = y + 0.4 * (photo.rgb[i + c] - y) }
        }
        let after = ExtractionFixtures.applied(look, to: photo)
        var affine = ExtractionSettings()
        affine.globalModel = false
        let withModel = try LookExtractor.fit(pairs: [(photo, after)])
        let without = try LookExtractor.fit(pairs: [(photo, after)], settings: affine)
        // Each primary and secondary three times over (cubeDifference measures every third pixel).
        let colours: [[Float]] = [[0.9, 0.1, 0.1], [0.1, 0.9, 0.1], [0.1, 0.1, 0.9], [0.9, 0.9, 0.1], [0.1, 0.9, 0.9],
                                  [0.9, 0.1, 0.9]]
        let saturated = try PairImage(width: 18, height: 1, rgb: colours.flatMap { c in (0..<3).flatMap { _ in c } })
        let errorWith = ExtractionFixtures.cubeDifference(withModel.cube, look, on: saturated)
        let errorWithout = ExtractionFixtures.cubeDifference(without.cube, look, on: saturated)
        #expect(errorWith < errorWithout)
        #expect(withModel.heldOut.mean < 0.5)
    }
}

/// The lattice solver: its two-level preconditioner changes how fast conjugate gradients converge, not what to; its
/// curvature penalty lets only an affine deviation pass free.
@Suite struct LatticeSolverTests {
    /// Samples at before colours spread at random over the cube, with random weights, all mapping to `after`.
    static func randomSamples(_ count: Int, after: SIMD3<Float> = .zero) -> [FitSample] {
        var random = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            FitSample(before: SIMD3(Float.random(in: 0...1, using: &random), Float.random(in: 0...1, using: &random),
                                    Float.random(in: 0...1, using: &random)),
                      after: after, weight: Double.random(in: 0.1...2, using: &random), pixels: 1)
        }
    }

    /// A value per lattice node, each colour channel at random in −1…1 (the spare lane 0).
    static func randomNodes(_ count: Int) -> [SIMD4<Double>] {
        var random = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            SIMD4(Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random),
                  Double.random(in: -1...1, using: &random), 0)
        }
    }

    @Test func theTwoLevelPreconditionerReachesTheSameSolution() throws {
        // Samples of a curved look on a photo's colours: a sparse, uneven cover, as real pairs give.
        let photo = try ExtractionFixtures.photo("coffee", width: 64)
        let look = try ExtractionFixtures.creativeLook()
        let after = ExtractionFixtures.applied(look, to: photo, quantize: false)
        var samples: [FitSample] = []
        for i in stride(from: 0, to: photo.rgb.count, by: 3 * 7) {
            let b = SIMD3(photo.rgb[i], photo.rgb[i + 1], photo.rgb[i + 2])
            let a = SIMD3(after.rgb[i], after.rgb[i + 1], after.rgb[i + 2])
            samples.append(FitSample(before: b, after: a, weight: 1, pixels: 1))
        }
        let solutions = [true, false].map { twoLevel in
            LatticeSolver(size: 17, interpolation: .tetrahedral, samples: samples, smoothness: 0.02,
                          twoLevel: twoLevel).solve(initial: nil, tolerance: 1e-9, maxIterations: 20_000)
        }
        var largest = 0.0
        for (a, b) in zip(solutions[0], solutions[1]) {
            let d: SIMD4<Double> = a - b
            largest = max(largest, abs(d.x), abs(d.y), abs(d.z))
        }
        // Far below a 16-bit code (1.5e-5): the same minimiser.
        #expect(largest < 1e-6, "largest difference \(largest)")
    }

    @Test(arguments: [(Interpolation.tetrahedral, 5), (.trilinear, 5), (.tetrahedral, 3), (.trilinear, 4)])
    func theAssembledMatrixIsTheObjectivesQuadraticForm(_ interpolation: Interpolation, _ n: Int) {
        // The objective written out term by term, independently of the solver's stencil: for any deviation x,
        // xᵀ·A·x must equal Σ w‖W·x‖² + λ(Σ‖∂²_axis x‖² + 2Σ‖∂²_mixed x‖²) + ridge·‖x‖², and A must be symmetric.
        let samples = Self.randomSamples(40)
        let lambda = 0.7, ridge = 1e-6 * lambda + 1e-12
        let solver = LatticeSolver(size: n, interpolation: interpolation, samples: samples, smoothness: 0,
                                   lambda: lambda)
        let count = n * n * n, plane = n * n
        func objective(_ x: [SIMD4<Double>]) -> SIMD4<Double> {
            var e = SIMD4<Double>()
            for s in samples {
                let stencil = CubeSampler.stencil(s.before, size: n, interpolation: interpolation)
                var v = SIMD4<Double>()
                for k in 0..<stencil.count { v += Double(stencil.weights[k]) * x[stencil.nodes[k]] }
                e += s.weight * v * v
            }
            for b in 0..<n { for g in 0..<n { for r in 0..<n {
                let i = r + n * g + plane * b
                for (c, step) in [(r, 1), (g, n), (b, plane)] where c >= 1 && c <= n - 2 {
                    let d = x[i - step] - 2 * x[i] + x[i + step]
                    e += lambda * d * d
                }
                for ((ca, sa), (cb, sb)) in [((r, 1), (g, n)), ((r, 1), (b, plane)), ((g, n), (b, plane))]
                where ca <= n - 2 && cb <= n - 2 {
                    let d = x[i] - x[i + sa] - x[i + sb] + x[i + sa + sb]
                    e += 2 * lambda * d * d
                }
                e += ridge * x[i] * x[i]
            } } }
            return e
        }
        func dot(_ a: [SIMD4<Double>], _ b: [SIMD4<Double>]) -> SIMD4<Double> {
            zip(a, b).reduce(SIMD4<Double>()) { $0 + $1.0 * $1.1 }
        }
        let x = Self.randomNodes(count), y = Self.randomNodes(count)
        let form = dot(x, solver.product(x)), expected = objective(x)
        for c in 0..<3 {
            #expect(abs(form[c] - expected[c]) <= 1e-9 * abs(expected[c]), "channel \(c): \(form[c]) vs \(expected[c])")
        }
        let xy = dot(x, solver.product(y)), yx = dot(y, solver.product(x))
        for c in 0..<3 { #expect(abs(xy[c] - yx[c]) <= 1e-9 * max(1, abs(xy[c]))) }
    }

    @Test(arguments: [Interpolation.tetrahedral, .trilinear], [true, false])
    func theCoarseFactorSolvesTheCoarseSystem(_ interpolation: Interpolation, _ vector: Bool) {
        // On a lattice of the coarse size the transfers are the identity, so the correction is A_c⁻¹·r itself:
        // multiplied back by A_c it must give r (to the single-precision factor's accuracy). A factor that lost an
        // entry of its band, or kept the wrong one, is off by whole percents.
        let samples = Self.randomSamples(200)
        let n = CoarseCorrection.size, count = n * n * n, lambda = 0.3
        let residual = Self.randomNodes(count)
        let coarse = CoarseCorrection(fineSize: n, interpolation: interpolation, samples: samples, lambda: lambda)
        var solved = [SIMD4<Double>](repeating: .zero, count: count)
        coarse.add(to: &solved, residual: residual, vector: vector)
        let system = LatticeSolver(size: n, interpolation: interpolation, samples: samples, smoothness: 0,
                                   lambda: lambda, twoLevel: false)
        // The residual's entries lie within ±1; a NaN or an infinity counts as off.
        let off = zip(system.product(solved), residual).filter { a, b in
            let d: SIMD4<Double> = a - b
            return !(max(abs(d.x), abs(d.y), abs(d.z)) < 1e-3)
        }
        #expect(off.isEmpty, "\(off.count) of \(count) nodes off, e.g. \(off.first.map { "\($0)" } ?? "")")
    }

    @Test func theVectorKernelsAgreeWithThePortableOnes() {
        // CFitKernels' AVX2 + FMA product and triangular solves against its portable loops (on a machine without
        // AVX2 both calls take the portable path and the test still holds).
        let samples = Self.randomSamples(300, after: SIMD3(repeating: 0.5))
        let n = 17, count = n * n * n
        let x = Self.randomNodes(count)
        func largest(_ a: [SIMD4<Double>], _ b: [SIMD4<Double>]) -> Double {
            zip(a, b).map { p -> Double in
                let d: SIMD4<Double> = p.0 - p.1, s: SIMD4<Double> = p.0 * p.0
                return max(abs(d.x), abs(d.y), abs(d.z)) / max(1, s.sum().squareRoot())
            }.max() ?? 0
        }
        let solver = LatticeSolver(size: n, interpolation: .tetrahedral, samples: samples, smoothness: 0.02)
        #expect(largest(solver.product(x), solver.product(x, vector: false)) < 1e-12)
        let coarse = CoarseCorrection(fineSize: n, interpolation: .tetrahedral, samples: samples, lambda: 0.3)
        var vector = [SIMD4<Double>](repeating: .zero, count: count), portable = vector
        coarse.add(to: &vector, residual: x)
        coarse.add(to: &portable, residual: x, vector: false)
        #expect(largest(vector, portable) < 1e-9)
        #expect(vector.contains { $0 != .zero })
    }

    @Test func theBinningKernelWeighsEachPixelByItsOwnSpatialCell() {
        // 5 × 4 pixels, spatial cells 2 × 2: the top two rows weigh 1, the bottom two ¼. Every pixel, the last of
        // each row included, must take its own row's cell (the next row's, or past the table at the bottom, is wrong).
        let width = 5, height = 4
        let before = [Float](repeating: 0.3, count: 3 * width * height), after = before
        let weights: [Float] = [1, 1, 0.25, 0.25], columns = (0..<width).map { $0 * 2 / width }
        var sums = [Double](repeating: 0, count: 8 * 4 * 4 * 4)
        before.withUnsafeBufferPointer { b in after.withUnsafeBufferPointer { a in
            weights.withUnsafeBufferPointer { w in columns.withUnsafeBufferPointer { c in
                var pass = lsfit_binning(
                    before: b.baseAddress, after: a.baseAddress, edited: nil, squeezed: nil, relaxation: 0,
                    weighted: 0, cutoff2: 0, has_gain: 0, gain_a: 0, gain_b: 0, cell_weights: w.baseAddress,
                    column_cells: c.baseAddress, cell_columns: 2, cell_rows: 2, width: width, height: height,
                    bins: 4, hold_out_stride: 1)
                // In two parts, as the fit splits rows over cores (the second starting mid-row).
                lsfit_bin(&pass, 0, 7, nil, &sums)
                lsfit_bin(&pass, 7, width * height, nil, &sums)
            } }
        } }
        let bin = 8 * (1 + 4 * (1 + 4 * 1))
        #expect(sums[bin] == 10 * 1 + 10 * 0.25)
        #expect(sums[bin + 7] == 20)
        #expect(abs(sums[bin + 1] / sums[bin] - 0.3) < 1e-6)
    }

    @Test func aTwistSeenInAPatchIsNotCarriedToTheCubesCorners() {
        // Blue moved by 2·(r − ½)(g − ½), a twist no axis has curvature along, seen only in a patch around mid-grey.
        // Carried on as it is, it would move blue by 0.5 at red = green = 1; with curvature across the axes
        // penalised as well the fit continues affinely beyond the patch, and the patch's twist averages out there.
        var samples: [FitSample] = []
        for r in stride(from: 0.4, through: 0.6, by: 0.02) {
            for g in stride(from: 0.4, through: 0.6, by: 0.02) {
                let before = SIMD3(Float(r), Float(g), 0.5)
                let after = before + SIMD3(0, 0, Float(2 * (r - 0.5) * (g - 0.5)))
                samples.append(FitSample(before: before, after: after, weight: 1, pixels: 1))
            }
        }
        let n = 17
        let deviation = LatticeSolver(size: n, interpolation: .tetrahedral, samples: samples, smoothness: 0.01)
            .solve(initial: nil, tolerance: 1e-9, maxIterations: 20_000)
        let middle = n / 2
        for (r, g) in [(n - 1, n - 1), (0, 0), (n - 1, 0), (0, n - 1)] {
            let blue = deviation[r + n * g + n * n * middle].z
            #expect(abs(blue) < 0.1, "corner (\(r), \(g)): blue moved by \(blue)")
        }
    }
}
