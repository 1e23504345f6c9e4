import ColorManagement
import Dispatch
import ImageIO
import LookCore

/// A JPEG after image's loss — quantised 8×8 DCT blocks and subsampled chroma — modelled so the fit does not bake
/// it into the look.
///
/// JPEG keeps a block's mean but quantises its detail, so texture the before image shows comes back flattened in
/// the after image: regressing after on before then learns a flatter look than the true one (errors in the
/// variables), and the continuation beyond the pair's colours carries that wrong slope outward. With S the file's
/// own compression (its quantisation tables and chroma sampling, re-applied through libjpeg) and P the current look
/// applied to the before image, the fit's target becomes `P + ω·(after − S(P))`: where P is the true look L,
/// after = S(L) and the target is L exactly; from a P that absorbed part of the loss, each round recovers a share
/// of the rest, as `ChromaSubsampling` does for the chroma part alone. ω > 1 over-relaxes the update, which the
/// detail S damps most needs (docs/EXTRACT.md).
enum JPEGLoss {
    /// Overwrites `target` (an image of the pair's size, reused round after round so 12 MP pairs do not allocate
    /// and fault in two fresh images per round) with the next round's target: P + relaxation · (after − S(P)),
    /// P being `cube` applied to `before`. Returns S(P) as 8-bit codes, from which the binning pass recovers P
    /// without sampling the cube again (`Prediction`).
    ///
    /// When the after image's samples were converted from the file's own profile (`space`), the loss happened to
    /// the file's codes: P is put through the file's compression in the file's space (the look and the conversion
    /// composed into one cube, as `apply` composes them) and brought back through `space`'s conversion cube. S(P)
    /// then comes back rounded to 8-bit codes of the working space (an unbiased half code at most).
    static func restore(_ target: inout PairImage, before: PairImage, after: PairImage, cube: ColorCube,
                        interpolation: Interpolation, compression: JPEGCompression, space: FileSpace? = nil,
                        relaxation: Float) throws(ExtractionError) -> Prediction {
        let count = before.rgb.count, chunks = LookExtractor.chunkCount * 4
        var codes = [UInt8](repeating: 0, count: count)
        let sampler = BatchSampler(cube, interpolation: interpolation)
        let toFile: BatchSampler?
        do {
            toFile = try space.map { s in
                BatchSampler(try ColorManagedLook(look: cube, workingSpace: s.conversion.samples,
                                                  interpolation: interpolation)
                                .cube(input: s.conversion.samples, output: s.conversion.file),
                             interpolation: interpolation)
            }
        } catch {
            throw .colorSpace(file: "the after image", reason: "\(error)")
        }
        before.rgb.withUnsafeBufferPointer { b in target.rgb.withUnsafeMutableBufferPointer { t in
            codes.withUnsafeMutableBufferPointer { c in
                // The file's codes of P pass through `target` on their way; P itself is written over them.
                if let toFile { toFile.applyOnAllCores(b, into: t, codes: c) }
                sampler.applyOnAllCores(b, into: t, codes: toFile == nil ? c : nil)
            }
        } }
        var compressed: [UInt8]
        do {
            compressed = try compression.roundTrip(codes, width: before.width, height: before.height)
        } catch {
            throw .invalidInput("cannot re-create the after image's JPEG compression: \(error.reason)")
        }
        if let space {
            let toSamples = BatchSampler(space.toSamples, interpolation: .tetrahedral)
            compressed.withUnsafeMutableBufferPointer { c in
                nonisolated(unsafe) let codes = c
                DispatchQueue.concurrentPerform(iterations: chunks) { k in
                    let range = (3 * (count / 3 * k / chunks))..<(3 * (count / 3 * (k + 1) / chunks))
                    var floats = codes[range].map { Float($0) / 255 }
                    floats.withUnsafeMutableBufferPointer { f in
                        toSamples.apply(f, into: f, codes: UnsafeMutableBufferPointer(rebasing: codes[range]))
                    }
                }
            }
        }
        target.rgb.withUnsafeMutableBufferPointer { t in after.rgb.withUnsafeBufferPointer { a in
            compressed.withUnsafeBufferPointer { s in
                nonisolated(unsafe) let out = t, edited = a, squeezed = s
                DispatchQueue.concurrentPerform(iterations: chunks) { k in
                    for i in (count * k / chunks)..<(count * (k + 1) / chunks) {
                        out[i] += relaxation * (edited[i] - Float(squeezed[i]) / 255)
                    }
                }
            }
        } }
        return Prediction(after: after.rgb, squeezed: compressed, relaxation: relaxation)
    }

    /// A compressed file's space and the way back from it, built once per pair.
    struct FileSpace: Sendable {
        /// The file's profile and the samples'.
        let conversion: PairImage.Conversion
        /// File codes to the samples' space, clipped to 0…1 as the after image was when it was read, sampled at
        /// 65 points per axis (a conversion's curves are steep near black: docs/COLOR.md's finer grid).
        let toSamples: ColorCube

        init(_ conversion: PairImage.Conversion) throws(ExtractionError) {
            self.conversion = conversion
            do {
                toSamples = try ColorManagedLook(look: try ColorCube.identity(size: 65), workingSpace: conversion.file)
                    .cube(input: conversion.file, output: conversion.samples, gridSize: 65)
            } catch {
                throw .colorSpace(file: "the after image", reason: "\(error)")
            }
        }
    }

    /// What a round's target was made from, so P = target − ω·(after − S(P)) is read back per pixel instead of
    /// sampled from the cube a second time (a tenth of a 12 MP JPEG pair's fit).
    struct Prediction: Sendable {
        /// The after image as stored.
        let after: [Float]
        /// S(P): the prediction put through the file's compression, 8-bit codes.
        let squeezed: [UInt8]
        /// ω.
        let relaxation: Float
    }

    /// The limit of three successive fits of a geometric sequence, x2 + (x2 − x1)·ρ/(1 − ρ) with ρ the ratio of
    /// the steps' sizes; nil when the steps do not shrink steadily (0 < ρ < 0.9).
    static func extrapolated(_ fits: [[SIMD4<Double>]]) -> [SIMD4<Double>]? {
        guard fits.count == 3 else { return nil }
        var first = 0.0, second = 0.0
        for i in fits[0].indices {
            let a = fits[1][i] - fits[0][i], b = fits[2][i] - fits[1][i]
            first += (a * a).sum()
            second += (b * b).sum()
        }
        guard first > 0 else { return nil }
        let ratio = (second / first).squareRoot()
        guard ratio > 0, ratio < 0.9 else { return nil }
        let factor = ratio / (1 - ratio)
        return fits[2].indices.map { fits[2][$0] + factor * (fits[2][$0] - fits[1][$0]) }
    }
}
